import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type { Run } from '../../../shared/ipc/models';
import { runUpdateOf, type RunUpdate } from '../../../shared/ipc/run-update';

export interface RunUpdates {
  /** The `run:updated` payload for this run: whole the first time, then what was appended. */
  next(run: Run): RunUpdate;
  /** The run sends no more updates (it finished): its last status is not kept for a delta. */
  forget(runId: string): void;
}

/** Remembers the status each run last sent, so the next event carries only what is new (shared/ipc/run-update.ts). */
export function createRunUpdates(): RunUpdates {
  const sent = new Map<string, AssemblyStatus | null>();
  return {
    next(run) {
      const update = runUpdateOf(run, sent.get(run.runId) ?? null);
      sent.set(run.runId, run.status);
      return update;
    },
    forget: (runId) => void sent.delete(runId),
  };
}
