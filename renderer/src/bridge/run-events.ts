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

/** Put a run everywhere the UI reads it: its own query and the Activity list. */
export const storeRun = (client: QueryClient, run: Run): void => {
  client.setQueryData(runKey(run.runId), run);
  client.setQueryData<Run[]>(runsListKey(), (list) => (list ? upsertRun(list, run) : list));
};

/**
 * A `run:updated` event into the cache: applied to the run held (it carries only what was appended to the
 * status); when the page holds too little to apply it (it opened mid-run), the run is fetched whole.
 */
export const receiveRunUpdate = (client: QueryClient, update: RunUpdate): void => {
  const key = runKey(update.run.runId);
  const held = client.getQueryData<Run>(key);
  const next = applyRunUpdate(held, update);
  if (next) storeRun(client, next);
  else {
    // The Activity list shows the run's header only, which the update carries whole.
    client.setQueryData<Run[]>(runsListKey(), (list) => (list ? upsertRun(list, { ...update.run, status: held?.status ?? update.run.status }) : list));
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
