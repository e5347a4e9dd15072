import { create } from 'zustand';

export interface ToastMessage {
  readonly id: number;
  readonly text: string;
  readonly tone: 'info' | 'success' | 'danger';
  /** A toast with the same tag replaces this one (as the OS does with a notification's tag). */
  readonly tag?: string;
}

interface ToastState {
  readonly toasts: readonly ToastMessage[];
  readonly show: (text: string, tone?: ToastMessage['tone'], tag?: string) => void;
  readonly dismiss: (id: number) => void;
}

/** How long a toast stays; a replacement starts its own time. */
export const TOAST_MS = 2_500;
/** Toasts on screen at once; the oldest goes first. */
const MAX_TOASTS = 4;

let nextId = 1;

/** The list after showing `toast`: one with its tag is replaced in place, else it is added last. Pure. */
export function withToast(toasts: readonly ToastMessage[], toast: ToastMessage): readonly ToastMessage[] {
  const same = toast.tag === undefined ? -1 : toasts.findIndex((t) => t.tag === toast.tag);
  if (same >= 0) return toasts.map((t, i) => (i === same ? toast : t));
  return [...toasts.slice(-(MAX_TOASTS - 1)), toast];
}

export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  show: (text, tone = 'info', tag) => {
    const id = nextId++;
    set({ toasts: withToast(get().toasts, { id, text, tone, ...(tag === undefined ? {} : { tag }) }) });
    setTimeout(() => get().dismiss(id), TOAST_MS);
  },
  dismiss: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
}));
