// Large files in parallel tus parts (issue 25): where the deployment offers concatenation the engine sends
// a large file as parts side by side and a final upload, and the Assembly gets the file once with its md5;
// small files, and deployments without concatenation, get one stream; a restart resumes each part from
// the service's offset. Real engine, real local service over real HTTP (a recording proxy in between).
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { startFaultProxy, type FaultProxy, type ProxiedRequest } from '../../../service/testing/fault-proxy';
import { PRESETS } from '../../../shared/api/presets';
import { feedOf } from './draft-feed';
import { assembliesOf, makeFiles, openEngine, until } from './testing/engine-fixture';
import { DEFAULT_PARALLEL, decodeParts, encodeParts, isStaggered, mapUploadUrls, partRanges, plannedParts, plannedPieces, staggeredRanges } from './tus-parts';

const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
const MiB = 1024 * 1024;
let dir = '';
let service: LocalService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-parts-'));
  service = await startLocalService({ dataDir: path.join(dir, 'service'), port: 0 });
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A proxy in front of the service that records every request (and changes none). */
async function recordingProxy(): Promise<{ proxy: FaultProxy; seen: ProxiedRequest[] }> {
  const seen: ProxiedRequest[] = [];
  const proxy = await startFaultProxy({
    target: service.url,
    rules: [
      {
        action: { kind: 'delay', ms: 0 },
        match: (r) => {
          seen.push(r);
          return false;
        },
      },
    ],
  });
  return { proxy, seen };
}

const concatOf = (r: ProxiedRequest): string => String(r.headers['upload-concat'] ?? '');
const PARTS = { parts: 4, minBytes: 4 * MiB, loopback: true };

describe('parallel tus parts', () => {
  it('splits a file into contiguous ranges that cover it, and keeps the parts\' URLs through the queue\'s one column', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: 16 }), (size, parts) => {
        const r = partRanges(size, parts);
        expect(r[0]!.start).toBe(0);
        expect(r.at(-1)!.end).toBe(size);
        for (let i = 1; i < r.length; i++) expect(r[i]!.start).toBe(r[i - 1]!.end);
        const lengths = r.map((x) => x.end - x.start);
        expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(1);
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.option(fc.stringMatching(/^https?:\/\/[a-z0-9.]{1,20}(:\d{1,5})?\/resumable\/files\/[0-9a-z_]{1,70}$/), { nil: null }), { minLength: 2, maxLength: 16 }), (urls) => {
        expect(decodeParts(encodeParts(urls))).toEqual(urls);
        expect(decodeParts(mapUploadUrls(encodeParts(urls), (u) => `${u}#x`))).toEqual(urls.map((u) => (u === null ? null : `${u}#x`)));
      }),
    );
    // Pieces: more than lanes for a large file, the first ones growing so lanes finish one after another.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), fc.integer({ min: 1, max: 32 }), (size, pieces) => {
        const r = staggeredRanges(size, pieces);
        expect(r).toHaveLength(Math.min(pieces, size));
        expect(r[0]!.start).toBe(0);
        expect(r.at(-1)!.end).toBe(size);
        for (let i = 1; i < r.length; i++) expect(r[i]!.start).toBe(r[i - 1]!.end);
        for (const x of r) expect(x.end).toBeGreaterThan(x.start);
        expect(staggeredRanges(size, pieces)).toEqual(r);
      }),
    );
    expect(staggeredRanges(1000, 5).map((x) => x.end - x.start)).toEqual([71, 143, 214, 286, 286]);
    expect([plannedPieces(12 * MiB, 4), plannedPieces(256 * MiB, 4), plannedPieces(1024 * MiB, 4), plannedPieces(100 * 1024 * MiB, 4)]).toEqual([4, 16, 32, 32]);
    expect(decodeParts(encodeParts(['a', null], true))).toEqual(['a', null]);
    expect([isStaggered(encodeParts(['a', null], true)), isStaggered(encodeParts(['a', null])), isStaggered(mapUploadUrls(encodeParts(['a', null], true), (u) => u))]).toEqual([true, false, true]);
    expect(decodeParts('http://127.0.0.1:1/resumable/files/a_b')).toBeNull();
    expect(mapUploadUrls('http://a/x', (u) => `${u}y`)).toBe('http://a/xy');
  });

  it('plans 4 parts for files of 64 MiB and more on a remote deployment, one stream below that and on loopback by default', () => {
    expect(plannedParts(64 * MiB, 'https://api2.example.com/resumable/files/', DEFAULT_PARALLEL)).toBe(4);
    expect(plannedParts(64 * MiB - 1, 'https://api2.example.com/resumable/files/', DEFAULT_PARALLEL)).toBe(1);
    expect(plannedParts(10 * 1024 * MiB, 'http://127.0.0.1:9000/resumable/files/', DEFAULT_PARALLEL)).toBe(1);
    expect(plannedParts(10 * 1024 * MiB, 'http://127.0.0.1:9000/resumable/files/', { ...DEFAULT_PARALLEL, loopback: true })).toBe(4);
    // Never parts under a MiB each.
    expect(plannedParts(3 * MiB, 'https://x.example/', { parts: 8, minBytes: 0, loopback: false })).toBe(3);
  });

  it('sends a large file as parts and a final upload where the service offers concatenation; the Assembly gets each file once with its md5', async () => {
    const { proxy, seen } = await recordingProxy();
    try {
      const root = await mkdtemp(path.join(dir, 'in-'));
      const files = await makeFiles(root, [
        { relativePath: 'p/big.mov', size: 12 * MiB + 3 },
        { relativePath: 'p/small.mov', size: 2 * MiB },
      ]);
      const h = await openEngine({ ...service, url: proxy.url }, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop', multipartMaxFileBytes: 1024 }, { chunkSize: 2 * MiB, parallel: PARTS });
      const t = await h.engine.start({ instructions: { steps }, feed: feedOf('p', files) });
      if (!t.ok) throw new Error(t.error.message);
      const done = await h.engine.settled(t.value.id);
      expect(done.state).toBe('done');
      expect(h.engine.rows({ offset: 0, limit: 10 }).rows.map((r) => r.state)).toEqual(['verified', 'verified']);
      const statuses = await assembliesOf(h, t.value.id);
      const got = statuses.flatMap((s) => (s.uploads ?? []).map((u) => `${u.name}|${u.size}|${u.md5hash}`)).sort();
      expect(got).toEqual(files.map((f) => `${f.name}|${f.size}|${f.md5}`).sort());
      const posts = seen.filter((r) => r.method === 'POST' && r.url.startsWith('/resumable/files'));
      expect(posts.filter((r) => concatOf(r) === 'partial')).toHaveLength(4);
      const finals = posts.filter((r) => concatOf(r).startsWith('final;'));
      expect(finals).toHaveLength(1);
      expect(concatOf(finals[0]!).slice('final;'.length).split(' ')).toHaveLength(4);
      // The small file went as one stream.
      expect(posts.filter((r) => concatOf(r) === '')).toHaveLength(1);
      await h.close();
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('resumes each part from the service\'s offset after a restart, and completes the file once with its md5', async () => {
    const { proxy, seen } = await recordingProxy();
    try {
      const root = await mkdtemp(path.join(dir, 'in-'));
      const files = await makeFiles(root, [{ relativePath: 'r/big.bin', size: 16 * MiB }]);
      const dataDir = await mkdtemp(path.join(dir, 'data-'));
      const at = { ...service, url: proxy.url };
      const a = await openEngine(at, dataDir, { batchMode: 'per-drop', bandwidthLimitBps: 6 * MiB }, { chunkSize: MiB, parallel: PARTS });
      const t = await a.engine.start({ instructions: { steps }, feed: feedOf('r', files) });
      if (!t.ok) throw new Error(t.error.message);
      const sent = () => a.engine.rows({ offset: 0, limit: 1 }).rows[0]?.bytesSent ?? 0;
      await until(() => sent() > 5 * MiB, 30_000, 'a third of the parts');
      await a.close();
      const partsBefore = seen.filter((r) => r.method === 'POST' && concatOf(r) === 'partial').length;
      expect(partsBefore).toBe(4);

      const b = await openEngine(at, dataDir, {}, { chunkSize: MiB, parallel: PARTS });
      b.engine.saveSettings({ bandwidthLimitBps: 0 });
      const done = await b.engine.settled(t.value.id);
      expect(done.state).toBe('done');
      const statuses = await assembliesOf(b, t.value.id);
      expect(statuses.flatMap((s) => (s.uploads ?? []).map((u) => `${u.name}|${u.size}|${u.md5hash}`))).toEqual([`big.bin|${16 * MiB}|${files[0]!.md5}`]);
      // No part was created again: each resumed (HEAD, then PATCH from its offset).
      expect(seen.filter((r) => r.method === 'POST' && concatOf(r) === 'partial')).toHaveLength(4);
      const resumedPatches = seen.slice(seen.findIndex((r) => r.method === 'HEAD')).filter((r) => r.method === 'PATCH' && Number(r.headers['upload-offset']) > 0);
      expect(resumedPatches.length).toBeGreaterThan(0);
      expect(createHash('md5').update(await readFile(files[0]!.path)).digest('hex')).toBe(files[0]!.md5);
      await b.close();
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
