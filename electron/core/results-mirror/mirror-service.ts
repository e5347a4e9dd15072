import { randomUUID } from 'node:crypto';
import type { ConflictPolicy, MirrorLayout, MirrorProgress } from '../../../shared/ipc/mirror-models';
import { mirrorResults, type MirrorOptions } from './mirror-run';
import type { MirrorSource } from './mirror-plan';
import { openMirrorStore, type MirrorStore } from './mirror-store';

export interface MirrorService {
  readonly store: MirrorStore;
  /** Starts mirroring in the background; progress (and the end) goes to `onProgress` with the mirror's id. */
  /** `fetch`: the workspace's (its deployment's CA file); default the system's. */
  start(
    sources: readonly MirrorSource[],
    options: { outputDir: string; layout: MirrorLayout; conflict: ConflictPolicy; fetch?: typeof fetch; readStatus?: MirrorOptions['readStatus'] },
  ): { mirrorId: string; done: Promise<MirrorProgress> };
  cancel(mirrorId: string): boolean;
  /** Cancels every mirror and waits for their temp files to be gone. */
  close(): Promise<void>;
}

/** The mirrors core runs for `results:mirror` (one AbortController each), with the remembered choices. */
export function createMirrorService(dataDir: string, onProgress: (progress: MirrorProgress) => void, options: { concurrency?: number } = {}): MirrorService {
  const store = openMirrorStore(dataDir);
  const running = new Map<string, { abort: AbortController; done: Promise<MirrorProgress> }>();
  return {
    store,
    start(sources, { outputDir, layout, conflict, fetch, readStatus }) {
      const mirrorId = randomUUID();
      const abort = new AbortController();
      const done = mirrorResults(sources, {
        outputDir,
        layout,
        conflict,
        concurrency: options.concurrency ?? 4,
        ...(fetch ? { fetch } : {}),
        ...(readStatus ? { readStatus } : {}),
        signal: abort.signal,
        onProgress: (p) => onProgress({ mirrorId, ...p }),
        onFile: (entry, outcome) => {
          if (outcome.kind === 'written') store.remember(entry.key, { path: outcome.path, md5: outcome.md5 });
        },
      })
        .then((p) => ({ mirrorId, ...p }))
        .finally(() => {
          running.delete(mirrorId);
          void store.flush();
        });
      done.catch(() => undefined);
      running.set(mirrorId, { abort, done });
      return { mirrorId, done };
    },
    cancel(mirrorId) {
      const mirror = running.get(mirrorId);
      mirror?.abort.abort();
      return Boolean(mirror);
    },
    async close() {
      const all = [...running.values()];
      for (const m of all) m.abort.abort();
      await Promise.allSettled(all.map((m) => m.done));
      await store.flush();
    },
  };
}
