import { create } from 'zustand';

export interface ToastMessage {
  readonly id: number;
  readonly text: string;
  readonly tone: 'info' | 'success' | 'danger';
}

interface ToastState {
  readonly toasts: readonly ToastMessage[];
  readonly show: (text: string, tone?: ToastMessage['tone']) => void;
  readonly dismiss: (id: number) => void;
}

let nextId = 1;

export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  show: (text, tone = 'info') => {
    const id = nextId++;
    set({ toasts: [...get().toasts.slice(-3), { id, text, tone }] });
    setTimeout(() => get().dismiss(id), 2_500);
  },
  dismiss: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
}));
