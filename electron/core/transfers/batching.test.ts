import { describe, expect, it } from 'vitest';
import { closeAll, emptyBatcher, finalLabel, placeFile, type AssemblyLimits, type BatchingSettings, type OpenBatch } from './batching';

const noLimits: AssemblyLimits = { maxNumberOfFiles: null, maxSize: null };

function batchesOf(files: { relativePath: string; size: number }[], settings: BatchingSettings, limits = noLimits): OpenBatch[] {
  let state = emptyBatcher();
  const out: OpenBatch[] = [];
  for (const f of files) {
    const p = placeFile(state, f, settings, limits, 'shoot');
    state = p.state;
    out.push(...p.closed);
  }
  out.push(...closeAll(state).closed);
  return out.sort((a, b) => a.seq - b.seq);
}

const many = (n: number, size = 10, dir = 'a') => Array.from({ length: n }, (_, i) => ({ relativePath: `${dir}/f${i}.jpg`, size }));

describe('batching a drop into Assemblies', () => {
  it('every N files: 2,500 files with N = 1,000 become three Assemblies of 1,000, 1,000 and 500, labelled by range', () => {
    const batches = batchesOf(many(2_500), { mode: 'every-n', batchMaxFiles: 1_000, batchMaxBytes: 1e12 });
    expect(batches.map((b) => b.files)).toEqual([1_000, 1_000, 500]);
    expect(batches.map(finalLabel)).toEqual(['Files 1–1,000', 'Files 1,001–2,000', 'Files 2,001–2,500']);
  });

  it('a batch is closed (ready to send) the moment it is full, before the walk ends', () => {
    let state = emptyBatcher();
    const settings: BatchingSettings = { mode: 'every-n', batchMaxFiles: 2, batchMaxBytes: 1e12 };
    expect(placeFile(state, { relativePath: 'a', size: 1 }, settings, noLimits).closed).toEqual([]);
    state = placeFile(state, { relativePath: 'a', size: 1 }, settings, noLimits).state;
    expect(placeFile(state, { relativePath: 'b', size: 1 }, settings, noLimits).closed).toHaveLength(1);
  });

  it('every N GB: a file that would take a batch over the byte cap starts the next one; one file over the cap goes alone', () => {
    const files = [10, 10, 5, 30, 1].map((size, i) => ({ relativePath: `f${i}`, size }));
    const batches = batchesOf(files, { mode: 'every-n', batchMaxFiles: 100, batchMaxBytes: 20 });
    expect(batches.map((b) => b.bytes)).toEqual([20, 5, 30, 1]);
  });

  it('per top-level folder: one Assembly per folder, loose files together, whatever order the walk gives', () => {
    const files = [...many(3, 1, 'day1'), { relativePath: 'notes.txt', size: 1 }, ...many(2, 1, 'day2'), ...many(1, 1, 'day1')];
    const batches = batchesOf(files, { mode: 'per-folder', batchMaxFiles: 1, batchMaxBytes: 1 });
    expect(batches.map((b) => [b.label, b.files])).toEqual([
      ['day1', 4],
      ['Loose files', 1],
      ['day2', 2],
    ]);
  });

  it('per drop: one Assembly, but never above the Assembly’s max_number_of_files', () => {
    expect(batchesOf(many(250), { mode: 'per-drop', batchMaxFiles: 1, batchMaxBytes: 1 }).map((b) => b.files)).toEqual([250]);
    const capped = batchesOf(many(250), { mode: 'per-drop', batchMaxFiles: 1, batchMaxBytes: 1 }, { maxNumberOfFiles: 100, maxSize: null });
    expect(capped.map((b) => [b.label, b.files])).toEqual([
      ['shoot', 100],
      ['shoot (part 2)', 100],
      ['shoot (part 3)', 50],
    ]);
  });

  it('every N files never exceeds max_number_of_files or max_size either', () => {
    const batches = batchesOf(many(10, 10), { mode: 'every-n', batchMaxFiles: 1_000, batchMaxBytes: 1e12 }, { maxNumberOfFiles: 4, maxSize: 25 });
    expect(batches.every((b) => b.files <= 4 && b.bytes <= 25)).toBe(true);
    expect(batches.reduce((n, b) => n + b.files, 0)).toBe(10);
  });
});
