import { describe, expect, it } from 'vitest';
import { dayBound } from './template-dates';
import { formatDateTime } from '../../lib/date-time';

describe('Template dates', () => {
  it('reads both the UTC dates of Templates and the ISO dates of Auth Keys as the same instant, in the one app format', () => {
    const expected = formatDateTime(new Date(Date.UTC(2026, 10, 24, 10, 5, 0)));
    expect(formatDateTime('2026-11-24 10:05:00')).toBe(expected);
    expect(formatDateTime('2026-11-24T10:05:00.000Z')).toBe(expected);
    expect(formatDateTime('2026-11-24T11:05:00+01:00')).toBe(expected);
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('someday')).toBe('someday');
  });

  it('turns a picked day into whole-day bounds of the list', () => {
    expect(dayBound('2026-11-24', 'from')).toBe('2026-11-24 00:00:00');
    expect(dayBound('2026-11-24', 'to')).toBe('2026-11-24 23:59:59');
    expect(dayBound('24.11.2026', 'to')).toBeUndefined();
  });
});
