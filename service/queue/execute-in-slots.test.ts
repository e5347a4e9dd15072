// executeSteps with a real pool: jobs of a step side by side up to the pool's size, results still in
// input order, and every slot given back whatever the job's outcome.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeSteps, type ExecuteContext } from '../robots/execute-steps';
import { describeUpload, type StoredFile } from '../robots/file-record';
import { imageUpload, makeTempDir } from '../robots/test-files';
import { JobSlots } from './job-slots';

let dir: string;
let cleanup: () => Promise<void>;
let photos: StoredFile[];
let broken: StoredFile;
beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('slots-exec-'));
  photos = await Promise.all([0, 1, 2, 3, 4].map((i) => imageUpload(dir, `p${i}.jpg`, { width: 1600 + i * 10, height: 1200, format: 'jpeg' })));
  // A "JPEG" that is not one: its robot runs (in a slot) and fails.
  await writeFile(join(dir, 'broken.jpg'), Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]));
  broken = await describeUpload({ localPath: join(dir, 'broken.jpg'), name: 'broken.jpg', field: 'file' });
});
afterAll(() => cleanup());

function run(slots: JobSlots, uploads: StoredFile[], steps: ExecuteContext['steps'], signal = new AbortController().signal) {
  const results: StoredFile[] = [];
  let peak = 0;
  const off = slots.onChange(() => (peak = Math.max(peak, slots.inUse)));
  const outcome = executeSteps({
    assemblyId: 'e'.repeat(32),
    steps,
    uploads,
    fields: {},
    workDir: join(dir, `w-${Math.random().toString(16).slice(2)}`),
    signal,
    onResult: (_s, f) => results.push(f),
    parallelJobs: slots.size,
    acquireSlot: async (job, sig) => (await slots.acquire({ assemblyId: 'e'.repeat(32), ...job }, sig)).release,
  }).finally(off);
  return { outcome, results, peak: () => peak };
}

describe('executeSteps in job slots', () => {
  it('runs a step\'s jobs two at a time on two slots, reporting results in input order, and frees every slot', async () => {
    const slots = new JobSlots(2);
    const r = run(slots, photos, { small: { robot: '/image/resize', use: ':original', width: 100 } });
    expect(await r.outcome).toEqual({ ok: true });
    expect(r.peak()).toBe(2);
    expect(r.results.map((f) => f.original_name)).toEqual(photos.map((p) => p.name));
    expect(slots.inUse).toBe(0);
  });

  it('gives the slots back when a job fails and the Assembly ends with its error', async () => {
    const slots = new JobSlots(2);
    const r = run(slots, [photos[0]!, broken, photos[1]!], { small: { robot: '/image/resize', use: ':original', width: 100, result: true } });
    const outcome = await r.outcome;
    // An unreadable image is skipped with a warning; the step fails only when no input suited it.
    expect(outcome).toEqual({ ok: true });
    expect(r.results.map((f) => f.original_name)).toEqual([photos[0]!.name, photos[1]!.name]);
    expect(slots.inUse).toBe(0);
    const only = run(slots, [broken], { small: { robot: '/image/resize', use: ':original', width: 100 } });
    expect(await only.outcome).toMatchObject({ ok: false, code: 'INVALID_INPUT_ERROR', step: 'small' });
    expect(slots.inUse).toBe(0);
    expect(slots.snapshot().waiting).toEqual([]);
  });

  it('gives the slots back and stops waiting when the Assembly is canceled mid-step', async () => {
    const slots = new JobSlots(1);
    const abort = new AbortController();
    const r = run(slots, photos, { small: { robot: '/image/resize', use: ':original', width: 100 } }, abort.signal);
    await new Promise<void>((resolve) => {
      const off = slots.onChange(() => {
        if (slots.inUse === 1) {
          off();
          resolve();
        }
      });
    });
    abort.abort();
    expect(await r.outcome).toMatchObject({ ok: false, code: 'ASSEMBLY_CANCELED' });
    expect(slots.inUse).toBe(0);
    expect(slots.snapshot().waiting).toEqual([]);
  });
});
