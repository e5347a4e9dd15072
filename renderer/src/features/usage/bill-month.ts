/**
 * Months of the Usage screen's picker (`YYYY-MM`, UTC like the bill): stepping with ←/→ stops at the
 * current month (no bill for the future) and at 2000-01 (the first month the service bills). Pure.
 */

export const FIRST_BILL_MONTH = '2000-01';

export const monthOf = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 7);

const toIndex = (month: string): number => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const fromIndex = (index: number): string => `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;

/** `month` moved by `delta` months, kept within [2000-01, the current month]. */
export function shiftMonth(month: string, delta: number, nowMs: number): string {
  const last = toIndex(monthOf(nowMs));
  const next = Math.min(last, Math.max(toIndex(FIRST_BILL_MONTH), toIndex(month) + delta));
  return fromIndex(next);
}

export const canShift = (month: string, delta: number, nowMs: number): boolean => shiftMonth(month, delta, nowMs) !== month;

export const isCurrentMonth = (month: string, nowMs: number): boolean => month === monthOf(nowMs);

/** "November 2026". */
export const monthLabel = (month: string): string =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1)).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
