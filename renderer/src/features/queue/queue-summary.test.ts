import { describe, expect, it } from 'vitest';
import { chartCaption, secondsSince, slotsInUseText, stepPoints } from './queue-summary';

describe('queue summary', () => {
  it('says slots in use against the total when the service gives it', () => {
    expect(slotsInUseText({ inUse: 1, total: 4 })).toBe('1 of 4 slots in use');
    expect(slotsInUseText({ inUse: 0, total: 1 })).toBe('0 of 1 slot in use');
    expect(slotsInUseText({ inUse: 3, total: null })).toBe('3 slots in use');
  });

  it('counts seconds since a start, never below zero', () => {
    expect(secondsSince('2026-01-01T00:00:00.000Z', Date.UTC(2026, 0, 1, 0, 0, 12))).toBe(12);
    expect(secondsSince('2026-01-01T00:00:10.000Z', Date.UTC(2026, 0, 1, 0, 0, 5))).toBe(0);
  });

  it('draws the last bucket as wide as the others', () => {
    expect(stepPoints({ granularity: 60, points: [{ at: 0, inUse: 0, queued: 0 }, { at: 60, inUse: 2, queued: 1 }] }).at(-1)).toEqual({ at: 120, inUse: 2, queued: 1 });
    expect(stepPoints({ granularity: 60, points: [] })).toEqual([]);
  });

  it('captions the chart with its key figures', () => {
    const at = Date.UTC(2026, 0, 1, 10, 0) / 1000;
    const caption = chartCaption(
      { granularity: 60, aggregation: 'max', total: 2, points: [{ at, inUse: 0, queued: 0 }, { at: at + 60, inUse: 2, queued: 1 }, { at: at + 120, inUse: 1, queued: 0 }] },
      'hour',
    );
    expect(caption).toMatch(/^In the last hour \(peak per 1 min\): at most 2 of 2 slots in use \(at .+\); slots were busy in 2 of 3 intervals; up to 1 Assemblies waited for a slot\.$/);
    expect(chartCaption({ granularity: 900, aggregation: 'avg', total: 2, points: [{ at, inUse: 0, queued: 0 }] }, 'day')).toBe('No job slots were in use in the last day.');
  });
});
