// The time window of a statistics request (`since`, `until`, `region`, `granularity`), as the issue-14
// decision fixes it for GET /assembly_stats and GET /priority_job_slot_stats alike. Pure.

/** The local service's region: the `region` of its list items (assemblies/assembly-summary.ts). */
export const LOCAL_REGION = 'local';

export const DEFAULT_GRANULARITY_S = 3600;
export const MAX_BUCKETS = 1000;

export interface StatsWindow {
  sinceS: number;
  untilS: number;
  /** Seconds per bucket, raised so that at most MAX_BUCKETS come back. */
  granularityS: number;
  /** false: a region other than ours (its buckets are empty). */
  ourRegion: boolean;
}

export type WindowProblem = { kind: 'time' | 'region' | 'granularity'; message: string };

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Unix seconds, or `YYYY-MM-DD HH:mm:ss` in UTC; null when it is neither (or not a real date). */
export function parseStatsTime(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d{1,12}$/.test(text)) return Number(text);
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // 2026-02-31 would roll over to March: refuse it rather than guess.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return ms / 1000;
}

export function parseStatsWindow(params: Record<string, unknown>, nowS: number): StatsWindow | WindowProblem {
  if (params.since === undefined || params.since === null || params.since === '') {
    return { kind: 'time', message: '`since` is required: Unix seconds or "YYYY-MM-DD HH:mm:ss" (UTC).' };
  }
  const sinceS = parseStatsTime(params.since);
  if (sinceS === null) return { kind: 'time', message: `\`since\` must be Unix seconds or "YYYY-MM-DD HH:mm:ss" (UTC); got ${JSON.stringify(params.since)}.` };
  const untilS = params.until === undefined || params.until === null || params.until === '' ? nowS : parseStatsTime(params.until);
  if (untilS === null) return { kind: 'time', message: `\`until\` must be Unix seconds or "YYYY-MM-DD HH:mm:ss" (UTC); got ${JSON.stringify(params.until)}.` };
  if (untilS <= sinceS) return { kind: 'time', message: '`until` must be later than `since`.' };
  const region = params.region;
  if (typeof region !== 'string' || region.trim() === '') {
    return { kind: 'region', message: `A \`region\` is required: "${LOCAL_REGION}" (this service's region) or "all".` };
  }
  let granularityS = DEFAULT_GRANULARITY_S;
  if (params.granularity !== undefined && params.granularity !== null && params.granularity !== '') {
    const g = Number(params.granularity);
    if (!Number.isInteger(g) || g < 1) return { kind: 'granularity', message: `\`granularity\` must be a whole number of seconds ≥ 1; got ${JSON.stringify(params.granularity)}.` };
    granularityS = g;
  }
  granularityS = Math.max(granularityS, Math.ceil((untilS - sinceS) / MAX_BUCKETS));
  return { sinceS, untilS, granularityS, ourRegion: region === 'all' || region === LOCAL_REGION };
}

/** Start times of every bucket of the window, empty ones included (so charts have no gaps). */
export function bucketStarts(w: Pick<StatsWindow, 'sinceS' | 'untilS' | 'granularityS'>): number[] {
  const out: number[] = [];
  for (let t = w.sinceS; t < w.untilS; t += w.granularityS) out.push(t);
  return out;
}
