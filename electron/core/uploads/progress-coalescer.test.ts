import { describe, expect, it } from 'vitest';
import type { RunProgress } from '../../../shared/ipc/models';
import type { Clock } from './clock';
import { createProgressCoalescer } from './progress-coalescer';

/** A manual clock: time moves only when the test says so, and due timers fire in order. */
function manualClock() {
  let now = 1_000_000;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: Clock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id) => void timers.delete(id as number),
  };
  const advance = (ms: number) => {
    const target = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = target;
  };
  return { clock, advance };
}

const files = [
  { fileId: 'a', relativePath: 'x/a.jpg', size: 1000 },
  { fileId: 'b', relativePath: 'x/b.jpg', size: 3000 },
];

describe('createProgressCoalescer', () => {
  it('sends the first change at once and then at most one event per 250 ms, with only changed files', () => {
    const { clock, advance } = manualClock();
    const events: RunProgress[] = [];
    const c = createProgressCoalescer({ runId: 'r1', files, clock, emit: (e) => events.push(e) });
    c.update('a', { bytesUploaded: 10, state: 'uploading' });
    expect(events).toHaveLength(1);
    for (let i = 1; i <= 100; i++) {
      c.update('a', { bytesUploaded: 10 + i });
      advance(1);
    }
    // 100 callbacks over 100 ms: still only the first event.
    expect(events).toHaveLength(1);
    advance(150);
    expect(events).toHaveLength(2);
    expect(events[1]!.files).toEqual([{ fileId: 'a', relativePath: 'x/a.jpg', size: 1000, bytesUploaded: 110, state: 'uploading' }]);
    expect(events[1]!.totals).toMatchObject({ bytesTotal: 4000, bytesUploaded: 110, filesTotal: 2, filesUploaded: 0 });
    advance(1000);
    expect(events).toHaveLength(2);
  });

  it('counts uploaded files, reports speed over the window and an ETA', () => {
    const { clock, advance } = manualClock();
    const events: RunProgress[] = [];
    const c = createProgressCoalescer({ runId: 'r1', files, clock, emit: (e) => events.push(e) });
    for (let s = 1; s <= 4; s++) {
      advance(250);
      c.update('b', { bytesUploaded: s * 250, state: 'uploading' });
    }
    advance(250);
    c.update('a', { bytesUploaded: 1000, state: 'uploaded' });
    c.flush();
    const last = events[events.length - 1]!;
    expect(last.totals.filesUploaded).toBe(1);
    expect(last.totals.bytesUploaded).toBe(2000);
    // 2000 bytes in 1.25 s since the start.
    expect(last.totals.speedBps).toBe(1600);
    expect(last.totals.etaSeconds).toBe(Math.ceil(2000 / 1600));
  });

  it('forgets old samples so speed follows the recent rate', () => {
    const { clock, advance } = manualClock();
    const c = createProgressCoalescer({ runId: 'r', files, clock, emit: () => undefined, speedWindowMs: 1000 });
    c.update('b', { bytesUploaded: 2000 });
    advance(5000);
    c.update('b', { bytesUploaded: 2100 });
    advance(500);
    c.update('b', { bytesUploaded: 2200 });
    expect(c.totals().speedBps).toBe(200);
  });

  it('has no ETA before any speed is known, and never counts bytes beyond a file size', () => {
    const { clock } = manualClock();
    const c = createProgressCoalescer({ runId: 'r', files, clock, emit: () => undefined });
    expect(c.totals()).toEqual({ bytesTotal: 4000, bytesUploaded: 0, filesTotal: 2, filesUploaded: 0, speedBps: 0, etaSeconds: null });
    c.update('a', { bytesUploaded: 99_999 });
    expect(c.totals().bytesUploaded).toBe(1000);
  });

  it('emits nothing after dispose', () => {
    const { clock, advance } = manualClock();
    const events: RunProgress[] = [];
    const c = createProgressCoalescer({ runId: 'r', files, clock, emit: (e) => events.push(e) });
    c.update('a', { bytesUploaded: 1 });
    c.update('a', { bytesUploaded: 2 });
    c.dispose();
    advance(1000);
    expect(events).toHaveLength(1);
  });
});
