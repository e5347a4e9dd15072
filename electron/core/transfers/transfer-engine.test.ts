import { appendFile, mkdtemp, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { PRESETS } from '../../../shared/api/presets';
import { feedOf } from './draft-feed';
import { assembliesOf, makeFiles, openEngine, until, type MadeFile } from './testing/engine-fixture';

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

describe('the Upload options in the signed params', () => {
  it('sends auth limits, referer and fields as the Assembly params, and never puts more files in one than max_number_of_files', async () => {
    const root = await mkdtemp(path.join(dir, 'options-'));
    const files = await makeFiles(root, Array.from({ length: 3 }, (_, i) => ({ relativePath: `opt/${i}.jpg`, size: 1_000 + i })));
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop' });
    const instructions = { steps, auth: { max_size: 1_000_000, max_number_of_files: 2, referer: '^https://example\\.com/' }, fields: { album: 'Trip 2026' } };
    const started = await h.engine.start({ instructions, feed: feedOf('opt', files) });
    if (!started.ok) throw new Error(started.error.message);
    expect((await h.engine.settled(started.value.id)).state).toBe('done');
    expect(h.engine.batchesOf(started.value.id).map((b) => [b.filesTotal, b.state])).toEqual([
      [2, 'completed'],
      [1, 'completed'],
    ]);
    const statuses = await assembliesOf(h, started.value.id);
    for (const status of statuses) {
      const params = JSON.parse(String(status.params)) as { auth: Record<string, unknown>; fields: Record<string, string> };
      expect(params.auth).toMatchObject({ max_size: 1_000_000, max_number_of_files: 2, referer: '^https://example\\.com/' });
      expect(params.fields).toEqual({ album: 'Trip 2026' });
      expect(status.fields).toMatchObject({ album: 'Trip 2026' });
    }
    expectDeliveredOnce(statuses, files);
    await h.close();
  }, 30_000);
});

describe('batching, unreadable files and controls', () => {
  it('splits every N files and per top-level folder, one Assembly each, each file once', async () => {
    const root = await mkdtemp(path.join(dir, 'batch-'));
    const files = await makeFiles(root, [
      ...Array.from({ length: 12 }, (_, i) => ({ relativePath: `drop/a/${i}.bin`, size: 500 + i })),
      ...Array.from({ length: 5 }, (_, i) => ({ relativePath: `drop/b/${i}.bin`, size: 700 + i })),
    ]);
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'every-n', batchMaxFiles: 5 });
    const everyN = await h.engine.start({ instructions: { steps }, feed: feedOf('drop', files) });
    if (!everyN.ok) throw new Error(everyN.error.message);
    await h.engine.settled(everyN.value.id);
    expect(h.engine.batchesOf(everyN.value.id).map((b) => [b.label, b.filesTotal, b.state])).toEqual([
      ['Files 1–5', 5, 'completed'],
      ['Files 6–10', 5, 'completed'],
      ['Files 11–15', 5, 'completed'],
      ['Files 16–17', 2, 'completed'],
    ]);
    expectDeliveredOnce(await assembliesOf(h, everyN.value.id), files);

    h.engine.saveSettings({ batchMode: 'per-folder' });
    const perFolder = await h.engine.start({ instructions: { steps }, feed: feedOf('drop', files.map((f) => ({ ...f, relativePath: f.relativePath.slice('drop/'.length) }))) });
    if (!perFolder.ok) throw new Error(perFolder.error.message);
    await h.engine.settled(perFolder.value.id);
    expect(h.engine.batchesOf(perFolder.value.id).map((b) => [b.label, b.filesTotal, b.state])).toEqual([
      ['a', 12, 'completed'],
      ['b', 5, 'completed'],
    ]);
    await h.close();
  }, 30_000);

  it('leaves an unreadable or changed file out of its Assembly with the reason, and sends the rest', async () => {
    const root = await mkdtemp(path.join(dir, 'unreadable-'));
    const files = await makeFiles(root, Array.from({ length: 6 }, (_, i) => ({ relativePath: `set/${i}.txt`, size: 100 + i })));
    const big = await makeFiles(root, [{ relativePath: 'set/gone.mov', size: 2 * 1024 * 1024 }, { relativePath: 'set/grew.mov', size: 2 * 1024 * 1024 }]);
    await rm(files[2]!.path);
    await rm(big[0]!.path);
    // Changed after they were added: a small file (read whole before the request) grown and one shrunk, and a large one (tus) grown.
    await appendFile(files[3]!.path, 'x'.repeat(47));
    await truncate(files[4]!.path, 10);
    await appendFile(big[1]!.path, 'more');
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop', multipartMaxFileBytes: 1024 });
    const t = await h.engine.start({ instructions: { steps }, feed: feedOf('set', [...files, ...big]) });
    if (!t.ok) throw new Error(t.error.message);
    await h.engine.settled(t.value.id);
    const failed = new Map(h.engine.rows({ offset: 0, limit: 10, states: ['failed'] }).rows.map((r) => [r.relativePath, r.error ?? '']));
    expect([...failed.keys()].sort()).toEqual(['set/2.txt', 'set/3.txt', 'set/4.txt', 'set/gone.mov', 'set/grew.mov']);
    expect(failed.get('set/2.txt')).toMatch(/no longer exists/);
    expect(failed.get('set/gone.mov')).toMatch(/no longer exists/);
    expect(failed.get('set/3.txt')).toMatch(/Changed since it was added \(103 bytes then, 150 now\)/);
    expect(failed.get('set/4.txt')).toMatch(/Changed since it was added \(104 bytes then, 10 now\)/);
    expect(failed.get('set/grew.mov')).toMatch(/Changed since it was added \(2097152 bytes then, 2097156 now\)/);
    expect(h.engine.batchesOf(t.value.id)[0]!.state).toBe('completed');
    expectDeliveredOnce(await assembliesOf(h, t.value.id), files.filter((_, i) => i !== 2 && i !== 3 && i !== 4));
    await h.close();
  }, 30_000);

  it('pauses and resumes a tus upload from the offset, cancels a batch, and retries a failed file in a batch of its own', async () => {
    const root = await mkdtemp(path.join(dir, 'controls-'));
    const [big] = await makeFiles(root, [{ relativePath: 'c/big.bin', size: 24 * 1024 * 1024 }]);
    const small = await makeFiles(root, Array.from({ length: 4 }, (_, i) => ({ relativePath: `c/s${i}.bin`, size: 200 })));
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'every-n', batchMaxFiles: 1, multipartMaxFileBytes: 0, bandwidthLimitBps: 8 * 1024 * 1024 }, { chunkSize: 1024 * 1024 });
    // Paused before it starts: the batches queue up, and the last one is canceled before it is created.
    // No file yet: nothing to count, but the queue is held.
    expect(h.engine.control('pause', { kind: 'all' }).affected).toBe(0);
    const t = await h.engine.start({ instructions: { steps }, feed: feedOf('c', [big!, ...small]) });
    if (!t.ok) throw new Error(t.error.message);
    await until(() => h.engine.batchesOf(t.value.id).length === 5, 5_000, 'five batches');
    expect(h.engine.overview().totals.paused).toBe(true);
    const lastBatch = h.engine.batchesOf(t.value.id).at(-1)!;
    expect(h.engine.control('cancel', { kind: 'batch', id: lastBatch.id }).affected).toBe(1);
    h.engine.control('resume', { kind: 'all' });

    const bigRow = () => h.engine.rows({ offset: 0, limit: 10, search: 'big.bin' }).rows[0]!;
    await until(() => bigRow().bytesSent > 2 * 1024 * 1024, 15_000, 'first bytes of big.bin');
    expect(h.engine.control('pause', { kind: 'files', ids: [bigRow().id] }).affected).toBe(1);
    expect(bigRow().state).toBe('paused');
    const pausedAt = bigRow().bytesSent;
    // The small ones go on meanwhile.
    await until(() => h.engine.rows({ offset: 0, limit: 10, states: ['verified'] }).total === 3, 15_000, 'three small files verified');
    expect(bigRow().bytesSent).toBe(pausedAt);
    h.engine.saveSettings({ bandwidthLimitBps: 0 });
    h.engine.control('resume', { kind: 'files', ids: [bigRow().id] });
    const done = await h.engine.settled(t.value.id);
    expect(done.state).toBe('done');
    expect(bigRow().state).toBe('verified');
    expect(h.engine.batchesOf(t.value.id).find((b) => b.id === lastBatch.id)!.state).toBe('canceled');

    // Retry the canceled file: it goes in a new batch of its own and completes.
    const canceled = h.engine.rows({ offset: 0, limit: 10, states: ['canceled'] }).rows;
    expect(canceled).toHaveLength(1);
    expect(h.engine.control('retry', { kind: 'files', ids: [canceled[0]!.id] }).affected).toBe(1);
    await until(() => h.engine.rows({ offset: 0, limit: 10, states: ['verified'] }).total === 5, 15_000, 'retried file verified');
    expect(h.engine.batchesOf(t.value.id).at(-1)!.label).toMatch(/\(retry\)$/);
    expectDeliveredOnce(await assembliesOf(h, t.value.id), [big!, ...small]);
    await h.close();
  }, 60_000);
});

describe('pause all during a create request', () => {
  it('stops the request on the wire: no Assembly gets those files while paused; on resume each file arrives once', async () => {
    const root = await mkdtemp(path.join(dir, 'pause-create-'));
    // 1.2 MB of small files in one create request, read at 400 KB/s: ~3 s on the wire.
    const files = await makeFiles(root, Array.from({ length: 60 }, (_, i) => ({ relativePath: `p/${i}.bin`, size: 20_000 })));
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop', bandwidthLimitBps: 400 * 1024 });
    const listed = async () => {
      const list = await h.api.request('GET', '/assemblies', { pagesize: 50, type: 'all' });
      if (!list.ok) throw new Error(list.error.message);
      return (list.value as { items: Array<{ id: string; ok?: string }> }).items.map((a) => a.id);
    };
    const before = await listed();
    const t = await h.engine.start({ instructions: { steps }, feed: feedOf('p', files) });
    if (!t.ok) throw new Error(t.error.message);
    await until(() => h.engine.batchesOf(t.value.id)[0]?.state === 'creating', 5_000, 'the create request');
    await new Promise((r) => setTimeout(r, 500));
    h.engine.control('pause', { kind: 'all' });
    // Every row says Paused at once (none left "Uploading").
    const rows = () => h.engine.rows({ offset: 0, limit: 100 }).rows;
    expect(rows().map((r) => r.state)).toEqual(files.map(() => 'paused'));

    // Well past the time the request needed.
    await new Promise((r) => setTimeout(r, 4_500));
    // The request stopped: the service holds at most the aborted request's Assembly, without uploads and
    // with part of the bytes (had it gone on: 60 uploads, 1.2 MB, the Assembly canceled only afterwards).
    const fresh = await Promise.all(
      (await listed()).filter((id) => !before.includes(id)).map(async (id) => {
        const a = await h.api.getAssembly(`${h.api.endpoint}/assemblies/${id}`);
        if (!a.ok) throw new Error(a.error.message);
        return { uploads: a.value.uploads?.length ?? 0, bytes: a.value.bytes_received ?? 0 };
      }),
    );
    expect(fresh.every((a) => a.uploads === 0 && a.bytes < 1_000_000)).toBe(true);
    expect(rows().every((r) => r.state === 'paused')).toBe(true);

    h.engine.saveSettings({ bandwidthLimitBps: 0 });
    h.engine.control('resume', { kind: 'all' });
    const done = await h.engine.settled(t.value.id);
    expect(done.state).toBe('done');
    expect(rows().every((r) => r.state === 'verified')).toBe(true);
    expectDeliveredOnce(await assembliesOf(h, t.value.id), files);
    await h.close();
  }, 60_000);
});
