// An app restart at a moment nobody chose: engine A is closed after a generated delay (while creating,
// uploading, waiting for an Assembly to complete, or after it), engine B opens the same data dir. The
// invariant: B finishes the drop, every file verified in exactly one completed Assembly with its bytes —
// and while a file is not verified, nobody calls it Done.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { PRESETS } from '../../../shared/api/presets';
import { feedOf } from './draft-feed';
import { assembliesOf, makeFiles, openEngine } from './testing/engine-fixture';

const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
let dir = '';
let service: LocalService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-restart-anywhere-'));
  service = await startLocalService({ dataDir: path.join(dir, 'service'), port: 0 });
}, 60_000);
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

const scenario = fc.record({
  sizes: fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 1, maxLength: 60 }),
  batchMaxFiles: fc.integer({ min: 1, max: 25 }),
  /** 0: every file by tus; else files up to this size go in the create request. */
  multipartMaxFileBytes: fc.constantFrom(0, 16_384),
  bandwidthLimitBps: fc.constantFrom(256 * 1024, 1024 * 1024, 0),
  quitAfterMs: fc.integer({ min: 0, max: 2_500 }),
  /** The embedded service stops with the app (and comes back on a new port) — or a remote one stays up. */
  serviceRestarts: fc.boolean(),
});

describe('a restart at any moment', () => {
  it('finishes the drop: every file verified once in a completed Assembly, and Done never counts a file not verified', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const root = path.join(dir, `drop-${run}`);
        const dataDir = path.join(dir, `data-${run++}`);
        const files = await makeFiles(root, sc.sizes.map((size, i) => ({ relativePath: `d/f-${i}.bin`, size })));
        const a = await openEngine(service, dataDir, { batchMode: 'every-n', batchMaxFiles: sc.batchMaxFiles, multipartMaxFileBytes: sc.multipartMaxFileBytes, bandwidthLimitBps: sc.bandwidthLimitBps });
        const t = await a.engine.start({ instructions: { steps }, feed: feedOf('d', files) });
        if (!t.ok) throw new Error(t.error.message);
        await new Promise((r) => setTimeout(r, sc.quitAfterMs));
        await a.close();
        if (sc.serviceRestarts) {
          await service.close();
          service = await startLocalService({ dataDir: path.join(dir, 'service'), port: 0 });
        }

        const b = await openEngine(service, dataDir);
        b.engine.saveSettings({ bandwidthLimitBps: 0 });
        // Done counts only what is verified (or skipped): never ahead of the rows that say so.
        const doneNotAhead = () => {
          const view = b.engine.batchesOf(t.value.id);
          const verified = b.engine.rows({ transferId: t.value.id, offset: 0, limit: 1_000, states: ['verified'] }).total;
          expect(view.reduce((n, x) => n + x.filesDone, 0)).toBeLessThanOrEqual(verified);
        };
        doneNotAhead();
        const done = await Promise.race([
          b.engine.settled(t.value.id),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error(`not settled 30 s after the restart: ${JSON.stringify(b.engine.batchesOf(t.value.id).map((x) => [x.state, x.filesDone, x.filesTotal]))}`)), 30_000),
          ),
        ]);
        doneNotAhead();
        const rows = b.engine.rows({ transferId: t.value.id, offset: 0, limit: 1_000 }).rows;
        const notCompleted = b.engine.batchesOf(t.value.id).filter((x) => x.state !== 'completed');
        const unfinished = {
          files: rows.filter((r) => r.state !== 'verified').map((r) => [r.relativePath, r.state, r.method, r.error, r.note]),
          batches: notCompleted.map((x) => [x.label, x.state, x.error?.code, x.error?.message]),
        };
        // Spelled out in the message: a report shortens a nested object to "{ …(2) }".
        expect(unfinished, JSON.stringify(unfinished)).toEqual({ files: [], batches: [] });
        expect([done.state, done.filesDone, done.filesFailed]).toEqual(['done', files.length, 0]);
        const statuses = await assembliesOf(b, t.value.id);
        expect(statuses.map((s) => s.ok)).toEqual(statuses.map(() => 'ASSEMBLY_COMPLETED'));
        const got = statuses.flatMap((s) => (s.uploads ?? []).map((u) => `${u.name}|${u.size}|${u.md5hash}`)).sort();
        expect(got).toEqual(files.map((f) => `${f.name}|${f.size}|${f.md5}`).sort());
        await b.close();
        await rm(root, { recursive: true, force: true });
      }),
      { numRuns: Number(process.env.ASSEMBLYLINE_FUZZ_RUNS ?? 8), endOnFailure: true, includeErrorInReport: true, ...(process.env.ASSEMBLYLINE_FUZZ_SEED ? { seed: Number(process.env.ASSEMBLYLINE_FUZZ_SEED), path: process.env.ASSEMBLYLINE_FUZZ_PATH } : {}) },
    );
  }, 600_000);
});
