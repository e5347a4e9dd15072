import type { JobSlots, SlotStats, SlotStatsRange } from '../../../../shared/ipc/queue-models';
import { formatCount } from '../../lib/format';

/** "2 of 4 slots in use", or "2 slots in use" when the service does not say how many it has. Pure. */
export function slotsInUseText(s: Pick<JobSlots, 'inUse' | 'total'>): string {
  return s.total !== null ? `${s.inUse} of ${formatCount(s.total, 'slot')} in use` : `${formatCount(s.inUse, 'slot')} in use`;
}

/** Seconds from an ISO time to `nowMs`, never negative (clocks of core and page may differ slightly). Pure. */
export const secondsSince = (iso: string, nowMs: number): number => Math.max(0, (nowMs - Date.parse(iso)) / 1000);

const rangeText: Record<SlotStatsRange, string> = { hour: 'the last hour', day: 'the last day' };

const round = (v: number): string => (Number.isInteger(v) ? String(v) : v.toFixed(2));

/**
 * Points for a step chart: the last bucket repeated at its end, so it is drawn as wide as the others
 * (a step chart draws each value until the next point, and the last one has none). Pure.
 */
export function stepPoints(stats: Pick<SlotStats, 'points' | 'granularity'>): SlotStats['points'] {
  const last = stats.points.at(-1);
  return last ? [...stats.points, { ...last, at: last.at + stats.granularity }] : [];
}

/**
 * The chart's text alternative: its key figures in a sentence (the busiest bucket, how many waited, how
 * much of the range saw any use). Pure.
 */
export function chartCaption(stats: SlotStats, range: SlotStatsRange): string {
  const per = stats.granularity >= 3600 ? `${stats.granularity / 3600} h` : stats.granularity >= 60 ? `${stats.granularity / 60} min` : `${stats.granularity} s`;
  const how = stats.aggregation === 'max' ? 'peak' : 'average';
  if (stats.points.length === 0 || stats.points.every((p) => p.inUse === 0 && p.queued === 0)) {
    return `No job slots were in use in ${rangeText[range]}.`;
  }
  const busiest = stats.points.reduce((a, b) => (b.inUse > a.inUse ? b : a));
  const waited = Math.max(...stats.points.map((p) => p.queued));
  const busy = stats.points.filter((p) => p.inUse > 0).length;
  const at = new Date(busiest.at * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const of = stats.total !== null ? ` of ${stats.total}` : '';
  return (
    `In ${rangeText[range]} (${how} per ${per}): at most ${round(busiest.inUse)}${of} slots in use (at ${at}); ` +
    `slots were busy in ${busy} of ${stats.points.length} intervals; ` +
    (waited > 0 ? `up to ${round(waited)} Assemblies waited for a slot.` : 'no Assembly had to wait.')
  );
}
