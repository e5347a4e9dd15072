import { describe, expect, it } from 'vitest';
import { canShift, isCurrentMonth, monthLabel, monthOf, shiftMonth } from './bill-month';

const NOW = Date.UTC(2026, 10, 25, 12); // 2026-11-25

describe('bill months', () => {
  it('starts at the current UTC month', () => {
    expect(monthOf(NOW)).toBe('2026-11');
    expect(monthOf(Date.UTC(2026, 11, 31, 23, 59))).toBe('2026-12');
  });

  it('steps back across a year and never into the future', () => {
    expect(shiftMonth('2026-01', -1, NOW)).toBe('2025-12');
    expect(shiftMonth('2026-10', 1, NOW)).toBe('2026-11');
    expect(shiftMonth('2026-11', 1, NOW)).toBe('2026-11');
    expect(canShift('2026-11', 1, NOW)).toBe(false);
    expect(canShift('2026-11', -1, NOW)).toBe(true);
    expect(isCurrentMonth('2026-11', NOW)).toBe(true);
  });

  it('stops at January 2000', () => {
    expect(shiftMonth('2000-01', -1, NOW)).toBe('2000-01');
    expect(shiftMonth('2000-03', -12, NOW)).toBe('2000-01');
    expect(canShift('2000-01', -1, NOW)).toBe(false);
  });

  it('names the month for people', () => {
    expect(monthLabel('2026-11')).toBe('November 2026');
  });
});
