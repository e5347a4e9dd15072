import { describe, expect, it } from 'vitest';
import { replayManySummary } from './replay-summary';

const started = (n: number) => Array.from({ length: n }, (_, i) => ({ parentId: `p${i}`, assemblyId: `a${i}` }));
const running = (id: string) => ({ parentId: id, code: 'ASSEMBLY_NOT_FINISHED', message: `Assembly ${id} is still executing: replay it once it has ended.` });

describe('replayManySummary', () => {
  it('all started: where they are', () => {
    expect(replayManySummary({ started: started(3), failed: [] })).toEqual({ text: 'Replaying 3 Assemblies: they run at the top of the list.', tone: 'success' });
  });

  it('running ones in the selection are left alone, not reported as refused', () => {
    expect(replayManySummary({ started: started(3), failed: [running('r1'), running('r2')] })).toEqual({
      text: 'Replaying 3 Assemblies; 2 Assemblies still running were left alone: replay them once ended.',
      tone: 'info',
    });
    expect(replayManySummary({ started: [], failed: [running('r1')] })).toEqual({ text: 'Nothing replayed; 1 Assembly still running was left alone: replay it once ended.', tone: 'info' });
  });

  it('a real refusal shows its code and message, beside the running ones', () => {
    const summary = replayManySummary({ started: started(1), failed: [running('r1'), { parentId: 'x', code: 'ASSEMBLY_NOT_FOUND', message: 'No Assembly x.' }] });
    expect(summary).toEqual({ text: 'Replaying 1 Assembly; 1 Assembly still running was left alone: replay it once ended; 1 refused: ASSEMBLY_NOT_FOUND — No Assembly x.', tone: 'danger' });
  });
});
