import { describe, expect, it } from 'vitest';
import { DEFAULT_TRANSFER_SETTINGS, type TransferSettings } from '../../../shared/ipc/transfer-models';
import { closeAll, emptyBatcher, finalLabel, placeFile } from '../transfers/batching';
import { buildPlan, limitsOfTemplateContent, type PlanInput } from './plan';

type File = { relativePath: string; size: number };
const filesOf = (list: readonly File[]): PlanInput['files'] => ({
  forEach: (visit) => list.forEach((f, i) => visit(f.relativePath, f.size, i)),
  pathAt: (i) => `/disk/${list[i]!.relativePath}`,
});
const settings = (change: Partial<TransferSettings> = {}, skip: Partial<TransferSettings['skip']> = {}): TransferSettings => ({
  ...DEFAULT_TRANSFER_SETTINGS,
  ...change,
  skip: { ...DEFAULT_TRANSFER_SETTINGS.skip, ...skip },
});
const noLimits = { maxSize: null, maxNumberOfFiles: null };
const plan = (list: readonly File[], s = settings(), extra: Partial<PlanInput> = {}) =>
  buildPlan({ files: filesOf(list), settings: s, limits: noLimits, unreadable: 0, ...extra });

describe('the pre-flight plan', () => {
  const shoot: File[] = [
    { relativePath: 'shoot/a.jpg', size: 1_000 },
    { relativePath: 'shoot/b.mov', size: 50 * 1024 ** 2 },
    { relativePath: 'shoot/.DS_Store', size: 6 },
    { relativePath: 'shoot/sub/Thumbs.db', size: 7 },
    { relativePath: 'shoot/sub/c.jpg', size: 2_000 },
    { relativePath: 'shoot/sub/tiny.txt', size: 3 },
  ];

  it('counts what would be sent, and what each rule leaves out', () => {
    const p = plan(shoot, settings({}, { exclude: ['*.mov'], minBytes: 10 }), { unreadable: 2 });
    expect(p).toMatchObject({ files: 2, bytes: 3_000, skipped: { hidden: 2, pattern: 1, size: 1, unchanged: 0, unreadable: 2 }, assemblies: 1 });
    expect(p.batches).toEqual([{ label: 'Files 1–2', files: 2, bytes: 3_000 }]);
    expect(p.warnings).toEqual([]);
  });

  it('changes as soon as a rule changes (the draft keeps every file)', () => {
    expect(plan(shoot).files).toBe(4);
    expect(plan(shoot, settings({}, { skipHidden: false })).files).toBe(6);
  });

  it('splits small files to multipart and large ones to tus at the threshold; 0 = tus only', () => {
    expect(plan(shoot)).toMatchObject({ multipartFiles: 3, tusFiles: 1 });
    expect(plan(shoot, settings({ multipartMaxFileBytes: 0 }))).toMatchObject({ multipartFiles: 0, tusFiles: 4 });
  });

  it('counts unchanged candidates by path and size when the rule is on', () => {
    const before = (p: string, size: number) => p === '/disk/shoot/a.jpg' && size === 1_000;
    expect(plan(shoot, settings({}, { skipUnchanged: true }), { isUploadedBefore: before }).skipped.unchanged).toBe(1);
    expect(plan(shoot, settings(), { isUploadedBefore: before }).skipped.unchanged).toBe(0);
  });

  it('makes the same batches as the engine would, per folder too', () => {
    const files = Array.from({ length: 5_000 }, (_, i) => ({ relativePath: `f${i % 7}/sub/x${i}.jpg`, size: 10 + (i % 13) }));
    files.push({ relativePath: 'loose.jpg', size: 5 });
    for (const mode of ['per-drop', 'per-folder', 'every-n'] as const) {
      const s = settings({ batchMode: mode, batchMaxFiles: 300, batchMaxBytes: 2_000 });
      const batching = { mode, batchMaxFiles: 300, batchMaxBytes: 2_000 };
      let state = emptyBatcher();
      const engine = [];
      for (const f of files) {
        const placed = placeFile(state, f, batching, noLimits, 'shoot');
        state = placed.state;
        engine.push(...placed.closed);
      }
      engine.push(...closeAll(state).closed);
      engine.sort((a, b) => a.seq - b.seq);
      const p = plan(files, s, { dropLabel: 'shoot' });
      expect(p.assemblies, mode).toBe(engine.length);
      expect(p.batches, mode).toEqual(engine.slice(0, 200).map((b) => ({ label: finalLabel(b), files: b.files, bytes: b.bytes })));
    }
  });

  it("warns at the field with the service's codes: max_size, max_number_of_files, nothing left, too many files, an unreadable Template", () => {
    const limits = { maxSize: 10 * 1024 ** 2, maxNumberOfFiles: 500 };
    const p = plan(shoot, settings({ batchMaxFiles: 1_000 }), { limits });
    expect(p.limits).toEqual(limits);
    expect(p.warnings.map((w) => [w.code, w.field])).toEqual([
      ['MAX_SIZE_EXCEEDED', 'files'],
      ['MAX_NUMBER_OF_FILES_EXCEEDED', 'batchMaxFiles'],
    ]);
    expect(p.warnings[0]!.message).toContain('shoot/b.mov');
    expect(p.warnings[1]!.message).toMatch(/capped at 500/);
    expect(plan(shoot, settings({}, { include: ['*.wav'] })).warnings.map((w) => [w.code, w.field])).toEqual([['NO_FILES_TO_UPLOAD', 'skip']]);
    expect(plan([]).warnings.map((w) => [w.code, w.field])).toEqual([['NO_FILES_TO_UPLOAD', 'files']]);
    const huge = Array.from({ length: 100_001 }, (_, i) => ({ relativePath: `big/${i}.jpg`, size: 1 }));
    expect(plan(huge).warnings.map((w) => [w.code, w.field])).toEqual([['TOO_MANY_FILES', 'files']]);
    const unread = plan(shoot, settings(), { templateError: { code: 'TEMPLATE_NOT_FOUND', message: 'No Template x.' } });
    expect(unread.warnings.map((w) => [w.code, w.field])).toEqual([['TEMPLATE_NOT_FOUND', 'template']]);
  });

  it("reads a Template's limits as the service does", () => {
    expect(limitsOfTemplateContent({ steps: {}, auth: { max_size: 1000, max_number_of_files: '5' } })).toEqual({ maxSize: 1000, maxNumberOfFiles: 5 });
    expect(limitsOfTemplateContent(JSON.stringify({ auth: { max_size: '2e3' } }))).toEqual({ maxSize: 2000, maxNumberOfFiles: null });
    expect(limitsOfTemplateContent({ auth: { max_size: -1, max_number_of_files: 0.5 } })).toEqual({ maxSize: null, maxNumberOfFiles: null });
    expect(limitsOfTemplateContent(null)).toEqual({ maxSize: null, maxNumberOfFiles: null });
  });

  it('grows linearly: 100,000 files in 20,000 top-level folders cost about 10 × 10,000 files (no O(n²))', () => {
    // Work is counted, not timed (a loaded machine makes times meaningless): every read of a file's fields.
    let reads = 0;
    const make = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const file = { relativePath: `folder-${i % (n / 5)}/f${i}.jpg`, size: 100 };
        return new Proxy(file, {
          get(target, key, receiver) {
            reads += 1;
            return Reflect.get(target, key, receiver) as unknown;
          },
        });
      });
    const s = settings({ batchMode: 'per-folder' }, { exclude: ['*.tmp'] });
    const readsOf = (list: File[]) => {
      reads = 0;
      const result = plan(list, s);
      return { reads, assemblies: result.assemblies };
    };
    const small = readsOf(make(10_000));
    const large = readsOf(make(100_000));
    expect(small.reads).toBeGreaterThanOrEqual(10_000);
    // Linear work gives 10; a pass over the files per folder (quadratic) would give ~100.
    expect(large.reads / small.reads).toBeLessThan(12);
    expect([small.assemblies, large.assemblies]).toEqual([2_000, 20_000]);
  }, 60_000);
});
