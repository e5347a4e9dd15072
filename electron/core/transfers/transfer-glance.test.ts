import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { PRESETS } from '../../../shared/api/presets';
import type { TransferChanges } from '../../../shared/ipc/transfer-models';
import { feedOf } from './draft-feed';
import { assembliesOf, makeFiles, openEngine, until } from './testing/engine-fixture';

/**
 * Transfers at a glance, against the real local service: files sent many per request show their bytes as
 * they stream; the totals count the work under way; the newest drop comes first; finished drops can be
 * cleared; canceling one file of a running batch costs the others nothing until the user agrees.
 */

const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
let dir = '';
let service: LocalService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-glance-'));
  service = await startLocalService({ dataDir: path.join(dir, 'service'), port: 0 });
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('progress of files sent many per request', () => {
  it('moves bytes, files, speed and time left while the create request streams, a few events a second', async () => {
    const root = await mkdtemp(path.join(dir, 'stream-'));
    // 18 MB of files under the multipart threshold in one create request, read at 3 MB/s: ~6 s on the wire.
    const files = await makeFiles(root, Array.from({ length: 12 }, (_, i) => ({ relativePath: `s/${i}.bin`, size: 1_500_000 })));
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop', bandwidthLimitBps: 3 * 1024 * 1024 });
    const seen: TransferChanges[] = [];
    const off = h.events.on((name, payload) => {
      if (name === 'transfers:changed') seen.push(payload as TransferChanges);
    });
    const began = Date.now();
    const t = await h.engine.start({ instructions: { steps }, feed: feedOf('s', files) });
    if (!t.ok) throw new Error(t.error.message);
    const batch = () => h.engine.batchesOf(t.value.id)[0];
    await until(() => batch()?.state === 'uploading' || batch()?.state === 'processing' || batch()?.state === 'completed', 30_000, 'the create request to be answered');
    const answeredAfter = Date.now() - began;
    // While the request was on the wire (no Assembly yet): bytes and files grew step by step, with a speed and a time left.
    const during = seen.filter((c) => c.batches.every((b) => b.state === 'creating' || b.state === 'queued') && c.totals.current.bytesSent < c.totals.current.bytesTotal);
    const bytes = during.map((c) => c.totals.current.bytesSent);
    expect(new Set(bytes).size).toBeGreaterThan(5);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    const sentFiles = during.map((c) => c.totals.current.filesSent);
    expect(Math.max(...sentFiles)).toBeGreaterThan(5);
    expect(during.some((c) => c.totals.speedBps > 0)).toBe(true);
    expect(during.some((c) => c.totals.etaSeconds !== null && c.totals.etaSeconds > 0)).toBe(true);
    // Rows show their own bytes as they go: some part-sent, some whole, before the answer.
    const rows = during.flatMap((c) => c.rows);
    expect(rows.some((r) => r.state === 'uploading' && r.bytesSent > 0 && r.bytesSent < r.size)).toBe(true);
    expect(rows.some((r) => r.state === 'uploading' && r.bytesSent === r.size)).toBe(true);
    // Coalesced: at most one event per 250 ms (and one more), never one per chunk read.
    expect(seen.length).toBeLessThanOrEqual(Math.ceil(answeredAfter / 250) + 4);
    off();
    h.engine.saveSettings({ bandwidthLimitBps: 0 });
    expect((await h.engine.settled(t.value.id)).state).toBe('done');
    await h.close();
  }, 60_000);
});

describe('the totals, the order and Clear finished', () => {
  it('counts only the new drop in the totals, lists it first, and clears finished drops for good', async () => {
    const root = await mkdtemp(path.join(dir, 'order-'));
    const first = await makeFiles(root, Array.from({ length: 3 }, (_, i) => ({ relativePath: `old/${i}.jpg`, size: 1_000 + i })));
    const second = await makeFiles(root, Array.from({ length: 4 }, (_, i) => ({ relativePath: `new/${i}.jpg`, size: 2_000 + i })));
    const data = await mkdtemp(path.join(dir, 'data-'));
    let h = await openEngine(service, data, { batchMode: 'per-drop' });
    const a = await h.engine.start({ instructions: { steps }, feed: feedOf('old', first) });
    if (!a.ok) throw new Error(a.error.message);
    expect(a.value.recipe).toBe('Just store the originals');
    await h.engine.settled(a.value.id);

    // The next drop, held before a byte leaves: the bar is at 0 %, not at the finished drop's share.
    h.engine.control('pause', { kind: 'all' });
    const b = await h.engine.start({ instructions: { steps }, recipe: 'My own steps', feed: feedOf('new', second) });
    if (!b.ok) throw new Error(b.error.message);
    await until(() => h.engine.overview().totals.filesTotal === 7, 5_000, 'the second drop queued');
    const { totals, transfers } = h.engine.overview();
    expect(totals.current).toMatchObject({ transfers: 1, filesTotal: 4, filesDone: 0, bytesSent: 0, bytesTotal: second.reduce((n, f) => n + f.size, 0) });
    expect(transfers.find((x) => x.id === b.value.id)).toMatchObject({ recipe: 'My own steps', batchCount: 1 });
    // Newest first: the new drop's rows lead the list.
    const page = h.engine.rows({ offset: 0, limit: 10 });
    expect(page.rows.slice(0, 4).map((r) => r.relativePath)).toEqual(['new/0.jpg', 'new/1.jpg', 'new/2.jpg', 'new/3.jpg']);
    expect(page.groups.map((g) => [g.offset, g.count])).toEqual([
      [0, 4],
      [4, 3],
    ]);
    // Nothing is finished but the first drop: only it goes.
    h.engine.control('resume', { kind: 'all' });
    await h.engine.settled(b.value.id);
    // Both done, still the work of this run (started while the first was idle: the second alone).
    expect(h.engine.overview().totals.current).toMatchObject({ transfers: 1, filesTotal: 4, filesDone: 4 });
    expect(h.engine.clearFinished()).toEqual({ transfers: 2, files: 7, keptWithFailures: 0 });
    expect(h.engine.overview()).toMatchObject({ transfers: [], batches: [], totals: { filesTotal: 0 } });
    // Gone from the store too: a restart does not bring them back.
    await h.close();
    h = await openEngine(service, data);
    expect(h.engine.overview().transfers).toEqual([]);
    await h.close();
  }, 60_000);
});

describe('canceling one file of a running tus batch', () => {
  it('asks first, naming what would be sent again, and changes nothing until the user agrees', async () => {
    const root = await mkdtemp(path.join(dir, 'cancel-'));
    const files = await makeFiles(root, [
      { relativePath: 'c/a.mov', size: 6 * 1024 * 1024 },
      { relativePath: 'c/b.mov', size: 6 * 1024 * 1024 },
      { relativePath: 'c/c.mov', size: 6 * 1024 * 1024 },
    ]);
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop', multipartMaxFileBytes: 0, concurrency: 2, bandwidthLimitBps: 3 * 1024 * 1024 }, { chunkSize: 512 * 1024 });
    const t = await h.engine.start({ instructions: { steps }, feed: feedOf('c', files) });
    if (!t.ok) throw new Error(t.error.message);
    const row = (name: string) => h.engine.rows({ offset: 0, limit: 10, search: name }).rows[0]!;
    await until(() => (h.engine.rows({ offset: 0, limit: 10, search: 'a.mov' }).rows[0]?.bytesSent ?? 0) > 1024 * 1024, 20_000, 'a.mov under way');
    const assemblyId = h.engine.batchesOf(t.value.id)[0]!.assemblyId!;

    // c.mov has not started; canceling it would cost a.mov (and b.mov) what they sent: asked, not done.
    const asked = h.engine.control('cancel', { kind: 'files', ids: [row('c.mov').id] });
    expect(asked.affected).toBe(0);
    expect(asked.confirm?.batches).toHaveLength(1);
    const cost = asked.confirm!.batches[0]!;
    expect(cost).toMatchObject({ assemblyId, transferLabel: 'c' });
    expect(cost.files.map((f) => f.relativePath)).toContain('c/a.mov');
    expect(cost.files.every((f) => f.bytesSent > 0 && f.size === 6 * 1024 * 1024)).toBe(true);
    expect(cost.lostBytes).toBeGreaterThan(1024 * 1024);
    // Nothing changed: c.mov is still to go, a.mov went on from where it was, the Assembly still waits.
    expect(row('c.mov').state).not.toBe('canceled');
    const before = row('a.mov').bytesSent;
    await until(() => row('a.mov').bytesSent > before, 20_000, 'a.mov going on');
    const status = await h.api.getAssembly(`${h.api.endpoint}/assemblies/${assemblyId}`);
    expect(status.ok && status.value.ok).toBe('ASSEMBLY_UPLOADING');

    // Agreed: the Assembly is canceled, the batch created again without c.mov; a and b arrive once.
    const done = h.engine.control('cancel', { kind: 'files', ids: [row('c.mov').id] }, { resend: true });
    expect(done.affected).toBe(1);
    expect(row('a.mov').note).toMatch(/^Sent again \(you agreed\)/);
    h.engine.saveSettings({ bandwidthLimitBps: 0 });
    expect((await h.engine.settled(t.value.id)).state).toBe('done');
    expect(row('c.mov').state).toBe('canceled');
    const statuses = await assembliesOf(h, t.value.id);
    expect(statuses.map((s) => s.ok)).toEqual(['ASSEMBLY_COMPLETED']);
    expect((statuses[0]!.uploads ?? []).map((u) => u.name).sort()).toEqual(['a.mov', 'b.mov']);
    const old = await h.api.getAssembly(`${h.api.endpoint}/assemblies/${assemblyId}`);
    expect(old.ok && old.value.ok).toBe('ASSEMBLY_CANCELED');
    await h.close();
  }, 90_000);

  it('refuses skip rules whose smallest file is larger than the largest, with the reason, and keeps the old ones', async () => {
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')));
    const before = h.engine.settings().skip;
    const refused = h.engine.saveSettings({ skip: { ...before, minBytes: 10_000_000, maxBytes: 5_000_000 } });
    expect(refused.ok ? null : refused.error).toMatchObject({ code: 'INVALID_IPC_REQUEST', details: { field: 'minBytes' } });
    expect(refused.ok ? '' : refused.error.message).toMatch(/every file would be left out/);
    expect(h.engine.settings().skip).toEqual(before);
    await h.close();
  });

  it('cancels a file whose batch has no Assembly yet without asking', async () => {
    const root = await mkdtemp(path.join(dir, 'cancel-early-'));
    const files = await makeFiles(root, Array.from({ length: 3 }, (_, i) => ({ relativePath: `e/${i}.bin`, size: 300 })));
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop' });
    h.engine.control('pause', { kind: 'all' });
    const t = await h.engine.start({ instructions: { steps }, feed: feedOf('e', files) });
    if (!t.ok) throw new Error(t.error.message);
    await until(() => h.engine.overview().totals.filesTotal === 3, 5_000, 'queued');
    const id = h.engine.rows({ offset: 0, limit: 10, search: '1.bin' }).rows[0]!.id;
    expect(h.engine.control('cancel', { kind: 'files', ids: [id] })).toEqual({ affected: 1 });
    h.engine.control('resume', { kind: 'all' });
    await h.engine.settled(t.value.id);
    const statuses = await assembliesOf(h, t.value.id);
    expect((statuses[0]!.uploads ?? []).map((u) => u.name).sort()).toEqual(['0.bin', '2.bin']);
    await h.close();
  }, 30_000);
});
