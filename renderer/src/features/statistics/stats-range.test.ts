import { describe, expect, it } from 'vitest';
import type { Stats } from '../../../../shared/ipc/account-models';
import { DAY, HOUR, bucketLabel, dayOf, rangeOf, statsCaptions } from './stats-range';

const NOW = new Date(2026, 10, 25, 14, 30, 15).getTime(); // local 2026-11-25 14:30:15
const nowS = Math.floor(NOW / 1000) + 1;
const midnight = (y: number, m: number, d: number) => Math.floor(new Date(y, m, d).getTime() / 1000);

describe('rangeOf', () => {
  it('last 24 hours: 24 hourly buckets ending now', () => {
    const r = rangeOf({ kind: '24h' }, NOW);
    expect(r).toEqual({ ok: true, range: { since: Math.floor((nowS - 1) / HOUR) * HOUR - 23 * HOUR, until: nowS, granularity: HOUR } });
  });

  it('last 7 / 30 days: by the day from local midnight', () => {
    expect(rangeOf({ kind: '7d' }, NOW)).toEqual({ ok: true, range: { since: midnight(2026, 10, 19), until: nowS, granularity: DAY } });
    expect(rangeOf({ kind: '30d' }, NOW)).toEqual({ ok: true, range: { since: midnight(2026, 9, 27), until: nowS, granularity: DAY } });
  });

  it('custom days: whole days, by the hour up to two days, never past now', () => {
    expect(rangeOf({ kind: 'custom', from: '2026-11-01', to: '2026-11-10' }, NOW)).toEqual({
      ok: true,
      range: { since: midnight(2026, 10, 1), until: midnight(2026, 10, 11), granularity: DAY },
    });
    expect(rangeOf({ kind: 'custom', from: '2026-11-24', to: '2026-11-25' }, NOW)).toEqual({ ok: true, range: { since: midnight(2026, 10, 24), until: nowS, granularity: HOUR } });
  });

  it('says why a custom range cannot be asked', () => {
    expect(rangeOf({ kind: 'custom', from: '2026-11-10', to: '2026-11-01' }, NOW)).toEqual({ ok: false, reason: 'The last day is before the first.' });
    expect(rangeOf({ kind: 'custom', from: '', to: '2026-11-01' }, NOW)).toEqual({ ok: false, reason: 'Pick both days.' });
    expect(rangeOf({ kind: 'custom', from: '2026-12-01', to: '2026-12-02' }, NOW)).toEqual({ ok: false, reason: 'The first day is in the future.' });
    expect(rangeOf({ kind: 'custom', from: '2026-02-30', to: '2026-03-01' }, NOW).ok).toBe(false);
  });

  it('names local days', () => {
    expect(dayOf(NOW)).toBe('2026-11-25');
  });
});

describe('labels and captions', () => {
  it('labels hours, hours across days, and days', () => {
    const at = midnight(2026, 10, 25) + 14 * HOUR;
    expect(bucketLabel(at, HOUR, false)).toBe('14:00');
    expect(bucketLabel(at, HOUR, true)).toBe('Nov 25 14:00');
    expect(bucketLabel(at, DAY, false)).toBe('Nov 25');
  });

  const bucket = (from: number, over: Partial<Stats['buckets'][number]> = {}) => ({
    from, assemblies: 0, successful: 0, canceled: 0, erroneous: 0, requestAborted: 0, files: 0, bytesIn: 0, bytesOut: 0, avgUploadS: 0, avgQueueS: 0, avgExecutionS: 0, ...over,
  });
  const stats: Stats = {
    region: 'local', since: 0, until: 7200, granularity: HOUR,
    buckets: [bucket(0, { assemblies: 3, successful: 2, erroneous: 1, bytesIn: 2_000_000, bytesOut: 500_000 }), bucket(3600, { assemblies: 1, canceled: 1 })],
    errors: [{ error: 'INVALID_INPUT_ERROR', count: 1 }],
    totals: { assemblies: 4, filesProcessed: 4, outputFiles: 2, bytesUploaded: 2_000_000, bytesProcessed: 0, outputBytes: 500_000, uploadS: 4, queueS: 2, executionS: 8, usage: 0 },
  };
  it('gives every chart its key figures in words', () => {
    const c = statsCaptions(stats, (b) => `bucket ${b.from}`);
    expect(c.assemblies).toBe('4 Assemblies: 2 successful, 1 canceled, 1 erroneous, 0 request aborted. Busiest: bucket 0 with 3.');
    expect(c.bytes).toBe('2.0 MB uploaded, 500 KB of results.');
    expect(c.durations).toBe('On average per Assembly: upload 1.0 s, queue 0.5 s, execution 2.0 s.');
    expect(c.errors).toBe('1 kind of error; most often INVALID_INPUT_ERROR (1).');
  });
});
