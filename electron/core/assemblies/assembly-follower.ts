import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { isAssemblyBusy, SseEvent } from '../../../shared/api/codes';
import type { AssemblyUpdate, StepProgress } from '../../../shared/ipc/assembly-models';
import type { Result } from '../../../shared/result';
import type { StatusFetchHooks } from '../api/api-client';
import { watchAssembly, type AssemblyWatcher } from '../watch/assembly-watcher';

export interface AssemblyFollower {
  /** Follow a busy Assembly until it ends (once per key); false when it has already ended. */
  follow(key: string, initial: AssemblyStatus, getStatus: (url: string, hooks?: StatusFetchHooks) => Promise<Result<AssemblyStatus>>, doFetch?: typeof fetch): boolean;
  close(): void;
}

/** At most this many Assemblies followed at once (detail views open); the oldest is let go first. */
const MAX_FOLLOWED = 20;

/**
 * Detail views of Assemblies this app did not start follow them through core's watcher (SSE on the
 * update stream, polling as a fallback), like runs. Each re-read status and each execution-progress
 * event becomes an `assembly:updated` event.
 */
export function createAssemblyFollower(emit: (update: AssemblyUpdate) => void): AssemblyFollower {
  const watchers = new Map<string, AssemblyWatcher>();
  return {
    follow(key, initial, getStatus, doFetch) {
      if (watchers.has(key)) return true;
      if (!isAssemblyBusy(initial) || !initial.assembly_id) return false;
      const assemblyId = initial.assembly_id;
      if (watchers.size >= MAX_FOLLOWED) {
        const [oldest] = watchers.keys();
        if (oldest !== undefined) {
          watchers.get(oldest)?.stop();
          watchers.delete(oldest);
        }
      }
      const watcher = watchAssembly({
        initial,
        getStatus,
        ...(doFetch ? { fetch: doFetch } : {}),
        onStatus: (status) => emit({ assemblyId, status, progress: null }),
        onFollow: (follow) => emit({ assemblyId, status: null, progress: null, follow }),
        onEvent: (name, data) => {
          if (name !== SseEvent.executionProgress) return;
          const progress = executionProgress(data);
          if (progress) emit({ assemblyId, status: null, progress });
        },
        minRefreshIntervalMs: 250,
      });
      watchers.set(key, watcher);
      void watcher.done.then(() => {
        if (watchers.get(key) === watcher) watchers.delete(key);
      });
      return true;
    },
    close() {
      for (const watcher of watchers.values()) watcher.stop();
      watchers.clear();
    },
  };
}

/**
 * `{"progress_combined":n,"progress_per_original_file":[{"original_id","progress"}]}` → the event's progress;
 * null when unreadable. `progress_per_step` (the local service's addition) is read when present and
 * well-formed, else `perStep` is null: a service that does not send it gets no invented steps.
 */
export function executionProgress(data: unknown): AssemblyUpdate['progress'] {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (typeof d.progress_combined !== 'number') return null;
  const perFile = Array.isArray(d.progress_per_original_file) ? d.progress_per_original_file : [];
  return {
    combined: d.progress_combined,
    perFile: perFile.flatMap((f: unknown) => {
      const r = f as Record<string, unknown> | null;
      return r && typeof r.original_id === 'string' && typeof r.progress === 'number' ? [{ originalId: r.original_id, progress: r.progress }] : [];
    }),
    perStep: Array.isArray(d.progress_per_step) ? d.progress_per_step.flatMap(stepProgress) : null,
  };
}

const STEP_STATES = new Set(['waiting', 'executing', 'done']);
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

function stepProgress(raw: unknown): StepProgress[] {
  const r = raw as Record<string, unknown> | null;
  if (!r || typeof r.step !== 'string' || typeof r.progress !== 'number') return [];
  const state = typeof r.state === 'string' && STEP_STATES.has(r.state) ? (r.state as StepProgress['state']) : r.progress >= 100 ? 'done' : r.progress > 0 ? 'executing' : 'waiting';
  return [{ step: r.step, robot: typeof r.robot === 'string' ? r.robot : null, state, progress: Math.max(0, Math.min(100, r.progress)), filesDone: count(r.files_done), filesTotal: count(r.files_total) }];
}
