import { describe, expect, it } from 'vitest';
import type { Bill } from '../../../../shared/ipc/account-models';
import { allowanceOf, chartUnit, daysCaption, formatGb, formatMoney, isEmptyBill, nextSort, sortRobots } from './bill-figures';

const plan = { name: 'free', pricePerMonth: 0, gbIncluded: 10, pricePerGb: 0, gbLimit: null, hasLifetimeLimit: false };
const bill = (over: Partial<Bill> = {}): Bill => ({
  month: '2026-11',
  invoiceId: null,
  plan,
  usedGb: 0,
  additionalGb: 0,
  additionalGbFee: 0,
  subTotal: 0,
  vat: 0,
  total: 0,
  currency: null,
  robots: [],
  days: [],
  ...over,
});

describe('allowanceOf', () => {
  it('turns to warning past 80 % of the included GB and to danger past 100 %', () => {
    expect(allowanceOf(bill({ usedGb: 8 }))).toMatchObject({ ofGb: 10, fraction: 0.8, tone: 'success' });
    expect(allowanceOf(bill({ usedGb: 8.01 })).tone).toBe('warning');
    expect(allowanceOf(bill({ usedGb: 12 })).tone).toBe('danger');
  });

  it('measures against the limit when nothing is included, and against nothing without a plan', () => {
    expect(allowanceOf(bill({ usedGb: 5, plan: { ...plan, gbIncluded: 0, gbLimit: 20 } }))).toMatchObject({ ofGb: 20, label: 'limit', fraction: 0.25 });
    expect(allowanceOf(bill({ usedGb: 5, plan: null }))).toMatchObject({ ofGb: null, fraction: 0, tone: 'success' });
  });
});

describe('isEmptyBill', () => {
  it('is empty only when nothing at all was used', () => {
    expect(isEmptyBill(bill({ robots: [{ robot: '/assemblies', rawGb: 0, gb: 0, freeGb: 0, factor: 1, factorApplied: false }], days: [{ date: '2026-11-01', gb: 0, assemblies: 0 }] }))).toBe(true);
    expect(isEmptyBill(bill({ days: [{ date: '2026-11-01', gb: 0, assemblies: 1 }] }))).toBe(false);
    expect(isEmptyBill(bill({ usedGb: 0.001 }))).toBe(false);
  });
});

describe('sortRobots', () => {
  const robots = [
    { robot: '/image/resize', rawGb: 1, gb: 1, freeGb: 0, factor: 1, factorApplied: false },
    { robot: '/assemblies', rawGb: 3, gb: 3, freeGb: 0, factor: 1, factorApplied: false },
    { robot: '/video/encode', rawGb: 1, gb: 2, freeGb: 0, factor: 2, factorApplied: true },
  ];
  it('sorts by any column, ties by name', () => {
    expect(sortRobots(robots, { key: 'gb', dir: 'desc' }).map((r) => r.robot)).toEqual(['/assemblies', '/video/encode', '/image/resize']);
    expect(sortRobots(robots, { key: 'rawGb', dir: 'asc' }).map((r) => r.robot)).toEqual(['/image/resize', '/video/encode', '/assemblies']);
    expect(sortRobots(robots, { key: 'robot', dir: 'asc' }).map((r) => r.robot)).toEqual(['/assemblies', '/image/resize', '/video/encode']);
  });
  it('flips the direction of the same column; a new one starts descending', () => {
    expect(nextSort({ key: 'gb', dir: 'desc' }, 'gb')).toEqual({ key: 'gb', dir: 'asc' });
    expect(nextSort({ key: 'gb', dir: 'asc' }, 'factor')).toEqual({ key: 'factor', dir: 'desc' });
    expect(nextSort({ key: 'gb', dir: 'asc' }, 'robot')).toEqual({ key: 'robot', dir: 'asc' });
  });
});

describe('formatting and captions', () => {
  it('picks the axis unit from the largest day', () => {
    expect(chartUnit(2).label).toBe('GB');
    expect(chartUnit(0.01)).toEqual({ label: 'MB', perGb: 1024 });
    expect(chartUnit(0.0000115)).toEqual({ label: 'KB', perGb: 1024 * 1024 });
  });
  it('shows GB and money readably', () => {
    expect(formatGb(0)).toBe('0 GB');
    expect(formatGb(0.0042)).toBe('0.0042 GB');
    expect(formatGb(0.000423456)).toBe('0.000423 GB');
    expect(formatGb(0.5)).toBe('0.5 GB');
    expect(formatGb(7.3712e-7)).toBe('0.000000737 GB');
    expect(formatGb(1234.5)).toBe('1,234.50 GB');
    expect(formatMoney(3.5, null)).toBe('3.50');
    expect(formatMoney(3.5, 'USD')).toBe('3.50 USD');
  });
  it('sums the month in the chart caption and names the busiest day', () => {
    expect(daysCaption([{ date: '2026-11-01', gb: 0, assemblies: 0 }])).toBe('No usage on any day of this month yet.');
    expect(
      daysCaption([
        { date: '2026-11-01', gb: 1, assemblies: 2 },
        { date: '2026-11-02', gb: 0, assemblies: 0 },
        { date: '2026-11-03', gb: 3, assemblies: 1 },
      ]),
    ).toBe('4.00 GB over 2 of 3 days (3 Assemblies); busiest 2026-11-03 with 3.00 GB.');
  });
});
