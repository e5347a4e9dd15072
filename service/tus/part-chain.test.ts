// A file sent as partial uploads (tus concatenation) is hashed while its parts arrive, in the order they
// will most likely be joined (part-chain.ts). Invariant: whatever the parts' sizes, the order they are
// created and sent in, the offsets they claim (right, wrong or none), and a service restart between any
// two PATCHes, the Assembly records the md5 and sha256 of the parts joined in the final upload's order:
// never a digest of another order or of part of the bytes. Real service over real HTTP, restarted on its
// data folder as the app's supervisor does.
import { createHash } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../index';
import { buildForm, postAssembly, tempDir, waitForEnd } from '../testing/service-fixture';
import { nextPartOf, partOffsetOf } from './part-chain';
import { distinctBytes as bytes, uploadMetadata as meta } from '../testing/tus-test-data';

const TUS = { 'Tus-Resumable': '1.0.0' };
const hex = (algorithm: string, b: Buffer): string => createHash(algorithm).update(b).digest('hex');

describe('the order a file\'s parts are hashed in', () => {
  it('reads a part\'s claimed offset only when it is a plain decimal', () => {
    expect([partOffsetOf({ part_offset: '0' }), partOffsetOf({ part_offset: '4096' }), partOffsetOf({ part_offset: '-1' }), partOffsetOf({ part_offset: '01' }), partOffsetOf({ part_offset: '1e3' }), partOffsetOf({})]).toEqual([0, 4096, null, null, null, null]);
  });

  it('follows the part claiming the next offset, else the oldest part that claims none', () => {
    const p = (id: string, hint: number | null, seq: number) => ({ id, size: 10, hint, seq });
    expect(nextPartOf([p('b', 10, 0), p('a', 0, 1)], 0)?.id).toBe('a');
    expect(nextPartOf([p('b', 10, 0), p('c', null, 2), p('d', null, 1)], 0)?.id).toBe('d');
    expect(nextPartOf([p('b', 20, 0)], 10)).toBeNull();
  });
});

describe('a file\'s md5 from parts sent in any order, across a restart', () => {
  let dataDir: string;
  let service: LocalService;
  beforeAll(async () => {
    dataDir = await tempDir('svc-parts-');
    service = await startLocalService({ dataDir });
  });
  afterAll(async () => {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const restart = async (): Promise<void> => {
    const port = service.port;
    await service.close();
    // The client's pooled connections hear of the close before the next request.
    await new Promise((r) => setTimeout(r, 200));
    service = await startLocalService({ dataDir, port });
  };

  it('records the md5 and sha256 of the parts in the final upload\'s order (fast-check over sizes, orders, claims, chunks and a restart)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 120_000 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
        fc.array(fc.constantFrom('right', 'wrong', 'none'), { minLength: 5, maxLength: 5 }),
        fc.array(fc.integer({ min: 1_000, max: 90_000 }), { minLength: 5, maxLength: 5 }),
        fc.array(fc.nat({ max: 4 }), { maxLength: 40 }),
        fc.option(fc.nat({ max: 40 }), { nil: null }),
        async (sizes, seed, createKeys, claims, chunkSizes, schedule, restartAt) => {
          const data = bytes(sizes.reduce((a, b) => a + b, 0), seed);
          const ranges = sizes.map((size, i) => {
            const start = sizes.slice(0, i).reduce((a, b) => a + b, 0);
            return { start, end: start + size };
          });
          const created = await postAssembly(service.url, buildForm({ params: { auth: { key: service.authKey }, steps: { ':original': { robot: '/upload/handle' } } }, fields: { tus_num_expected_upload_files: '1' } }));
          expect(created.body.ok).toBe('ASSEMBLY_UPLOADING');
          const assemblyUrl = String(created.body.assembly_ssl_url);
          const tusUrl = String(created.body.tus_url);
          // Parts created in a generated order, each claiming its true offset, another one, or none.
          const createOrder = ranges.map((_, i) => i).sort((a, b) => createKeys[a]! - createKeys[b]! || a - b);
          const urls: string[] = [];
          for (const i of createOrder) {
            const claim = claims[i] === 'right' ? ranges[i]!.start : claims[i] === 'wrong' ? (ranges[(i + 1) % ranges.length]!.start + 1) % (data.length + 1) : null;
            const res = await fetch(tusUrl, {
              method: 'POST',
              headers: { ...TUS, 'Upload-Concat': 'partial', 'Upload-Length': String(sizes[i]), 'Upload-Metadata': meta({ assembly_url: assemblyUrl, ...(claim !== null ? { part_offset: String(claim) } : {}) }) },
            });
            expect(res.status).toBe(201);
            urls[i] = res.headers.get('location')!;
          }
          // The parts' chunks in a generated interleaving, then whatever is left of each, all at once.
          const sent = sizes.map(() => 0);
          const send = async (i: number): Promise<void> => {
            const r = ranges[i]!;
            const from = sent[i]!;
            const to = Math.min(sizes[i]!, from + chunkSizes[i]!);
            const res = await fetch(urls[i]!, { method: 'PATCH', headers: { ...TUS, 'Upload-Offset': String(from), 'Content-Type': 'application/offset+octet-stream' }, body: data.subarray(r.start + from, r.start + to) });
            expect(res.status, await res.text()).toBe(204);
            sent[i] = to;
          };
          for (const [step, pick] of schedule.entries()) {
            if (step === restartAt) await restart();
            const open = sizes.map((_, i) => i).filter((i) => sent[i]! < sizes[i]!);
            if (open.length === 0) break;
            await send(open[pick % open.length]!);
          }
          if (restartAt !== null && restartAt >= schedule.length) await restart();
          await Promise.all(
            sizes.map(async (size, i) => {
              while (sent[i]! < size) await send(i);
            }),
          );
          const final = await fetch(tusUrl, {
            method: 'POST',
            headers: { ...TUS, 'Upload-Concat': `final;${urls.join(' ')}`, 'Upload-Metadata': meta({ assembly_url: assemblyUrl, filename: 'whole.bin' }) },
          });
          expect(final.status, await final.clone().text()).toBe(201);
          const done = await waitForEnd(assemblyUrl);
          expect(done.ok).toBe('ASSEMBLY_COMPLETED');
          const uploads = done.uploads as Record<string, unknown>[];
          expect(uploads.map((u) => [u.size, u.md5hash, u.sha256])).toEqual([[data.length, hex('md5', data), hex('sha256', data)]]);
        },
      ),
      { numRuns: 12 },
    );
    // Every part was joined into its final upload and removed, and no joined file is left beside them.
    const left = (await readdir(join(dataDir, 'tus'))).filter((f) => f.includes('_part_') || f.includes('_join_'));
    expect(left).toEqual([]);
    // Each run sends a few hundred KB in tens of requests and may restart the service: minutes on a loaded machine.
  }, 240_000);

  it('drops the file joined from an Assembly\'s parts when the Assembly ends without its final upload (no disk left behind)', async () => {
    const created = await postAssembly(service.url, buildForm({ params: { auth: { key: service.authKey }, steps: { ':original': { robot: '/upload/handle' } } }, fields: { tus_num_expected_upload_files: '1' } }));
    const assemblyUrl = String(created.body.assembly_ssl_url);
    const data = bytes(200_000, 7);
    const part = await fetch(String(created.body.tus_url), {
      method: 'POST',
      headers: { ...TUS, 'Upload-Concat': 'partial', 'Upload-Length': String(data.length), 'Upload-Metadata': meta({ assembly_url: assemblyUrl, part_offset: '0' }) },
    });
    expect(part.status).toBe(201);
    const patched = await fetch(part.headers.get('location')!, { method: 'PATCH', headers: { ...TUS, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: data });
    expect(patched.status).toBe(204);
    const joins = async (): Promise<string[]> => (await readdir(join(dataDir, 'tus'))).filter((f) => f.includes('_join_'));
    // The chain copies the part into its joined file as it hashes it.
    while ((await joins()).length === 0) await new Promise((r) => setTimeout(r, 50));
    const canceled = (await (await fetch(assemblyUrl, { method: 'DELETE' })).json()) as Record<string, unknown>;
    expect(canceled.ok).toBe('ASSEMBLY_CANCELED');
    while ((await joins()).length > 0) await new Promise((r) => setTimeout(r, 50));
    expect(await joins()).toEqual([]);
  }, 60_000);
});
