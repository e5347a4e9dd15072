import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { startFaultProxy } from '../../../service/testing/fault-proxy';
import { PRESETS } from '../../../shared/api/presets';
import { createApiClient } from '../api/api-client';
import type { EventPayload } from '../../../shared/ipc/contract';
import { feedOf } from './draft-feed';
import { assembliesOf, makeFiles, openEngine } from './testing/engine-fixture';

/** The service's test-only faults (service/files/test-faults.ts): the first upload of a name stored with a byte flipped; uploads of a name left out of their Assembly. */
const CORRUPT_FAULT_ENV = 'ASSEMBLYLINE_TEST_FAULT_CORRUPT';
const DROP_FAULT_ENV = 'ASSEMBLYLINE_TEST_FAULT_DROP';
const DROP_TIMES_ENV = 'ASSEMBLYLINE_TEST_FAULT_DROP_TIMES';
const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
let dir = '';
const services: LocalService[] = [];

/** A service started with these test-fault variables. */
async function serviceWith(env: Record<string, string>): Promise<LocalService> {
  Object.assign(process.env, env);
  try {
    const s = await startLocalService({ dataDir: await mkdtemp(path.join(dir, 'service-')), port: 0 });
    services.push(s);
    return s;
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
  }
}

/** A service that stores the first upload named `corrupt` with one byte flipped (test-only fault). */
const serviceCorrupting = (corrupt: string | null): Promise<LocalService> => serviceWith(corrupt ? { [CORRUPT_FAULT_ENV]: corrupt } : {});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-engine-faults-'));
});
afterAll(async () => {
  for (const s of services) await s.close();
  await rm(dir, { recursive: true, force: true });
});

describe('end-to-end checksums', () => {
  for (const method of ['multipart', 'tus'] as const) {
    it(`detects a file the service stored wrong (${method}), sends its batch again, and verifies it`, async () => {
      const service = await serviceCorrupting('bad.bin');
      const root = await mkdtemp(path.join(dir, 'in-'));
      const files = await makeFiles(root, [
        { relativePath: 'k/bad.bin', size: 300_000 },
        { relativePath: 'k/good.bin', size: 200_000 },
      ]);
      const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop', multipartMaxFileBytes: method === 'tus' ? 0 : 1024 * 1024 });
      const t = await h.engine.start({ instructions: { steps }, feed: feedOf('k', files) });
      if (!t.ok) throw new Error(t.error.message);
      const done = await h.engine.settled(t.value.id);
      expect(done.state).toBe('done');
      const rows = h.engine.rows({ offset: 0, limit: 10 }).rows.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
      expect(rows.map((r) => [r.relativePath, r.state, r.method])).toEqual([
        ['k/bad.bin', 'verified', method],
        ['k/good.bin', 'verified', method],
      ]);
      expect(rows[0]!.note).toMatch(/checksum did not match/);
      // Each file is intact, once, in the completed Assembly of the batch it ended in. Seen before the end,
      // the wrong md5 canceled the first Assembly and sent the batch again; seen at the end, the file went
      // again alone in a new batch.
      const batches = h.engine.batchesOf(t.value.id);
      for (const [i, row] of rows.entries()) {
        const b = batches.find((x) => x.id === row.batchId)!;
        const status = await h.api.getAssembly(`${h.api.endpoint}/assemblies/${b.assemblyId}`);
        if (!status.ok) throw new Error(status.error.message);
        expect(status.value.ok).toBe('ASSEMBLY_COMPLETED');
        expect((status.value.uploads ?? []).filter((u) => u.name === files[i]!.name).map((u) => u.md5hash)).toEqual([files[i]!.md5]);
      }
      const all = await h.api.request('GET', '/assemblies', { pagesize: 50 });
      expect([['ASSEMBLY_CANCELED', 'ASSEMBLY_COMPLETED'], ['ASSEMBLY_COMPLETED', 'ASSEMBLY_COMPLETED']]).toContainEqual(all.ok && (all.value.items as Array<{ ok: string }>).map((i) => i.ok).sort());
      await h.close();
    }, 30_000);
  }
});

describe('every file exactly once: an Assembly that completes without one of them', () => {
  for (const method of ['multipart', 'tus'] as const) {
    it(`sends a file its completed Assembly left out (${method}) again in a new batch, verified there; the others done in the first`, async () => {
      const service = await serviceWith({ [DROP_FAULT_ENV]: "it's gone (1).txt", [DROP_TIMES_ENV]: '1' });
      const root = await mkdtemp(path.join(dir, 'in-'));
      const files = await makeFiles(root, [
        { relativePath: "d/it's gone (1).txt", size: 2_000 },
        { relativePath: 'd/stays.txt', size: 3_000 },
      ]);
      const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop', multipartMaxFileBytes: method === 'tus' ? 0 : 1024 * 1024 });
      const t = await h.engine.start({ instructions: { steps }, feed: feedOf('d', files) });
      if (!t.ok) throw new Error(t.error.message);
      expect((await h.engine.settled(t.value.id)).state).toBe('done');
      const batches = h.engine.batchesOf(t.value.id);
      expect(batches.map((b) => [b.label, b.state, b.filesTotal])).toEqual([
        ['d', 'completed', 1],
        ['d (sent again)', 'completed', 1],
      ]);
      const rows = h.engine.rows({ offset: 0, limit: 10 }).rows;
      expect(rows.map((r) => [r.relativePath, r.state, r.batchId])).toEqual([
        ['d/stays.txt', 'verified', batches[0]!.id],
        ["d/it's gone (1).txt", 'verified', batches[1]!.id],
      ]);
      expect(rows[1]!.note).toBe(`Sent again in a new Assembly: Missing from its Assembly (${batches[0]!.assemblyId}): the service completed it without this file.`);
      const [first, second] = await assembliesOf(h, t.value.id);
      expect(first!.uploads?.map((u) => u.name)).toEqual(['stays.txt']);
      expect(second!.uploads?.map((u) => `${u.name}|${u.md5hash}`)).toEqual([`it's gone (1).txt|${files[0]!.md5}`]);
      await h.close();
    }, 30_000);
  }

  it('a file every Assembly leaves out is sent a bounded number of times, then Failed with the reason, never done', async () => {
    const service = await serviceWith({ [DROP_FAULT_ENV]: 'never.txt' });
    const root = await mkdtemp(path.join(dir, 'in-'));
    const files = await makeFiles(root, [
      { relativePath: 'n/never.txt', size: 100 },
      { relativePath: 'n/fine.txt', size: 200 },
    ]);
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop' });
    const seen = new Set<string>();
    h.events.on((name, payload) => {
      if (name !== 'transfers:changed') return;
      for (const r of (payload as EventPayload<'transfers:changed'>).rows) if (r.relativePath === 'n/never.txt') seen.add(r.state);
    });
    const t = await h.engine.start({ instructions: { steps }, feed: feedOf('n', files) });
    if (!t.ok) throw new Error(t.error.message);
    const done = await h.engine.settled(t.value.id);
    expect([done.state, done.filesDone, done.filesFailed]).toEqual(['done', 1, 1]);
    const rows = h.engine.rows({ offset: 0, limit: 10 }).rows;
    const never = rows.find((r) => r.relativePath === 'n/never.txt')!;
    expect(never.state).toBe('failed');
    expect(never.error).toMatch(/^Missing from its Assembly \([0-9a-f]{32}\): the service completed it without this file\. Sent 4 times; not sent again\.$/);
    expect(seen.has('verified') || seen.has('unverified')).toBe(false);
    expect(h.engine.batchesOf(t.value.id)).toHaveLength(4);
    expect(rows.find((r) => r.relativePath === 'n/fine.txt')!.state).toBe('verified');
    await h.close();
  }, 60_000);
});

describe('between app and service, a connection that misbehaves', () => {
  it('moves 1,000 files exactly once, intact, through drops, delays, resets, lost answers, 429 and 413', async () => {
    const service = await serviceCorrupting(null);
    const proxy = await startFaultProxy({
      target: service.url,
      seed: 7,
      rules: [
        { action: { kind: 'drop' }, probability: 0.04 },
        { action: { kind: 'delay', ms: 400 }, probability: 0.06 },
        { action: { kind: 'reset-mid-body', afterBytes: 20_000 }, probability: 0.05, match: (r) => r.method !== 'GET' },
        { action: { kind: 'reset-after-response' }, probability: 0.05 },
        { action: { kind: 'status-429' }, probability: 0.04 },
        { action: { kind: 'status-413', retryIn: 0.2 }, probability: 0.03 },
      ],
    });
    try {
      const root = await mkdtemp(path.join(dir, 'in-'));
      const files = await makeFiles(root, [
        ...Array.from({ length: 980 }, (_, i) => ({ relativePath: `p/s/${i}.txt`, size: 3_000 + i })),
        ...Array.from({ length: 20 }, (_, i) => ({ relativePath: `p/t/${i}.bin`, size: 150_000 + i })),
      ]);
      const h = await openEngine({ ...service, url: proxy.url }, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'every-n', batchMaxFiles: 100, multipartMaxFileBytes: 64 * 1024, concurrency: 6 }, { chunkSize: 64 * 1024, stallMs: 5_000 });
      const t = await h.engine.start({ instructions: { steps }, feed: feedOf('p', files) });
      if (!t.ok) throw new Error(t.error.message);
      const done = await h.engine.settled(t.value.id);
      expect(done.state).toBe('done');
      expect(h.engine.rows({ offset: 0, limit: 1, states: ['verified'] }).total).toBe(files.length);
      // Read the outcome straight from the service, not through the misbehaving proxy.
      const direct = createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => service.authSecret });
      const statuses = await assembliesOf({ ...h, api: direct }, t.value.id);
      expect(statuses).toHaveLength(h.engine.batchesOf(t.value.id).length);
      expect(statuses.every((s) => s.ok === 'ASSEMBLY_COMPLETED')).toBe(true);
      const got = statuses.flatMap((s) => (s.uploads ?? []).map((u) => `${u.name}|${u.md5hash}`)).sort();
      expect(got).toEqual(files.map((f) => `${f.name}|${f.md5}`).sort());
      console.log(`fault proxy: ${JSON.stringify(proxy.counts)}`);
      expect(proxy.counts.drop + proxy.counts['reset-mid-body'] + proxy.counts['reset-after-response']).toBeGreaterThan(0);
      expect(proxy.counts.delay + proxy.counts['status-429'] + proxy.counts['status-413']).toBeGreaterThan(0);
      await h.close();
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('where the deployment has no POST /assemblies/{id}, creates without ids (asking once) and still finds a lost answer by its marker', async () => {
    const service = await serviceCorrupting(null);
    const proxy = await startFaultProxy({
      target: service.url,
      rules: [
        { action: { kind: 'status-404' }, match: (r) => r.method === 'POST' && /^\/assemblies\/[0-9a-f]{32}$/.test(r.url) },
        { action: { kind: 'reset-after-response' }, match: (r) => r.method === 'POST' && r.url === '/assemblies', times: 1 },
      ],
    });
    try {
      const root = await mkdtemp(path.join(dir, 'in-'));
      const files = await makeFiles(root, Array.from({ length: 15 }, (_, i) => ({ relativePath: `n/${i}.txt`, size: 2_000 + i })));
      const h = await openEngine({ ...service, url: proxy.url }, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'every-n', batchMaxFiles: 5, concurrency: 1 });
      const t = await h.engine.start({ instructions: { steps }, feed: feedOf('n', files) });
      if (!t.ok) throw new Error(t.error.message);
      const done = await h.engine.settled(t.value.id);
      expect(done.state).toBe('done');
      expect(h.engine.rows({ offset: 0, limit: 1, states: ['verified'] }).total).toBe(files.length);
      expect(proxy.counts['status-404']).toBe(1);
      expect(proxy.counts['reset-after-response']).toBe(1);
      // One Assembly per batch, every file once: the lost answer's Assembly was adopted, not made twice.
      const direct = createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => service.authSecret });
      const all = await direct.request('GET', '/assemblies', { pagesize: 50, type: 'all' });
      expect(all.ok && all.value.count).toBe(3);
      const statuses = await assembliesOf({ ...h, api: direct }, t.value.id);
      const got = statuses.flatMap((s) => (s.uploads ?? []).map((u) => `${u.name}|${u.md5hash}`)).sort();
      expect(got).toEqual(files.map((f) => `${f.name}|${f.md5}`).sort());
      await h.close();
    } finally {
      await proxy.close();
    }
  }, 30_000);
});
