import { create } from 'zustand';
import type { SelectedFile } from '../../../shared/ipc/models';
import { mergeSelection, removeFromSelection, type MergeResult } from '../lib/selection';

interface SelectionState {
  readonly files: readonly SelectedFile[];
  readonly add: (incoming: readonly SelectedFile[]) => MergeResult;
  /** Remove one file by its selectionKey. */
  readonly remove: (key: string) => void;
  readonly clear: () => void;
}

export const useSelection = create<SelectionState>((set, get) => ({
  files: [],
  add: (incoming) => {
    const result = mergeSelection(get().files, incoming);
    set({ files: result.files });
    return result;
  },
  remove: (key) => set({ files: removeFromSelection(get().files, key) }),
  clear: () => set({ files: [] }),
}));
