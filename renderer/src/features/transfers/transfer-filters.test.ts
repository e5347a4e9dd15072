import { describe, expect, it } from 'vitest';
import { currentFromTotals, type TransferTotals } from '../../../../shared/ipc/transfer-models';
import { FILTERS, filterCount, matchesFilter, statesOf } from './transfer-filters';

const whole = {
  filesTotal: 100,
  filesQueued: 40,
  filesActive: 4,
  filesDone: 45,
  filesFailed: 3,
  filesCanceled: 5,
  filesSkipped: 3,
  bytesTotal: 1,
  bytesSent: 0,
  speedBps: 0,
  etaSeconds: null,
  paused: false,
  waitingUntil: null,
  effectiveConcurrency: 4,
};
const totals: TransferTotals = { ...whole, current: currentFromTotals(whole) };

describe('transfer filters', () => {
  it('count each chip from the totals, and the states chips add up to All', () => {
    expect(FILTERS.map((f) => filterCount(f, totals))).toEqual([100, 4, 40, 3, 48, 5]);
    const sum = FILTERS.filter((f) => f !== 'all').reduce((s, f) => s + filterCount(f, totals), 0);
    expect(sum).toBe(totals.filesTotal);
  });

  it('send core the states a chip stands for', () => {
    expect(statesOf('all')).toBeUndefined();
    expect(statesOf('active')).toEqual(['uploading', 'uploaded']);
    expect(statesOf('queued')).toEqual(['queued', 'paused']);
    expect(matchesFilter('done', 'skipped')).toBe(true);
    expect(matchesFilter('failed', 'verified')).toBe(false);
  });
});
