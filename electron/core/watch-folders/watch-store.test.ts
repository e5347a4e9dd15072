import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWatchStore, type WatchDef } from './watch-store';

describe('watch store', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  it('reads a watch stored before the conflict policy existed as overwrite (its results keep replacing earlier ones), and keeps a chosen one', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'watch-store-'));
    dirs.push(dataDir);
    const base = { folder: '/in', output: '/out', recipe: { kind: 'preset', presetId: 'store-originals' }, reprocessStale: false, afterSuccess: { kind: 'keep' }, settleMs: 2_000, paused: false, createdAt: 1, lastActivityAt: null } as const;
    const store = openWatchStore(dataDir);
    // As an earlier version wrote it: no `conflict`.
    store.putWatch({ ...base, id: 'wf_old' } as unknown as WatchDef);
    store.putWatch({ ...base, id: 'wf_new', folder: '/in2', conflict: 'keep-both' });
    store.close();
    const reopened = openWatchStore(dataDir);
    try {
      expect(Object.fromEntries(reopened.watches().map((w) => [w.id, w.conflict]))).toEqual({ wf_old: 'overwrite', wf_new: 'keep-both' });
    } finally {
      reopened.close();
    }
  });
});
