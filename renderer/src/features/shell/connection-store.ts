import { create } from 'zustand';

interface ConnectionState {
  /** The browser host's link (always true in Electron, whose IPC cannot drop). */
  readonly hostConnected: boolean;
  readonly setHostConnected: (connected: boolean) => void;
}

export const useConnection = create<ConnectionState>((set) => ({
  hostConnected: true,
  setHostConnected: (hostConnected) => set({ hostConnected }),
}));
