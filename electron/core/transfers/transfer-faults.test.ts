import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { startFaultProxy } from '../../../service/testing/fault-proxy';
import { PRESETS } from '../../../shared/api/presets';
import { createApiClient } from '../api/api-client';
import { feedOf } from './draft-feed';
import { assembliesOf, makeFiles, openEngine } from './testing/engine-fixture';

/** The service's test-only fault (service/files/test-faults.ts): the first upload of that name is stored with a byte flipped. */
const CORRUPT_FAULT_ENV = 'ASSEMBLYLINE_TEST_FAULT_CORRUPT';
const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
let dir = '';
const services: LocalService[] = [];

/** A service that stores the first upload named `corrupt` with one byte flipped (test-only fault). */
async function serviceCorrupting(corrupt: string | null): Promise<LocalService> {
  if (corrupt) process.env[CORRUPT_FAULT_ENV] = corrupt;
  try {
    const s = await startLocalService({ dataDir: await mkdtemp(path.join(dir, 'service-')), port: 0 });
    services.push(s);
    return s;
  } finally {
    delete process.env[CORRUPT_FAULT_ENV];
  }
}

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
      const rows = h.engine.rows({ offset: 0, limit: 10 }).rows;
      expect(rows.map((r) => [r.relativePath, r.state, r.method])).toEqual([
        ['k/bad.bin', 'verified', method],
        ['k/good.bin', 'verified', method],
      ]);
      expect(rows[0]!.note).toMatch(/checksum did not match/);
      // The final Assembly has both files intact; the first one (with the wrong byte) was canceled.
      const [final] = await assembliesOf(h, t.value.id);
      expect(final!.ok).toBe('ASSEMBLY_COMPLETED');
      expect((final!.uploads ?? []).map((u) => `${u.name}|${u.md5hash}`).sort()).toEqual(files.map((f) => `${f.name}|${f.md5}`).sort());
      const all = await h.api.request('GET', '/assemblies', { pagesize: 50 });
      expect(all.ok && (all.value.items as Array<{ ok: string }>).map((i) => i.ok).sort()).toEqual(['ASSEMBLY_CANCELED', 'ASSEMBLY_COMPLETED']);
      await h.close();
    }, 30_000);
  }
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
