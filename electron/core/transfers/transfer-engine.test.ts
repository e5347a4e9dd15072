import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { PRESETS } from '../../../shared/api/presets';
import { feedOf } from './draft-feed';
import { assembliesOf, makeFiles, openEngine, type MadeFile } from './testing/engine-fixture';

const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
let dir = '';
let service: LocalService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-engine-'));
  service = await startLocalService({ dataDir: path.join(dir, 'service'), port: 0 });
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every Assembly's uploads, as (name, size, md5) sorted, equal the files (each exactly once). */
function expectDeliveredOnce(statuses: Awaited<ReturnType<typeof assembliesOf>>, files: readonly MadeFile[]) {
  const got = statuses.flatMap((s) => (s.uploads ?? []).map((u) => `${u.name}|${u.size}|${u.md5hash}`)).sort();
  const want = files.map((f) => `${f.name}|${f.size}|${f.md5}`).sort();
  expect(got).toEqual(want);
}

describe('the transfer engine against the local service', () => {
  it('sends small files in the create request and large ones by tus, in one Assembly, each verified', async () => {
    const root = await mkdtemp(path.join(dir, 'mix-'));
    const files = await makeFiles(root, [
      ...Array.from({ length: 30 }, (_, i) => ({ relativePath: `shoot/small-${i}.jpg`, size: 1_000 + i * 97 })),
      { relativePath: 'shoot/big-a.mov', size: 3 * 1024 * 1024 },
      { relativePath: 'shoot/big-b.mov', size: 5 * 1024 * 1024 + 7 },
    ]);
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop', multipartMaxFileBytes: 64 * 1024 });
    const started = await h.engine.start({ instructions: { steps }, feed: feedOf('shoot', files) });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const done = await h.engine.settled(started.value.id);
    expect(done.state).toBe('done');
    const batches = h.engine.batchesOf(started.value.id);
    expect(batches.map((b) => [b.state, b.filesTotal, b.filesDone])).toEqual([['completed', 32, 32]]);
    const rows = h.engine.rows({ offset: 0, limit: 100 }).rows;
    expect(rows.filter((r) => r.method === 'multipart')).toHaveLength(30);
    expect(rows.filter((r) => r.method === 'tus')).toHaveLength(2);
    expect(rows.every((r) => r.state === 'verified')).toBe(true);
    const statuses = await assembliesOf(h, started.value.id);
    expect(statuses.map((s) => s.ok)).toEqual(['ASSEMBLY_COMPLETED']);
    expectDeliveredOnce(statuses, files);
    const run = h.runs.get(batches[0]!.runId!);
    expect(run.ok && run.value.state).toBe('ASSEMBLY_COMPLETED');
    await h.close();
  }, 30_000);
});
