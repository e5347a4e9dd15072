import { describe, expect, it } from 'vitest';
import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import type { StepProgress } from '../../../../shared/ipc/assembly-models';
import { stepOrder, stepRows, stepRowText, useRefs } from './step-progress';

const STEPS = {
  thumbs: { use: 'encoded', robot: '/video/thumbs' },
  encoded: { use: ':original', robot: '/video/encode' },
};
const params = JSON.stringify({ steps: STEPS });
const file = (name: string) => ({ id: name, name, ssl_url: `https://cdn.example/${name}` });
const live = (step: string, robot: string, state: StepProgress['state'], progress: number, filesDone = 0, filesTotal = 0): StepProgress => ({ step, robot, state, progress, filesDone, filesTotal });

describe('step order', () => {
  it('reads every form of use, and puts steps after what they use (:original first when used)', () => {
    expect(useRefs('a')).toEqual(['a']);
    expect(useRefs(['a', 'b'])).toEqual(['a', 'b']);
    expect(useRefs({ steps: ['a', { name: 'b', as: 'x' }], bundle_steps: true })).toEqual(['a', 'b']);
    expect(useRefs(42)).toEqual([]);
    expect(stepOrder(STEPS)).toEqual([':original', 'encoded', 'thumbs']);
  });
  it('keeps the written order when the steps loop', () => {
    expect(stepOrder({ a: { use: 'b' }, b: { use: 'a' } })).toEqual(['b', 'a']);
  });
});

describe('step rows', () => {
  const executing: AssemblyStatus = { ok: 'ASSEMBLY_EXECUTING', params, results: {} };

  it('shows the service\'s per-step progress as it is: done, the running one moving, the later one waiting', () => {
    const rows = stepRows(executing, [
      live(':original', '/upload/handle', 'done', 100, 1, 1),
      live('encoded', '/video/encode', 'executing', 42, 0, 1),
      live('thumbs', '/video/thumbs', 'waiting', 0),
    ]);
    expect(rows.map((r) => [r.step, r.state, r.progress])).toEqual([
      [':original', 'done', 100],
      ['encoded', 'executing', 42],
      ['thumbs', 'waiting', 0],
    ]);
    expect(rows.map(stepRowText)).toEqual(['Done · 1 of 1 file', '42 % · 0 of 1 file', 'Waiting']);
  });

  it('a running step reads to a tenth, so a long encode moving 0.4 % between events is seen moving', () => {
    const at = (progress: number) => stepRowText(stepRows(executing, [live('encoded', '/video/encode', 'executing', progress, 0, 1)])[0]!);
    expect([at(42.3), at(42.7), at(0.1), at(99.9)]).toEqual(['42.3 % · 0 of 1 file', '42.7 % · 0 of 1 file', '0.1 % · 0 of 1 file', '99.9 % · 0 of 1 file']);
  });

  it('without progress_per_step derives only what is known: results = done, the rest unknown (no numbers)', () => {
    const rows = stepRows({ ...executing, results: { encoded: [file('a.mp4')] } }, null);
    expect(rows.map((r) => [r.step, r.robot, r.state, r.progress])).toEqual([
      [':original', '/upload/handle', 'done', 100],
      ['encoded', '/video/encode', 'done', 100],
      ['thumbs', '/video/thumbs', 'unknown', null],
    ]);
    expect(stepRowText(rows[1]!)).toBe('Done · 1 result');
    expect(stepRowText(rows[2]!)).toBe('Not reported');
    // Still uploading: not even :original is known to be done.
    expect(stepRows({ ok: 'ASSEMBLY_UPLOADING', params }, null)[0]).toMatchObject({ step: ':original', state: 'unknown', progress: null });
  });

  it('an Assembly that completed has every step done, whatever the last progress said', () => {
    const rows = stepRows({ ok: 'ASSEMBLY_COMPLETED', params, results: {} }, [live('encoded', '/video/encode', 'executing', 97, 0, 1)]);
    expect(rows.every((r) => r.state === 'done' && r.progress === 100)).toBe(true);
    expect(rows.find((r) => r.step === 'encoded')).toMatchObject({ filesDone: 1, filesTotal: 1 });
  });

  it('a failed Assembly names the failed step; the steps after it did not run', () => {
    const failed: AssemblyStatus = { ok: null, error: 'INTERNAL_COMMAND_ERROR', step: 'encoded', params, results: {} };
    expect(stepRows(failed, null).map((r) => [r.step, r.state])).toEqual([
      [':original', 'done'],
      ['encoded', 'failed'],
      ['thumbs', 'not-run'],
    ]);
    expect(stepRowText(stepRows(failed, null)[2]!)).toBe('Did not finish');
  });

  it('uses merged_params (a Template\'s steps) and lists steps that only appear in results', () => {
    const rows = stepRows({ ok: 'ASSEMBLY_EXECUTING', params: '{"template_id":"t"}', merged_params: params, results: { extra: [file('x')] } }, null);
    expect(rows.map((r) => r.step)).toEqual([':original', 'encoded', 'thumbs', 'extra']);
    expect(stepRows({ ok: 'ASSEMBLY_EXECUTING', params: 'not json' }, null)).toEqual([]);
  });
});
