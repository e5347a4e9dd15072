import { describe, expect, it } from 'vitest';
import { countsOf, newMachine, nextDue, pendingAfterRestore, step, type MachineState } from './watch-machine';

const SETTLE = 1_000;
const machine = (over: Partial<Parameters<typeof newMachine>[0]> = {}): MachineState => newMachine({ settleMs: SETTLE, reprocessStale: false, paused: false, ...over });

/** Seen, settled, checked and sent: the item is processing. */
function processed(state: MachineState, rel: string, sha = 'h1') {
  step(state, { type: 'seen', relativePath: rel, size: 10, mtimeMs: 1, now: 0 });
  step(state, { type: 'tick', now: SETTLE });
  step(state, { type: 'checked', relativePath: rel, size: 10, mtimeMs: 1, sha256: sha, now: SETTLE });
  step(state, { type: 'started', relativePath: rel, transferId: 't1', now: SETTLE });
}

describe('watch state machine', () => {
  it('waits until a growing file stops changing for the settle time, then checks and sends it once', () => {
    const s = machine();
    step(s, { type: 'seen', relativePath: 'a.jpg', size: 100, mtimeMs: 1, now: 0 });
    // Written in parts: each part restarts the clock.
    step(s, { type: 'seen', relativePath: 'a.jpg', size: 200, mtimeMs: 2, now: 600 });
    expect(step(s, { type: 'tick', now: 1_200 }).commands).toEqual([]);
    step(s, { type: 'seen', relativePath: 'a.jpg', size: 300, mtimeMs: 3, now: 1_200 });
    expect(nextDue(s)).toBe(2_200);
    expect(step(s, { type: 'tick', now: 2_100 }).commands).toEqual([]);
    expect(step(s, { type: 'tick', now: 2_200 }).commands).toEqual([{ kind: 'check', relativePath: 'a.jpg' }]);
    // A second tick does not check it twice.
    expect(step(s, { type: 'tick', now: 2_300 }).commands).toEqual([]);
    expect(step(s, { type: 'checked', relativePath: 'a.jpg', size: 300, mtimeMs: 3, sha256: 'h', now: 2_300 }).commands).toEqual([{ kind: 'process', relativePath: 'a.jpg', sha256: 'h' }]);
    expect(s.items.get('a.jpg')?.state).toBe('queued');
  });

  it('settles again when the check finds the file grew after the last event', () => {
    const s = machine();
    step(s, { type: 'seen', relativePath: 'a.jpg', size: 100, mtimeMs: 1, now: 0 });
    step(s, { type: 'tick', now: SETTLE });
    expect(step(s, { type: 'checked', relativePath: 'a.jpg', size: 150, mtimeMs: 5, sha256: 'h', now: SETTLE }).commands).toEqual([]);
    expect(s.items.get('a.jpg')).toMatchObject({ state: 'settling', size: 150, changedAt: SETTLE });
  });

  it('finishes with results, then asks to handle the original and to notify', () => {
    const s = machine();
    processed(s, 'a.jpg');
    const done = step(s, { type: 'finished', relativePath: 'a.jpg', assemblyId: 'asm1', results: ['resized/a.jpg'], keptBeside: [], skippedResults: [], now: 5_000 });
    expect(done.commands.map((c) => c.kind)).toEqual(['after-success', 'notify']);
    expect(s.items.get('a.jpg')).toMatchObject({ state: 'done', assemblyId: 'asm1', results: ['resized/a.jpg'], doneSha256: 'h1' });
    expect(countsOf(s)).toEqual({ done: 1, failed: 0, queued: 0, skipped: 0 });
  });

  it('skips an unchanged processed file at catch-up, reprocesses a changed one, and a touched one is skipped after its hash', () => {
    const s = machine();
    processed(s, 'a.jpg');
    step(s, { type: 'finished', relativePath: 'a.jpg', assemblyId: 'asm1', results: [], keptBeside: [], skippedResults: [], now: 5_000 });
    const restarted = machine({ items: s.items.values() });
    expect(step(restarted, { type: 'seen', relativePath: 'a.jpg', size: 10, mtimeMs: 1, now: 0 }).changed).toEqual([]);
    expect(countsOf(restarted).skipped).toBe(1);
    // Touched: same bytes, new mtime → checked, then skipped on the hash.
    step(restarted, { type: 'seen', relativePath: 'a.jpg', size: 10, mtimeMs: 9, now: 100 });
    step(restarted, { type: 'tick', now: 100 + SETTLE });
    expect(step(restarted, { type: 'checked', relativePath: 'a.jpg', size: 10, mtimeMs: 9, sha256: 'h1', now: 100 + SETTLE }).commands).toEqual([]);
    expect(restarted.items.get('a.jpg')?.state).toBe('done');
    expect(countsOf(restarted).skipped).toBe(2);
    // Changed: new bytes → processed again.
    step(restarted, { type: 'seen', relativePath: 'a.jpg', size: 12, mtimeMs: 10, now: 3_000 });
    step(restarted, { type: 'tick', now: 3_000 + SETTLE });
    expect(step(restarted, { type: 'checked', relativePath: 'a.jpg', size: 12, mtimeMs: 10, sha256: 'h2', now: 4_000 }).commands).toEqual([{ kind: 'process', relativePath: 'a.jpg', sha256: 'h2' }]);
  });

  it('checks a file again when it changed while it was processed, and leaves its original alone', () => {
    const s = machine();
    processed(s, 'a.jpg');
    step(s, { type: 'seen', relativePath: 'a.jpg', size: 20, mtimeMs: 7, now: 3_000 });
    const done = step(s, { type: 'finished', relativePath: 'a.jpg', assemblyId: 'asm1', results: ['r/a.jpg'], keptBeside: [], skippedResults: [], now: 4_000 });
    expect(done.commands.map((c) => c.kind)).toEqual(['notify']);
    expect(s.items.get('a.jpg')).toMatchObject({ state: 'settling', size: 20, doneSha256: 'h1' });
    expect(step(s, { type: 'tick', now: 4_000 + SETTLE }).commands).toEqual([{ kind: 'check', relativePath: 'a.jpg' }]);
    expect(step(s, { type: 'checked', relativePath: 'a.jpg', size: 20, mtimeMs: 7, sha256: 'h2', now: 5_000 }).commands).toEqual([{ kind: 'process', relativePath: 'a.jpg', sha256: 'h2' }]);
  });

  it('reprocesses unchanged files when "reprocess stale" is on', () => {
    const s = machine();
    processed(s, 'a.jpg');
    step(s, { type: 'finished', relativePath: 'a.jpg', assemblyId: 'asm1', results: [], keptBeside: [], skippedResults: [], now: 5_000 });
    const restarted = machine({ reprocessStale: true, items: s.items.values() });
    step(restarted, { type: 'seen', relativePath: 'a.jpg', size: 10, mtimeMs: 1, now: 0 });
    step(restarted, { type: 'tick', now: SETTLE });
    expect(step(restarted, { type: 'checked', relativePath: 'a.jpg', size: 10, mtimeMs: 1, sha256: 'h1', now: SETTLE }).commands).toEqual([{ kind: 'process', relativePath: 'a.jpg', sha256: 'h1' }]);
  });

  it('records a failure with its reason and takes the file again when it is seen changed', () => {
    const s = machine();
    processed(s, 'a.jpg');
    const failed = step(s, { type: 'failed', relativePath: 'a.jpg', error: 'INVALID_FILE_META_DATA: bad', assemblyId: 'asm1', now: 5_000 });
    expect(failed.commands).toEqual([{ kind: 'notify', relativePath: 'a.jpg', outcome: 'failed', error: 'INVALID_FILE_META_DATA: bad' }]);
    expect(countsOf(s)).toMatchObject({ failed: 1 });
    step(s, { type: 'seen', relativePath: 'a.jpg', size: 11, mtimeMs: 2, now: 6_000 });
    expect(s.items.get('a.jpg')?.state).toBe('settling');
  });

  it('forgets a file that vanished before it was sent, keeps the record of a processed one', () => {
    const s = machine();
    step(s, { type: 'seen', relativePath: 'tmp.jpg', size: 1, mtimeMs: 1, now: 0 });
    step(s, { type: 'gone', relativePath: 'tmp.jpg', now: 10 });
    expect(s.items.has('tmp.jpg')).toBe(false);
    processed(s, 'a.jpg');
    step(s, { type: 'finished', relativePath: 'a.jpg', assemblyId: 'asm1', results: [], keptBeside: [], skippedResults: [], now: 5_000 });
    step(s, { type: 'gone', relativePath: 'a.jpg', now: 6_000 });
    expect(s.items.get('a.jpg')?.state).toBe('done');
  });

  it('holds checked files while paused and sends them on resume; a restart resends queued ones', () => {
    const s = machine();
    step(s, { type: 'seen', relativePath: 'a.jpg', size: 1, mtimeMs: 1, now: 0 });
    step(s, { type: 'tick', now: SETTLE });
    step(s, { type: 'pause' });
    expect(step(s, { type: 'checked', relativePath: 'a.jpg', size: 1, mtimeMs: 1, sha256: 'h', now: SETTLE }).commands).toEqual([]);
    step(s, { type: 'seen', relativePath: 'b.jpg', size: 1, mtimeMs: 1, now: 0 });
    expect(step(s, { type: 'tick', now: 5 * SETTLE }).commands).toEqual([]);
    expect(pendingAfterRestore(machine({ items: s.items.values() }))).toEqual([{ kind: 'process', relativePath: 'a.jpg', sha256: 'h' }]);
    expect(step(s, { type: 'resume', now: 6 * SETTLE }).commands).toEqual([{ kind: 'process', relativePath: 'a.jpg', sha256: 'h' }]);
  });

  it('starts a file caught mid-check over after a restart', () => {
    const s = machine();
    step(s, { type: 'seen', relativePath: 'a.jpg', size: 1, mtimeMs: 1, now: 0 });
    step(s, { type: 'tick', now: SETTLE });
    expect(machine({ items: s.items.values() }).items.get('a.jpg')?.state).toBe('settling');
  });
});
