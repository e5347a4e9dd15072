import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_ROBOTS } from '../instructions/known-robots';
import { CANCELED_CODE, executeSteps, type ExecuteContext, type OriginalProgress } from './execute-steps';
import type { StepProgress } from '../realtime/execution-progress';
import type { StoredFile } from './file-record';
import { BUNDLE_RUNNERS, ROBOT_RUNNERS, SOURCE_RUNNERS } from './robot-registry';
import { imageUpload, makeTempDir, textUpload } from './test-files';

let dir: string;
let cleanup: () => Promise<void>;
let photo: StoredFile;
let logo: StoredFile;
let notes: StoredFile;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  photo = await imageUpload(dir, 'photo.jpg', { width: 800, height: 600, format: 'jpeg' }, 'photos');
  logo = await imageUpload(dir, 'logo.png', { width: 400, height: 400 }, 'logos');
  notes = await textUpload(dir, 'notes.txt', 'some notes', 'docs');
});
afterAll(() => cleanup());

async function run(steps: ExecuteContext['steps'], uploads: StoredFile[] = [photo, logo], extra: Partial<ExecuteContext> = {}) {
  const results: [string, StoredFile][] = [];
  const progress: number[] = [];
  const outcome = await executeSteps({
    assemblyId: 'd'.repeat(32),
    steps,
    uploads,
    fields: {},
    workDir: join(dir, `w-${Math.random().toString(16).slice(2)}`),
    signal: new AbortController().signal,
    onResult: (s, f) => results.push([s, f]),
    onProgress: (p) => progress.push(p),
    ...extra,
  });
  return { outcome, results, progress, steps: results.map(([s]) => s) };
}

describe('executeSteps', () => {
  it('implements exactly the robots it lists as known', () => {
    // /text/speak is in two: a source with `prompt` and no `use`, per file with one.
    expect([...new Set([...Object.keys(ROBOT_RUNNERS), ...Object.keys(BUNDLE_RUNNERS), ...Object.keys(SOURCE_RUNNERS)])].sort()).toEqual([...KNOWN_ROBOTS].sort());
  });

  it('refuses invalid instructions with the validation error', async () => {
    const { outcome } = await run({ r: { robot: '/image/resize', use: ':original', width: 0 } });
    expect(outcome).toMatchObject({ ok: false, code: 'IMAGE_RESIZE_VALIDATION', step: 'r' });
  });

  it('runs steps in use-graph order, not key order, feeding each step its inputs', async () => {
    const { outcome, results } = await run({
      small: { robot: '/image/resize', use: 'medium', width: 50, result: true },
      medium: { robot: '/image/resize', use: ':original', width: 200, result: true },
      ':original': { robot: '/upload/handle' },
    });
    expect(outcome).toEqual({ ok: true });
    expect(results.map(([s, f]) => `${s}:${f.original_name}:${f.meta.width}`)).toEqual([
      'medium:photo.jpg:200', 'medium:logo.png:200', 'small:photo.jpg:50', 'small:logo.png:50',
    ]);
    // Files derived from derived files still point at the upload they came from.
    const small = results.filter(([s]) => s === 'small').map(([, f]) => f);
    expect(small.map((f) => f.original_id)).toEqual([photo.id, logo.id]);
  });

  it('result defaults: leaves yes, intermediate steps and :original no, explicit values win', async () => {
    const base = {
      ':original': { robot: '/upload/handle' },
      medium: { robot: '/image/resize', use: ':original', width: 200 },
      small: { robot: '/image/resize', use: 'medium', width: 50 },
    };
    expect((await run(base)).steps).toEqual(['small', 'small']);
    const explicit = await run({
      ':original': { robot: '/upload/handle', result: true },
      medium: { robot: '/image/resize', use: ':original', width: 200, result: true },
      small: { robot: '/image/resize', use: 'medium', width: 50, result: false },
    });
    expect(explicit.steps).toEqual([':original', ':original', 'medium', 'medium']);
    expect(explicit.results[0]![1]).toBe(photo);
    // An undeclared :original is implicit and never reported by default.
    expect((await run({ r: { robot: '/image/resize', use: ':original', width: 10 } })).steps).toEqual(['r', 'r']);
  });

  it('filters inputs by upload field (object form and per-step form)', async () => {
    const objectForm = await run({ r: { robot: '/image/resize', use: { steps: [':original'], fields: ['logos'] }, width: 10 } });
    expect(objectForm.results.map(([, f]) => f.original_name)).toEqual(['logo.png']);
    const perStep = await run({ r: { robot: '/image/resize', use: [{ name: ':original', fields: 'photos' }], width: 10 } });
    expect(perStep.results.map(([, f]) => f.original_name)).toEqual(['photo.jpg']);
  });

  it('a step whose inputs were all filtered out produces nothing and is no error', async () => {
    const { outcome, results } = await run({
      docs: { robot: '/file/filter', use: ':original', accepts: [['${file.mime}', 'regex', 'pdf']] },
      r: { robot: '/image/resize', use: 'docs', width: 10 },
    });
    expect(outcome).toEqual({ ok: true });
    expect(results).toEqual([]);
  });

  it('reports progress from 0 to 100, rising, overall and per upload', async () => {
    const overall: number[] = [];
    const perFile: OriginalProgress[][] = [];
    const perStep: StepProgress[][] = [];
    await run(
      { a: { robot: '/image/resize', use: ':original', width: 20 }, b: { robot: '/image/resize', use: 'a', width: 10 } },
      [photo, logo],
      { onProgress: (p, per, steps) => { overall.push(p); perFile.push(per()); perStep.push(structuredClone(steps)); } },
    );
    expect(overall.at(-1)).toBe(100);
    expect(overall).toEqual([...overall].sort((x, y) => x - y));
    expect(overall.length).toBeGreaterThanOrEqual(3);
    expect(overall[0]).toBeLessThan(100);
    // Three steps (the implicit :original, a, b): first the start, then after the first file that upload is a third done.
    expect(perFile[0]).toEqual([{ original_id: photo.id, progress: 0 }, { original_id: logo.id, progress: 0 }]);
    expect(perFile[1]).toEqual([{ original_id: photo.id, progress: 33 }, { original_id: logo.id, progress: 0 }]);
    expect(perFile.at(-1)).toEqual([{ original_id: photo.id, progress: 100 }, { original_id: logo.id, progress: 100 }]);
    // Per step: the first starts while the others wait; a step starting is reported even when the overall value stays.
    expect(perStep[0]!.map((s) => [s.step, s.state, s.files_total])).toEqual([[':original', 'executing', 2], ['a', 'waiting', 0], ['b', 'waiting', 0]]);
    expect(perStep[1]![0]).toMatchObject({ progress: 50, files_done: 1, files_total: 2 });
    expect(perStep.some((steps) => steps[0]!.state === 'done' && steps[1]!.state === 'executing' && steps[2]!.state === 'waiting')).toBe(true);
    expect(perStep.at(-1)!.map((s) => [s.step, s.robot, s.state, s.progress, s.files_done])).toEqual([
      [':original', '/upload/handle', 'done', 100, 2],
      ['a', '/image/resize', 'done', 100, 2],
      ['b', '/image/resize', 'done', 100, 2],
    ]);
  });

  it("reports a step's own percentage each time it moves, also when the Assembly's stays", async () => {
    // 120 files through `a` in an Assembly of three steps: `a` moves by 1 % per file or so, the whole by a
    // third of that. A client shows the running step's percentage: it must not wait for the whole to move.
    const tiny = await imageUpload(dir, 'tiny.png', { width: 8, height: 8 });
    const many = Array.from({ length: 120 }, (_, i) => ({ ...tiny, id: `${String(i).padStart(4, '0')}${'f'.repeat(28)}`, original_id: `${String(i).padStart(4, '0')}${'f'.repeat(28)}` }));
    const seen: { combined: number; a: number }[] = [];
    const { outcome } = await run({ a: { robot: '/image/resize', use: ':original', width: 4 }, b: { robot: '/file/serve', use: 'a' } }, many, {
      onProgress: (p, _per, steps) => {
        const a = steps.find((s) => s.step === 'a')!;
        if (a.state === 'executing') seen.push({ combined: p, a: a.progress });
      },
    });
    expect(outcome).toEqual({ ok: true });
    const stepValues = new Set(seen.map((s) => s.a));
    const combinedValues = new Set(seen.map((s) => s.combined));
    expect(stepValues.size, JSON.stringify(seen)).toBeGreaterThan(2 * combinedValues.size);
    expect(seen.map((s) => s.a)).toEqual([...seen.map((s) => s.a)].sort((x, y) => x - y));
  });

  it('reports progress from 0 to 100 for a single step', async () => {
    const { progress } = await run({ a: { robot: '/image/resize', use: ':original', width: 20 } });
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress[0]).toBeLessThan(100);
  });

  it('stops at once when canceled: no further files or steps', async () => {
    const controller = new AbortController();
    const results: string[] = [];
    const outcome = await executeSteps({
      assemblyId: 'e'.repeat(32),
      steps: {
        first: { robot: '/image/resize', use: ':original', width: 100, result: true },
        second: { robot: '/image/resize', use: 'first', width: 50 },
      },
      uploads: [photo, logo],
      fields: {},
      workDir: join(dir, 'cancel'),
      signal: controller.signal,
      onResult: (step, f) => {
        results.push(`${step}:${f.original_name}`);
        controller.abort();
      },
    });
    expect(outcome).toMatchObject({ ok: false, code: CANCELED_CODE });
    expect(results).toEqual(['first:photo.jpg']);
  });

  it('ignore_errors lets a step go on past files it cannot handle', async () => {
    const warnings: string[] = [];
    const { outcome, results } = await run(
      { r: { robot: '/image/resize', use: ':original', width: 10, ignore_errors: true } },
      [notes],
      { onWarning: (_s, m) => warnings.push(m) },
    );
    expect(outcome).toEqual({ ok: true });
    expect(results).toEqual([]);
    expect(warnings[0]).toContain('INVALID_INPUT_ERROR');
  });
});

describe('/file/hash', () => {
  it('puts the real digest into meta.hash (sha256 by default, md5 and partial on request)', async () => {
    const bytes = await readFile(notes.localPath);
    const { results } = await run({
      sha: { robot: '/file/hash', use: ':original' },
      md5: { robot: '/file/hash', use: ':original', algorithm: 'md5' },
      first: { robot: '/file/hash', use: ':original', algorithm: 'sha1', partial: 'first', partial_size: 4 },
      b2: { robot: '/file/hash', use: ':original', algorithm: 'b2' },
    }, [notes]);
    const byStep = Object.fromEntries(results.map(([s, f]) => [s, f]));
    expect(byStep.sha!.meta.hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(byStep.md5!.meta.hash).toBe(notes.md5hash);
    expect(byStep.first!.meta.hash).toBe(createHash('sha1').update(bytes.subarray(0, 4)).digest('hex'));
    expect(byStep.b2!.meta.hash).toBe(createHash('blake2b512').update(bytes).digest('hex'));
    expect(byStep.sha!.id).not.toBe(notes.id);
    expect(byStep.sha!.original_id).toBe(notes.id);
  });
});

describe('/image/optimize', () => {
  it('makes a large-quality jpg smaller and keeps the format and size', async () => {
    const big = await imageUpload(dir, 'detailed.jpg', { width: 10, height: 10, format: 'jpeg' });
    const raw = Buffer.from(Array.from({ length: 600 * 400 * 3 }, (_, i) => (i * 7 + (i >> 9)) % 256));
    await sharp(raw, { raw: { width: 600, height: 400, channels: 3 } }).jpeg({ quality: 100 }).toFile(big.localPath);
    const input = { ...big, size: (await readFile(big.localPath)).length };
    const { outcome, results } = await run({ o: { robot: '/image/optimize', use: ':original' } }, [input]);
    expect(outcome).toEqual({ ok: true });
    const out = results[0]![1];
    expect(out).toMatchObject({ name: 'detailed.jpg', mime: 'image/jpeg' });
    expect(out.meta).toMatchObject({ width: 600, height: 400 });
    expect(out.size).toBeLessThan(input.size);
  });

  it('never makes a file bigger', async () => {
    const { results } = await run({ o: { robot: '/image/optimize', use: ':original' } }, [logo]);
    expect(results[0]![1].size).toBeLessThanOrEqual(logo.size);
  });
});
