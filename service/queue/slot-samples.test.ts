import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSlotSamples, SlotIntegrator, splitBySecond } from './slot-samples';
import { bucketStarts, parseStatsTime, parseStatsWindow } from './stats-window';

describe('splitBySecond', () => {
  it('cuts an interval at second boundaries, weighting by the value', () => {
    expect(splitBySecond(1_500, 3_250, 2)).toEqual([
      { second: 1, ms: 1000 },
      { second: 2, ms: 2000 },
      { second: 3, ms: 500 },
    ]);
    expect(splitBySecond(0, 5_000, 0)).toEqual([]);
  });
});

describe('job-slot samples in SQLite', () => {
  it('a slot busy 1.7 s of a 10 s bucket averages 0.17, its max is 1, and idle buckets have no rows', () => {
    const store = openSlotSamples(new Database(':memory:'));
    const i = new SlotIntegrator(1_000_000);
    i.set(1_000_500, 1, 1); // one job starts, one Assembly waits
    i.set(1_001_000, 1, 0);
    i.set(1_002_200, 0, 0);
    // Many changes in one second make one row per second.
    store.add(i.take(1_003_000));
    store.add(i.take(1_004_000)); // nothing new: nothing added
    const max = store.buckets({ sinceS: 990, untilS: 1010, granularityS: 10, aggregation: 'max' });
    expect(max).toEqual([{ fromS: 1000, inUse: 1, queued: 1 }]);
    const avg = store.buckets({ sinceS: 990, untilS: 1010, granularityS: 10, aggregation: 'avg' });
    expect(avg).toHaveLength(1);
    expect(avg[0]!.inUse).toBeCloseTo(0.17, 5);
    expect(avg[0]!.queued).toBeCloseTo(0.05, 5);
  });

  it('averages a last, shorter bucket over its own length', () => {
    const store = openSlotSamples(new Database(':memory:'));
    const i = new SlotIntegrator(1_000_000);
    i.set(1_000_000, 2, 0);
    store.add(i.take(1_005_000));
    // [1000, 1010) then [1010, 1015): the second bucket is 5 s long, busy 0 s.
    const avg = store.buckets({ sinceS: 1000, untilS: 1005, granularityS: 10, aggregation: 'avg' });
    expect(avg).toEqual([{ fromS: 1000, inUse: 2, queued: 0 }]);
  });
});

describe('stats window', () => {
  it('reads Unix seconds and "YYYY-MM-DD HH:mm:ss" UTC, refusing impossible dates', () => {
    expect(parseStatsTime('1700000000')).toBe(1_700_000_000);
    expect(parseStatsTime(1_700_000_000)).toBe(1_700_000_000);
    expect(parseStatsTime('2026-01-02 03:04:05')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5) / 1000);
    expect(parseStatsTime('2026-02-30 00:00:00')).toBeNull();
    expect(parseStatsTime('2026-01-02T03:04:05Z')).toBeNull();
    expect(parseStatsTime(-5)).toBeNull();
  });

  it('defaults until to now and granularity to an hour; includes every bucket', () => {
    const w = parseStatsWindow({ since: 0, region: 'all' }, 7200);
    expect(w).toEqual({ sinceS: 0, untilS: 7200, granularityS: 3600, ourRegion: true });
    expect(bucketStarts(w as never)).toEqual([0, 3600]);
    expect(parseStatsWindow({ since: 0, region: 'us-east-1' }, 7200)).toMatchObject({ ourRegion: false });
    expect(parseStatsWindow({ since: 0 }, 7200)).toMatchObject({ kind: 'region' });
  });
});
