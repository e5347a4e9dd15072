import { create } from 'zustand';

/**
 * "Add files…" / "Add folder…" asked from outside the drop zone (a shortcut, the Electron menu): the
 * Upload screen's drop zone opens its picker when it sees a request, then clears it.
 */
interface PickRequestState {
  readonly request: 'files' | 'folder' | null;
  readonly ask: (kind: 'files' | 'folder') => void;
  readonly clear: () => void;
}

export const usePickRequest = create<PickRequestState>((set) => ({
  request: null,
  ask: (kind) => set({ request: kind }),
  clear: () => set({ request: null }),
}));
