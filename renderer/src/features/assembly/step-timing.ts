// How long each step of an Assembly ran, as far as this view can tell. Pure.
//
// While the view follows an Assembly it sees each step start and end in the service's per-step progress,
// and keeps those times (`trackSteps`). For a step it did not watch (an Assembly opened after it ended)
// the result records say how long their jobs ran (`exec_time`, seconds): their sum is the step's work.

import type { AssemblyFile } from '../../../../shared/api/assembly-status';
import type { StepProgress } from '../../../../shared/ipc/assembly-models';

export interface StepTimes {
  /** When the view saw the step executing first (ms). */
  readonly startedAt: number;
  /** When it saw it done; null while it runs. */
  readonly endedAt: number | null;
}

/** The times with `perStep` seen at `now`: a step seen executing starts, one seen done ends. Pure. */
export function trackSteps(times: ReadonlyMap<string, StepTimes>, perStep: readonly StepProgress[] | null, now: number): ReadonlyMap<string, StepTimes> {
  if (!perStep) return times;
  let next: Map<string, StepTimes> | null = null;
  const set = (step: string, t: StepTimes) => {
    next ??= new Map(times);
    next.set(step, t);
  };
  for (const s of perStep) {
    const known = times.get(s.step);
    if (s.state === 'executing' && !known) set(s.step, { startedAt: now, endedAt: null });
    // Done without being seen running (a step of a few ms between two reports) gets no time: it was not watched.
    if (s.state === 'done' && known && known.endedAt === null) set(s.step, { ...known, endedAt: now });
  }
  return next ?? times;
}

export interface StepDuration {
  readonly seconds: number;
  /** `watched`: wall time this view saw; `work`: the sum of its results' job times (exec_time). */
  readonly kind: 'watched' | 'work';
}

/** A step's duration: watched wall time (running up to `now`), else its results' job time, else null. Pure. */
export function stepDuration(times: StepTimes | undefined, results: readonly AssemblyFile[] | undefined, now: number): StepDuration | null {
  if (times) return { seconds: Math.max(0, ((times.endedAt ?? now) - times.startedAt) / 1000), kind: 'watched' };
  const work = (results ?? []).reduce((sum, f) => sum + (typeof (f as { exec_time?: unknown }).exec_time === 'number' ? ((f as { exec_time: number }).exec_time) : 0), 0);
  return work > 0 ? { seconds: work, kind: 'work' } : null;
}
