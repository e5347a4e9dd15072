import type { Bill, BillRobot } from '../../../../shared/ipc/account-models';

/** What the Usage screen computes from a bill (docs/account.md). Pure. */

/**
 * "1.25 GB" (GB = 1024³ bytes, as the bill counts). Below 1 GB three significant digits ("0.000423 GB"),
 * so the few megabytes of a local month still show as more than zero.
 */
export const formatGb = (gb: number): string => {
  if (!Number.isFinite(gb)) return '—';
  if (gb === 0) return '0 GB';
  // Intl, not toString: never "7.37e-7".
  if (Math.abs(gb) < 1) return `${gb.toLocaleString('en-US', { maximumSignificantDigits: 3 })} GB`;
  return `${gb.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} GB`;
};

/** The unit a per-day chart's axis reads best in (binary, like the bill's GB): GB, MB or KB. */
export function chartUnit(maxGb: number): { readonly label: 'GB' | 'MB' | 'KB'; readonly perGb: number } {
  if (maxGb >= 1) return { label: 'GB', perGb: 1 };
  if (maxGb >= 1 / 1024) return { label: 'MB', perGb: 1024 };
  return { label: 'KB', perGb: 1024 * 1024 };
}

/** Money as the bill gives it; with the currency when the deployment names one. */
export const formatMoney = (amount: number, currency: string | null): string => {
  const figure = amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return currency ? `${figure} ${currency}` : figure;
};

export const WARN_AT = 0.8;

export interface Allowance {
  /** What the bar measures against: the plan's included GB, else its limit; null when the plan has neither. */
  readonly ofGb: number | null;
  readonly label: string;
  /** used / of, 0..∞ (past 1 = over). */
  readonly fraction: number;
  readonly tone: 'success' | 'warning' | 'danger';
}

/** Used GB against the plan's included GB (or its limit): warning past 80 %, danger past 100 %. */
export function allowanceOf(bill: Pick<Bill, 'usedGb' | 'plan'>): Allowance {
  const plan = bill.plan;
  const [ofGb, label] = plan && plan.gbIncluded > 0 ? [plan.gbIncluded, 'included'] : plan?.gbLimit ? [plan.gbLimit, 'limit'] : [null, 'included'];
  const fraction = ofGb ? bill.usedGb / ofGb : 0;
  return { ofGb, label, fraction, tone: fraction > 1 ? 'danger' : fraction > WARN_AT ? 'warning' : 'success' };
}

/** A month with nothing used: no bytes billed, no robot with usage, no day with an Assembly. */
export const isEmptyBill = (bill: Bill): boolean =>
  bill.usedGb === 0 && bill.robots.every((r) => r.rawGb === 0 && r.gb === 0) && (bill.days ?? []).every((d) => d.gb === 0 && d.assemblies === 0);

export type RobotSortKey = 'robot' | 'rawGb' | 'factor' | 'gb';
export interface RobotSort {
  readonly key: RobotSortKey;
  readonly dir: 'asc' | 'desc';
}

/** The per-robot table in the chosen order (ties by robot name), a new array. */
export function sortRobots(robots: readonly BillRobot[], sort: RobotSort): BillRobot[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...robots].sort((a, b) => {
    const by = sort.key === 'robot' ? a.robot.localeCompare(b.robot) : a[sort.key] - b[sort.key];
    return by !== 0 ? by * sign : a.robot.localeCompare(b.robot);
  });
}

/** Clicking a column: the same one flips its direction; another starts descending (names ascending). */
export const nextSort = (current: RobotSort, key: RobotSortKey): RobotSort =>
  current.key === key ? { key, dir: current.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: key === 'robot' ? 'asc' : 'desc' };

/** The per-day chart's text alternative: total, busiest day, days with usage. */
export function daysCaption(days: NonNullable<Bill['days']>): string {
  const used = days.filter((d) => d.gb > 0 || d.assemblies > 0);
  if (used.length === 0) return 'No usage on any day of this month yet.';
  const busiest = used.reduce((a, b) => (b.gb > a.gb ? b : a));
  const total = days.reduce((s, d) => s + d.gb, 0);
  const assemblies = days.reduce((s, d) => s + d.assemblies, 0);
  return `${formatGb(total)} over ${used.length} of ${days.length} days (${assemblies.toLocaleString('en-US')} Assemblies); busiest ${busiest.date} with ${formatGb(busiest.gb)}.`;
}
