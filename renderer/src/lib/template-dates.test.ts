import { describe, expect, it } from 'vitest';
import { formatServiceDate } from './template-dates';

describe('formatServiceDate', () => {
  it('reads both the UTC dates of Templates and the ISO dates of Auth Keys as the same instant', () => {
    const expected = new Date(Date.UTC(2026, 10, 24, 10, 5, 0)).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    expect(formatServiceDate('2026-11-24 10:05:00')).toBe(expected);
    expect(formatServiceDate('2026-11-24T10:05:00.000Z')).toBe(expected);
    expect(formatServiceDate('2026-11-24T11:05:00+01:00')).toBe(expected);
  });

  it('shows a dash for no date and an unreadable one as it came', () => {
    expect(formatServiceDate(null)).toBe('—');
    expect(formatServiceDate('someday')).toBe('someday');
  });
});
