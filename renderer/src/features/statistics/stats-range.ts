import type { Stats, StatsBucket } from '../../../../shared/ipc/account-models';
import { formatBytes, formatDuration } from '../../lib/format';

/**
 * The Statistics screen's range: last 24 hours by the hour, last 7 or 30 days by the day, or custom days
 * (by the hour up to two days, else by the day). Days are the user's local days. Pure.
 */

export type RangeChoice =
  | { readonly kind: '24h' | '7d' | '30d' }
  | { readonly kind: 'custom'; readonly from: string; readonly to: string };

export interface StatsRange {
  /** Unix seconds. */
  readonly since: number;
  readonly until: number;
  readonly granularity: number;
}

export const HOUR = 3600;
export const DAY = 86_400;

const seconds = (ms: number): number => Math.floor(ms / 1000);
const localMidnight = (ms: number, daysBack = 0): number => {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - daysBack);
  return d.getTime();
};
const parseDay = (day: string): number | null => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.getFullYear() === Number(m[1]) && d.getMonth() === Number(m[2]) - 1 && d.getDate() === Number(m[3]) ? d.getTime() : null;
};

/** `YYYY-MM-DD` of a local day. */
export const dayOf = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The range to ask for, or why a custom one cannot be asked. `nowMs` is taken once per choice (a stable query). */
export function rangeOf(choice: RangeChoice, nowMs: number): { ok: true; range: StatsRange } | { ok: false; reason: string } {
  // The end of the current second: an Assembly that ended a moment ago is counted ([since, until)).
  const until = seconds(nowMs) + 1;
  switch (choice.kind) {
    case '24h': {
      const hourStart = Math.floor(until / HOUR) * HOUR;
      return { ok: true, range: { since: hourStart - 23 * HOUR, until, granularity: HOUR } };
    }
    case '7d':
      return { ok: true, range: { since: seconds(localMidnight(nowMs, 6)), until, granularity: DAY } };
    case '30d':
      return { ok: true, range: { since: seconds(localMidnight(nowMs, 29)), until, granularity: DAY } };
    case 'custom': {
      const from = parseDay(choice.from);
      const to = parseDay(choice.to);
      if (from === null || to === null) return { ok: false, reason: 'Pick both days.' };
      if (to < from) return { ok: false, reason: 'The last day is before the first.' };
      if (from > nowMs) return { ok: false, reason: 'The first day is in the future.' };
      const end = Math.min(seconds(localMidnight(to, -1)), until);
      const since = seconds(from);
      return { ok: true, range: { since, until: end, granularity: end - since <= 2 * DAY ? HOUR : DAY } };
    }
  }
}

const hourFormat = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

/** A bucket's label on the axis: "14:00" (with the day when the range spans days) or "Nov 25". */
export function bucketLabel(fromS: number, granularity: number, spansDays: boolean): string {
  const date = new Date(fromS * 1000);
  if (granularity >= DAY) return dayFormat.format(date);
  return spansDays ? `${dayFormat.format(date)} ${hourFormat.format(date)}` : hourFormat.format(date);
}

const sum = (buckets: readonly StatsBucket[], pick: (b: StatsBucket) => number): number => buckets.reduce((s, b) => s + pick(b), 0);
const fmt = (n: number): string => n.toLocaleString('en-US');

export const OUTCOMES = [
  { key: 'successful', label: 'Successful' },
  { key: 'canceled', label: 'Canceled' },
  { key: 'erroneous', label: 'Erroneous' },
  { key: 'requestAborted', label: 'Request aborted' },
] as const;

/** Text alternatives of the charts: the key figures a sighted user reads off them. */
export function statsCaptions(stats: Stats, label: (b: StatsBucket) => string) {
  const busiest = stats.buckets.reduce<StatsBucket | null>((a, b) => (b.assemblies > (a?.assemblies ?? 0) ? b : a), null);
  const outcomes = OUTCOMES.map((o) => `${fmt(sum(stats.buckets, (b) => b[o.key]))} ${o.label.toLowerCase()}`).join(', ');
  const n = stats.totals.assemblies;
  const avg = (total: number): string => (n > 0 ? formatDuration(total / n) : '—');
  return {
    assemblies:
      n === 0 && !busiest
        ? 'No Assemblies in this range.'
        : `${fmt(sum(stats.buckets, (b) => b.assemblies))} Assemblies: ${outcomes}.${busiest ? ` Busiest: ${label(busiest)} with ${fmt(busiest.assemblies)}.` : ''}`,
    bytes: `${formatBytes(sum(stats.buckets, (b) => b.bytesIn))} uploaded, ${formatBytes(sum(stats.buckets, (b) => b.bytesOut))} of results.`,
    durations: `On average per Assembly: upload ${avg(stats.totals.uploadS)}, queue ${avg(stats.totals.queueS)}, execution ${avg(stats.totals.executionS)}.`,
    errors: stats.errors.length === 0 ? 'No errors in this range.' : `${stats.errors.length} ${stats.errors.length === 1 ? 'kind' : 'kinds'} of error; most often ${stats.errors[0]!.error} (${fmt(stats.errors[0]!.count)}).`,
  };
}
