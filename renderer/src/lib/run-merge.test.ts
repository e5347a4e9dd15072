import { describe, expect, it } from 'vitest';
import { sampleRun } from '../bridge/test/fake-bridge';
import { applyProgress, upsertRun } from './run-merge';

describe('applyProgress', () => {
  it('updates totals and only the files that changed, keeping order', () => {
    const run = sampleRun();
    const totals = { ...run.totals, bytesUploaded: 1500, filesUploaded: 1, speedBps: 1000, etaSeconds: 1.5 };
    const next = applyProgress(run, { runId: run.runId, totals, files: [{ fileId: 'f1', relativePath: 'photos/a.jpg', size: 1000, bytesUploaded: 1000, state: 'uploaded' }] });
    expect(next.totals).toEqual(totals);
    expect(next.files.map((f) => [f.fileId, f.state])).toEqual([
      ['f1', 'uploaded'],
      ['f2', 'queued'],
    ]);
    expect(next.files[1]).toBe(run.files[1]);
  });

  it('ignores progress for another run', () => {
    const run = sampleRun();
    expect(applyProgress(run, { runId: 'other', totals: run.totals, files: [] })).toBe(run);
  });

  it('adds files it did not know yet', () => {
    const run = sampleRun({ files: [] });
    const next = applyProgress(run, { runId: run.runId, totals: run.totals, files: [{ fileId: 'f9', relativePath: 'z', size: 1, bytesUploaded: 0, state: 'queued' }] });
    expect(next.files.map((f) => f.fileId)).toEqual(['f9']);
  });
});

describe('upsertRun', () => {
  it('replaces a known run in place and puts a new one first', () => {
    const a = sampleRun({ runId: 'a' });
    const b = sampleRun({ runId: 'b' });
    expect(upsertRun([a, b], { ...b, state: 'ASSEMBLY_COMPLETED' }).map((r) => [r.runId, r.state])).toEqual([
      ['a', 'ASSEMBLY_UPLOADING'],
      ['b', 'ASSEMBLY_COMPLETED'],
    ]);
    expect(upsertRun([a], b).map((r) => r.runId)).toEqual(['b', 'a']);
  });
});
