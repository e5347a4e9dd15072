import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { AssemblylineBridge } from '../../../shared/ipc/bridge';
import type { Run } from '../../../shared/ipc/models';
import { applyRunUpdate, type RunUpdate } from '../../../shared/ipc/run-update';
import type { Rotation } from '../../../shared/ipc/workspace-models';
import { applyProgress, upsertRun } from '../lib/run-merge';
import { useBridge } from './BridgeProvider';
import { bridgeKey } from './use-bridge';

export const runKey = (runId: string) => bridgeKey('runs:get', { runId });
export const runsListKey = () => bridgeKey('runs:list', {});

/** What the Activity list holds of a run, as `runs:list` answers: no file rows, no upload or result lists. */
export const runHeaderOf = (run: Run): Run => {
  if (!run.status) return run.files.length === 0 ? run : { ...run, files: [] };
  const { uploads: _uploads, results: _results, tus_uploads: _tus, ...status } = run.status;
  return { ...run, files: [], status };
};

/** Put a run everywhere the UI reads it: its own query and the Activity list (its header only). */
export const storeRun = (client: QueryClient, run: Run): void => {
  client.setQueryData(runKey(run.runId), run);
  client.setQueryData<Run[]>(runsListKey(), (list) => (list ? upsertRun(list, runHeaderOf(run)) : list));
};

/**
 * A `run:updated` event into the cache: applied to the run held (it carries only what was appended to the
 * status); when the page holds too little to apply it (it opened mid-run), the run is fetched whole.
 * A run is held whole only while the page has a query for it (an Assembly view open, or left less than
 * react-query's gcTime ago): a drop of 100,000 files runs 100 Assemblies whose statuses list every upload
 * and result, and holding each one the page never opened kept ~145 MB alive into the next drop, whose
 * switch to Transfers then waited for major GCs of that heap (bench:start-switch, issue 27).
 */
export const receiveRunUpdate = (client: QueryClient, update: RunUpdate): void => {
  const key = runKey(update.run.runId);
  const query = client.getQueryCache().find<Run>({ queryKey: key, exact: true });
  if (!query) {
    client.setQueryData<Run[]>(runsListKey(), (list) => (list ? upsertRun(list, runHeaderOf(update.run)) : list));
    return;
  }
  const held = query.state.data;
  const next = applyRunUpdate(held, update);
  if (next) storeRun(client, next);
  else {
    // The Activity list shows the run's header only, which the update carries whole.
    client.setQueryData<Run[]>(runsListKey(), (list) => (list ? upsertRun(list, runHeaderOf({ ...update.run, status: held?.status ?? update.run.status })) : list));
    if (held) void client.invalidateQueries({ queryKey: key, exact: true });
  }
};

/** The one subscription point for core's events: they update the react-query cache. */
export const subscribeRunEvents = (bridge: AssemblylineBridge, client: QueryClient): (() => void) => {
  const offUpdated = bridge.on('run:updated', (update) => receiveRunUpdate(client, update));
  const offProgress = bridge.on('run:progress', (progress) => {
    client.setQueryData<Run>(runKey(progress.runId), (run) => (run ? applyProgress(run, progress) : run));
    // The Activity list shows totals only; it needs no file rows.
    client.setQueryData<Run[]>(runsListKey(), (list) => list?.map((r) => (r.runId === progress.runId ? { ...r, totals: progress.totals } : r)));
  });
  const offRotation = bridge.on('rotation:updated', (rotation) =>
    client.setQueryData<Rotation[]>(bridgeKey('rotations:list', {}), (list) => (list ? [rotation, ...list.filter((r) => r.id !== rotation.id)] : list)),
  );
  return () => {
    offRotation();
    offUpdated();
    offProgress();
  };
};

export const useRunEvents = (): void => {
  const bridge = useBridge();
  const client = useQueryClient();
  useEffect(() => subscribeRunEvents(bridge, client), [bridge, client]);
};
