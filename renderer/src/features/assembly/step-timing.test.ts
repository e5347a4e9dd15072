import { describe, expect, it } from 'vitest';
import type { StepProgress } from '../../../../shared/ipc/assembly-models';
import { stepDuration, trackSteps } from './step-timing';

const step = (name: string, state: StepProgress['state']): StepProgress => ({ step: name, robot: '/video/encode', state, progress: state === 'done' ? 100 : 0, filesDone: 0, filesTotal: 1 });

describe('step timing', () => {
  it('times a step from the report that shows it running to the one that shows it done', () => {
    let t = trackSteps(new Map(), [step('a', 'executing'), step('b', 'waiting')], 1_000);
    t = trackSteps(t, [step('a', 'executing'), step('b', 'waiting')], 5_000);
    expect(stepDuration(t.get('a'), undefined, 9_000)).toEqual({ seconds: 8, kind: 'watched' });
    t = trackSteps(t, [step('a', 'done'), step('b', 'executing')], 11_000);
    expect(stepDuration(t.get('a'), undefined, 60_000)).toEqual({ seconds: 10, kind: 'watched' });
    expect(stepDuration(t.get('b'), undefined, 12_500)).toEqual({ seconds: 1.5, kind: 'watched' });
    // Nothing new: the same map (no re-render for a report that changes no time).
    expect(trackSteps(t, [step('a', 'done'), step('b', 'executing')], 13_000)).toBe(t);
  });

  it('says the job time of its results for a step it did not watch, and nothing when there is none', () => {
    expect(stepDuration(undefined, [{ exec_time: 1.25 }, { exec_time: 2 }, {}] as never, 0)).toEqual({ seconds: 3.25, kind: 'work' });
    expect(stepDuration(undefined, [], 0)).toBeNull();
    expect(trackSteps(new Map(), [step('a', 'done')], 1).has('a')).toBe(false);
  });
});
