/** Human-readable numbers for a desktop UI. Decimal units (1 MB = 1,000,000 bytes), as macOS and most file managers show. */

import { formatBytes } from '../../../shared/byte-units';

export { formatBytes };

export const formatSpeed = (bytesPerSecond: number): string =>
  bytesPerSecond > 0 && Number.isFinite(bytesPerSecond) ? `${formatBytes(bytesPerSecond)}/s` : '—';

/** Short duration: "0.4 s", "42 s", "3 min 05 s", "2 h 07 min". */
export const formatDuration = (seconds: number): string => {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 10) return `${(Math.round(seconds * 10) / 10).toFixed(1)} s`;
  const total = Math.round(seconds);
  if (total < 60) return `${total} s`;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h === 0) return `${m} min ${String(s).padStart(2, '0')} s`;
  return `${h} h ${String(m).padStart(2, '0')} min`;
};

/** A media length as players show it: "0:07", "12:34", "1:02:03". */
export const formatPlayTime = (seconds: number): string => {
  const total = Number.isFinite(seconds) ? Math.max(0, Math.round(seconds)) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
};

/** Time left, rounded up so it never says "0 s left" while work remains. */
export const formatEta = (seconds: number | null): string => {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return 'Estimating…';
  if (seconds < 1) return 'Almost done';
  return `${formatDuration(Math.ceil(seconds))} left`;
};

export const percentOf = (done: number, total: number): number => {
  if (total <= 0) return done > 0 ? 100 : 0;
  return Math.max(0, Math.min(100, (done / total) * 100));
};

/** Whole percent, but never "100 %" before everything is done. */
export const formatPercent = (done: number, total: number): string => {
  const pct = percentOf(done, total);
  const shown = done < total ? Math.min(99, Math.floor(pct)) : Math.round(pct);
  return `${shown}%`;
};

// One formatter, made once: `toLocaleString` with a locale or options builds a new Intl formatter per
// call, and list rows call these for every row that scrolls into view (bench:activity-scale). Dates and
// times: lib/date-time.ts.
const counts = new Intl.NumberFormat('en-US');

export const formatCount = (n: number, singular: string, plural = `${singular}s`): string => `${counts.format(n)} ${n === 1 ? singular : plural}`;

