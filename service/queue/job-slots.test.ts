import { describe, expect, it } from 'vitest';
import { defaultSlotCount, JobSlots, jobSlotsAnswer, parseSlotCount, type Grant, type SlotJob } from './job-slots';

const job = (assemblyId: string, n: number, step = 'resize'): SlotJob => ({ assemblyId, step, jobId: `j${n}`, robot: '/image/resize' });

/** Records the order in which jobs were granted. */
function tracker(slots: JobSlots) {
  const granted: string[] = [];
  const grants = new Map<string, Grant>();
  const ask = (j: SlotJob, signal?: AbortSignal) =>
    slots.acquire(j, signal).then((g) => {
      granted.push(`${j.assemblyId}/${j.jobId}`);
      grants.set(`${j.assemblyId}/${j.jobId}`, g);
      return g;
    });
  return { granted, grants, ask };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('JobSlots', () => {
  it('runs at most `size` jobs at once; the others wait until a slot is given back', async () => {
    const slots = new JobSlots(2);
    const t = tracker(slots);
    void t.ask(job('a', 1));
    void t.ask(job('a', 2));
    void t.ask(job('a', 3));
    await flush();
    expect(t.granted).toEqual(['a/j1', 'a/j2']);
    expect(slots.inUse).toBe(2);
    t.grants.get('a/j1')!.release();
    await flush();
    expect(t.granted).toEqual(['a/j1', 'a/j2', 'a/j3']);
    expect(slots.inUse).toBe(2);
  });

  it('serves Assemblies in the order they became ready, not in the order their jobs asked', async () => {
    const slots = new JobSlots(1);
    const t = tracker(slots);
    slots.enter('first');
    slots.enter('second');
    void t.ask(job('x', 0)); // holds the only slot
    await flush();
    void t.ask(job('second', 1));
    void t.ask(job('first', 1));
    void t.ask(job('first', 2));
    await flush();
    for (const next of ['x/j0', 'first/j1', 'first/j2']) {
      t.grants.get(next)!.release();
      await flush();
    }
    expect(t.granted).toEqual(['x/j0', 'first/j1', 'first/j2', 'second/j1']);
  });

  it('a job that stops waiting (its Assembly canceled) leaves the line and never gets a slot', async () => {
    const slots = new JobSlots(1);
    const t = tracker(slots);
    void t.ask(job('a', 1));
    const abort = new AbortController();
    const waiting = t.ask(job('b', 1), abort.signal);
    void t.ask(job('c', 1));
    await flush();
    expect(slots.snapshot().waiting.map((w) => w.assemblyId)).toEqual(['b', 'c']);
    abort.abort();
    await expect(waiting).rejects.toThrow(/stopped waiting/);
    expect(slots.snapshot().waiting.map((w) => w.assemblyId)).toEqual(['c']);
    t.grants.get('a/j1')!.release();
    await flush();
    expect(t.granted).toEqual(['a/j1', 'c/j1']);
  });

  it('a release is counted once, however often it is called', async () => {
    const slots = new JobSlots(1);
    const t = tracker(slots);
    const g = await t.ask(job('a', 1));
    void t.ask(job('a', 2));
    void t.ask(job('a', 3));
    g.release();
    g.release();
    await flush();
    expect(t.granted).toEqual(['a/j1', 'a/j2']);
    expect(slots.inUse).toBe(1);
  });

  it('reports how long a job waited, and snapshots running jobs and waiting Assemblies', async () => {
    let now = 1000;
    const slots = new JobSlots(1, () => now);
    const t = tracker(slots);
    const first = await t.ask(job('a', 1, 'encode'));
    expect(first.waitedMs).toBe(0);
    const second = t.ask(job('b', 7, 'thumbs'));
    now = 3500;
    expect(slots.snapshot()).toEqual({
      size: 1,
      inUse: 1,
      running: [{ assemblyId: 'a', step: 'encode', jobId: 'j1', robot: '/image/resize', startedAtMs: 1000 }],
      waiting: [{ assemblyId: 'b', sinceMs: 1000, jobs: 1 }],
    });
    expect(slots.queuedAssemblies()).toBe(1);
    first.release();
    expect((await second).waitedMs).toBe(2500);
    expect(jobSlotsAnswer(slots.snapshot())).toEqual({ count: 1, slots: { b: { thumbs: { j7: 1 } } } });
  });

  it('tells listeners about every change', async () => {
    const slots = new JobSlots(1);
    const seen: number[] = [];
    slots.onChange(() => seen.push(slots.inUse));
    const g = await slots.acquire(job('a', 1));
    g.release();
    expect(seen).toEqual([1, 0]);
  });

  it('sizes: default one per core, at least 2; flags are whole numbers 1..256', () => {
    expect(defaultSlotCount(1)).toBe(2);
    expect(defaultSlotCount(8)).toBe(8);
    expect(parseSlotCount(' 3 ', '--job-slots')).toBe(3);
    expect(() => parseSlotCount('0', '--job-slots')).toThrow(/--job-slots must be a whole number from 1 to 256, got "0"/);
    expect(() => parseSlotCount('two', 'ASSEMBLYLINE_JOB_SLOTS')).toThrow(/ASSEMBLYLINE_JOB_SLOTS/);
    expect(() => new JobSlots(0)).toThrow(RangeError);
  });
});
