import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import { isAssemblyBusy } from '../../../../shared/api/codes';
import type { AssemblyDetail, AssemblyUpdate, StepProgress } from '../../../../shared/ipc/assembly-models';
import type { Run } from '../../../../shared/ipc/models';
import { useBridge } from '../../bridge/BridgeProvider';
import { bridgeKey, useBridgeQuery } from '../../bridge/use-bridge';
import type { HeldFollow } from './live-line';
import { trackSteps, type StepTimes } from './step-timing';

export interface AssemblyLive {
  readonly detail: ReturnType<typeof useBridgeQuery<'assemblies:get'>>;
  /** This app's run of the Assembly (its files, upload totals), when this app started it. */
  readonly run: Run | null;
  /** The freshest status: the run's (kept live by run events) for this app's runs, else the detail's. */
  readonly status: AssemblyStatus | null;
  readonly busy: boolean;
  /** The last `assembly_execution_progress` while it runs; null when none came (or it ended). */
  readonly progress: AssemblyUpdate['progress'];
  /** When this view saw each step start and end. */
  readonly stepTimes: ReadonlyMap<string, StepTimes>;
  /** The last per-step progress the service sent, kept once it ended (each step's files done). */
  readonly lastPerStep: readonly StepProgress[] | null;
  /** How core follows it now (stream or polling, a rate-limit wait), when it said so; null once it ended. */
  readonly follow: HeldFollow | null;
}

/**
 * Any Assembly, live, whoever started it. One of this app's runs is kept live by core's run watcher (the
 * run events update `runs:get`); any other is followed through `assemblies:follow` (SSE, polling as a
 * fallback), whose statuses update `assemblies:get`. Both send the service's execution progress as
 * `assembly:updated`, which this hook keeps with the times each step was seen running.
 */
export function useAssemblyLive(assemblyId: string): AssemblyLive {
  const bridge = useBridge();
  const client = useQueryClient();
  const detail = useBridgeQuery('assemblies:get', { assemblyId });
  const runId = detail.data?.runId ?? null;
  // Events keep the run fresh; a short staleTime avoids a refetch racing newer progress on mount.
  const runQuery = useBridgeQuery('runs:get', { runId: runId ?? '' }, { enabled: runId !== null, staleTime: 2_000 });
  const run = runId !== null ? (runQuery.data ?? null) : null;
  const status = run?.status ?? detail.data?.status ?? null;
  const busy = status ? isAssemblyBusy(status) : false;
  // A slow poll covers a run event lost while the window slept.
  useBridgeQuery('runs:get', { runId: runId ?? '' }, { enabled: runId !== null && busy, refetchInterval: 5_000 });

  const [live, setLive] = useState<{ assemblyId: string; progress: AssemblyUpdate['progress']; stepTimes: ReadonlyMap<string, StepTimes> }>({ assemblyId, progress: null, stepTimes: new Map() });
  const mine = live.assemblyId === assemblyId ? live : { assemblyId, progress: null, stepTimes: new Map<string, StepTimes>() };
  const [follow, setFollow] = useState<{ assemblyId: string; held: HeldFollow } | null>(null);

  useEffect(() => {
    if (!busy) return;
    const off = bridge.on('assembly:updated', (update) => {
      if (update.assemblyId.toLowerCase() !== assemblyId.toLowerCase()) return;
      const state = update.follow;
      if (state) setFollow({ assemblyId, held: { state, since: Date.now() } });
      if (update.progress) {
        const progress = update.progress;
        setLive((held) => {
          const base = held.assemblyId === assemblyId ? held : { assemblyId, progress: null, stepTimes: new Map<string, StepTimes>() };
          return { assemblyId, progress, stepTimes: trackSteps(base.stepTimes, progress.perStep, Date.now()) };
        });
      }
      if (update.status) {
        const next = update.status;
        client.setQueryData<AssemblyDetail>(bridgeKey('assemblies:get', { assemblyId }), (held) => (held ? { ...held, status: next } : held));
        if (!isAssemblyBusy(next)) void client.invalidateQueries({ queryKey: bridgeKey('assemblies:notifications', { assemblyId }) });
      }
    });
    // This app's run is watched by core already; any other Assembly is followed for this view.
    if (runId === null) {
      // It may have ended between the first read and the follow: then read it again instead.
      void bridge.invoke('assemblies:follow', { assemblyId }).then((answer) => {
        if (answer.ok && !answer.value.following) void client.invalidateQueries({ queryKey: bridgeKey('assemblies:get', { assemblyId }) });
      });
    }
    return off;
  }, [bridge, client, assemblyId, busy, runId]);

  // The run ended: the detail (notifications, replays) and the list read again.
  useEffect(() => {
    if (runId === null || busy || !detail.data || !isAssemblyBusy(detail.data.status)) return;
    void client.invalidateQueries({ queryKey: bridgeKey('assemblies:get', { assemblyId }) });
    void client.invalidateQueries({ queryKey: bridgeKey('assemblies:notifications', { assemblyId }) });
  }, [client, assemblyId, runId, busy, detail.data]);

  return {
    detail,
    run,
    status,
    busy,
    progress: busy ? mine.progress : null,
    stepTimes: mine.stepTimes,
    lastPerStep: mine.progress?.perStep ?? null,
    follow: busy && follow?.assemblyId === assemblyId ? follow.held : null,
  };
}
