import { describe, expect, it } from 'vitest';
import { currentFromTotals, type TransferTotals } from '../../../../shared/ipc/transfer-models';
import { etaSeconds, nextMeasuredSince, totalsText } from './transfer-eta';

const totals = (over: Partial<TransferTotals> = {}): TransferTotals => {
  const whole = {
  filesTotal: 2_000,
  filesQueued: 1_700,
  filesActive: 4,
  filesDone: 296,
  filesFailed: 0,
  filesCanceled: 0,
  filesSkipped: 0,
  bytesTotal: 10_000_000,
  bytesSent: 1_200_000,
  speedBps: 400_000,
  etaSeconds: 30,
  paused: false,
  waitingUntil: null,
  effectiveConcurrency: 4,
  ...over,
  };
  return { ...whole, current: over.current ?? currentFromTotals(whole) };
};

describe('ETA', () => {
  it('promises no time until the speed has been measured for a while', () => {
    const now = 100_000;
    expect(etaSeconds({ totals: totals(), measuredSince: now - 1_000, now })).toBeNull();
    expect(etaSeconds({ totals: totals(), measuredSince: now - 6_000, now })).toBe(30);
    expect(etaSeconds({ totals: totals({ speedBps: 0 }), measuredSince: null, now })).toBeNull();
  });

  it('promises no time in the first bytes of a queue, and falls back to bytes over speed', () => {
    const now = 100_000;
    expect(etaSeconds({ totals: totals({ bytesSent: 100_000 }), measuredSince: 0, now })).toBeNull();
    expect(etaSeconds({ totals: totals({ etaSeconds: null }), measuredSince: 0, now })).toBe(22);
  });

  it('keeps the start of a measurement while the speed stays up and resets it when it stops', () => {
    expect(nextMeasuredSince(null, 10, 5)).toBe(5);
    expect(nextMeasuredSince(5, 10, 9)).toBe(5);
    expect(nextMeasuredSince(5, 0, 9)).toBeNull();
  });

  it('says what the queue waits for instead of a time', () => {
    const input = { measuredSince: 0, now: 100_000 };
    expect(totalsText({ ...input, totals: totals({ paused: true }) }, 4).eta).toBe('Paused');
    const waiting = totalsText({ ...input, totals: totals({ waitingUntil: '2026-11-25T12:03:10.000Z' }) }, 4).eta;
    expect(waiting).toMatch(/^Waiting for the service until \d\d:\d\d:\d\d/);
    expect(totalsText({ ...input, totals: totals() }, 4)).toMatchObject({ files: '296 of 2,000 files', bytes: '1.2 MB of 10.0 MB', speed: '400 KB/s', eta: '30 s left', concurrency: null });
    expect(totalsText({ ...input, totals: totals({ filesQueued: 0, filesActive: 0, filesDone: 2_000 }) }, 4).eta).toBe('Done');
  });

  it('never says Done while files wait for their Assembly to verify them: every byte in, it says Verifying', () => {
    const input = { measuredSince: 0, now: 100_000 };
    // 100 files' bytes are in (active: "Verifying"), their Assembly has not answered yet.
    const cur = { transfers: 1, filesTotal: 2_000, filesDone: 1_900, filesFailed: 0, filesCanceled: 0, filesSkipped: 0, filesSent: 2_000, filesLeft: 100, bytesTotal: 10_000_000, bytesSent: 10_000_000 };
    const verifying = totals({ filesQueued: 0, filesActive: 100, filesDone: 1_900, bytesSent: 10_000_000, speedBps: 0, etaSeconds: null, current: cur });
    expect(totalsText({ ...input, totals: verifying }, 4).eta).toBe('Verifying…');
    expect(totalsText({ ...input, totals: verifying }, 4).files).toBe('1,900 of 2,000 files · 100 more sent');
  });

  it('counts the files that arrived of those meant to go: canceled ones are left out, failed ones said apart', () => {
    const input = { measuredSince: 0, now: 100_000 };
    const start = totals({ filesTotal: 2_001, filesQueued: 1_501, filesActive: 0, filesDone: 0, filesCanceled: 500 });
    expect(totalsText({ ...input, totals: start }, 4).files).toBe('0 of 1,501 files');
    const end = totals({ filesTotal: 2_001, filesQueued: 0, filesActive: 0, filesDone: 1_499, filesSkipped: 1, filesFailed: 1, filesCanceled: 500 });
    expect(totalsText({ ...input, totals: end }, 4).files).toBe('1,500 of 1,501 files · 1 failed');
    expect(totalsText({ ...input, totals: totals({ filesTotal: 1, filesQueued: 0, filesActive: 0, filesDone: 0, filesFailed: 1 }) }, 4).files).toBe('0 of 1 file · 1 failed');
  });

  it('counts the work under way: a finished drop of earlier is not part of the bar, files sent many per request count as they leave', () => {
    const input = { measuredSince: 0, now: 100_000 };
    // 1,000 files of an earlier drop are done; the new drop of 56 files has 20 whose bytes all left, 3 answered.
    const cur = { transfers: 1, filesTotal: 56, filesDone: 3, filesFailed: 0, filesCanceled: 0, filesSkipped: 0, filesSent: 20, filesLeft: 53, bytesTotal: 5_600_000, bytesSent: 2_000_000 };
    const text = totalsText({ ...input, totals: totals({ filesTotal: 1_056, filesDone: 1_003, filesQueued: 36, filesActive: 17, bytesTotal: 105_600_000, bytesSent: 102_000_000, etaSeconds: null, speedBps: 400_000, current: cur }) }, 4);
    expect(text).toMatchObject({ files: '3 of 56 files · 17 more sent', bytes: '2.0 MB of 5.6 MB', eta: '9.0 s left' });
  });

  it('shows the effective concurrency while the engine backs off', () => {
    expect(totalsText({ measuredSince: 0, now: 100_000, totals: totals({ effectiveConcurrency: 2 }) }, 8).concurrency).toBe('2 of 8 at once (the service asked to slow down)');
  });
});
