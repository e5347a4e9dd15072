import { create } from 'zustand';
import { EMPTY_NOTIFY_FORM, type NotifyForm, type PayloadOption } from '../../lib/notify-form';

interface NotifyState extends NotifyForm {
  readonly setUrl: (url: string) => void;
  readonly toggle: (option: PayloadOption) => void;
}

/** The Upload view's notify field, kept while the user visits other views (this session only). */
export const useNotifyChoice = create<NotifyState>((set) => ({
  ...EMPTY_NOTIFY_FORM,
  setUrl: (url) => set({ url }),
  toggle: (option) => set((s) => ({ leaveOut: s.leaveOut.includes(option) ? s.leaveOut.filter((o) => o !== option) : [...s.leaveOut, option] })),
}));
