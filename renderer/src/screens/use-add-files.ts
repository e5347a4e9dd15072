import { useMutation } from '@tanstack/react-query';
import type { PickedFile } from '../../../shared/ipc/bridge';
import type { ScanResult } from '../../../shared/ipc/models';
import { unwrap, type BridgeError } from '../bridge/bridge-error';
import { useBridge } from '../bridge/BridgeProvider';
import { useSelection } from '../state/selection-store';

export interface AddOutcome {
  readonly added: number;
  readonly duplicates: number;
  readonly skipped: ScanResult['skipped'];
  /** True when the user dropped or picked nothing readable (e.g. an empty folder). */
  readonly empty: boolean;
}

/**
 * Dropped or picked files → handles core issued for them (bridge.handlesForFiles) → expanded by core
 * (files:scan) → merged into the selection. The page never holds a path on disk. `collect` is async because dropped folders are walked first.
 */
export const useAddFiles = () => {
  const bridge = useBridge();
  const add = useSelection((s) => s.add);
  return useMutation<AddOutcome, BridgeError | Error, () => Promise<PickedFile[]>>({
    mutationFn: async (collect) => {
      const picked = await collect();
      if (picked.length === 0) return { added: 0, duplicates: 0, skipped: [], empty: true };
      const roots = unwrap(await bridge.handlesForFiles(picked));
      if (roots.length === 0) return { added: 0, duplicates: 0, skipped: [], empty: true };
      const scan = unwrap(await bridge.invoke('files:scan', { handles: roots.map((r) => r.handle) }));
      const merged = add(scan.files);
      return { added: merged.added, duplicates: merged.duplicates, skipped: scan.skipped, empty: scan.files.length === 0 && scan.skipped.length === 0 };
    },
  });
};
