// Issue 24, "every file, exactly once": names and sizes nobody chose, through the real engine into the real
// local service, checked against the service's own records; then the results back down to disk through the
// results mirror. One service and one engine for the whole property; many names per Assembly.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { fileName } from '../../../service/testing/file-names';
import { PRESETS } from '../../../shared/api/presets';
import { mirrorResults } from '../results-mirror';
import { safeSegment } from '../results-mirror/mirror-paths';
import { feedOf } from './draft-feed';
import { assembliesOf, makeFiles, openEngine, type EngineHarness } from './testing/engine-fixture';

const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
/** Files up to this size go in the create request (multipart), larger ones by tus: sizes on both sides. */
const THRESHOLD = 2_048;
const size = fc.oneof(fc.constantFrom(0, 1, THRESHOLD - 1, THRESHOLD, THRESHOLD + 1), fc.integer({ min: 0, max: 3 * THRESHOLD }));
/** Files of one drop: distinct names (one folder), any sizes. */
const drop = fc.uniqueArray(fc.record({ name: fileName, size }), { minLength: 1, maxLength: 30, selector: (f) => f.name });
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

let dir = '';
let service: LocalService;
let h: EngineHarness;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-every-file-'));
  service = await startLocalService({ dataDir: path.join(dir, 'service'), port: 0 });
  h = await openEngine(service, path.join(dir, 'engine'), { batchMode: 'per-drop', multipartMaxFileBytes: THRESHOLD, concurrency: 4 });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('every file of a drop, exactly once, under its own name', () => {
  it('arrives in its Assembly once with its name (byte for byte), size and md5 — multipart and tus — and comes back down to disk', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(drop, async (specs) => {
        const root = path.join(dir, `drop-${run++}`);
        const files = await makeFiles(root, specs.map((s) => ({ relativePath: `drop/${s.name}`, size: s.size })));
        const started = await h.engine.start({ instructions: { steps }, feed: feedOf('drop', files) });
        if (!started.ok) throw new Error(started.error.message);
        const done = await h.engine.settled(started.value.id);
        expect([done.state, done.filesDone, done.filesFailed]).toEqual(['done', files.length, 0]);
        const rows = h.engine.rows({ transferId: started.value.id, offset: 0, limit: 1_000 }).rows;
        expect(rows.filter((r) => r.state !== 'verified')).toEqual([]);
        expect(new Set(rows.map((r) => r.method))).toEqual(new Set(files.map((f) => (f.size <= THRESHOLD ? 'multipart' : 'tus'))));

        // The service's own records: each file once, its name the very bytes of the name on disk.
        const statuses = await assembliesOf(h, started.value.id);
        expect(statuses.map((s) => s.ok)).toEqual(statuses.map(() => 'ASSEMBLY_COMPLETED'));
        const recorded = statuses.flatMap((s) => (s.uploads ?? []).map((u) => `${hex(u.name ?? '')}|${u.size}|${u.md5hash}`)).sort();
        expect(recorded).toEqual(files.map((f) => `${hex(f.name)}|${f.size}|${f.md5}`).sort());

        // Back down: every result on disk once, its bytes intact, under the record's name wherever that name
        // is safe on every OS (else the mirror's documented safe spelling, numbered apart, never overwritten).
        const out = path.join(root, 'out');
        const mirrored = await mirrorResults(
          statuses.map((status) => ({ assemblyId: status.assembly_id ?? '', status, inputs: [] })),
          { outputDir: out, layout: 'flat', conflict: 'keep-both' },
        );
        expect([mirrored.failed, mirrored.written]).toEqual([0, files.length]);
        const onDisk = await readdir(path.join(out, 'original'));
        const contents = await Promise.all(onDisk.map(async (n) => md5(await readFile(path.join(out, 'original', n)))));
        expect(contents.sort()).toEqual(files.map((f) => f.md5).sort());
        const portable = files.filter((f) => safeSegment(f.name) === f.name && files.filter((g) => safeSegment(g.name).toLowerCase() === f.name.toLowerCase()).length === 1);
        for (const f of portable) expect(onDisk).toContain(f.name);
        await rm(root, { recursive: true, force: true });
      }),
      { numRuns: Number(process.env.ASSEMBLYLINE_FUZZ_RUNS ?? 12), endOnFailure: true },
    );
  }, 600_000);
});
