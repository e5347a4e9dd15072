import { create } from 'zustand';
import type { LocalFile } from '../../../shared/ipc/models';
import { mergeSelection, removeFromSelection, type MergeResult } from '../lib/selection';

interface SelectionState {
  readonly files: readonly LocalFile[];
  readonly add: (incoming: readonly LocalFile[]) => MergeResult;
  readonly remove: (path: string) => void;
  readonly clear: () => void;
}

export const useSelection = create<SelectionState>((set, get) => ({
  files: [],
  add: (incoming) => {
    const result = mergeSelection(get().files, incoming);
    set({ files: result.files });
    return result;
  },
  remove: (path) => set({ files: removeFromSelection(get().files, path) }),
  clear: () => set({ files: [] }),
}));
