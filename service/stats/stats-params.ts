import { ErrorCode } from '../../shared/api/codes';
import { parseListDate } from '../assemblies/list-assemblies';
import { apiError, type ApiError } from '../http/api-error';

export interface StatsParams {
  sinceS: number;
  untilS: number;
  /** null = `all`. */
  region: string | null;
  /** Seconds per bucket, after raising it so at most MAX_BUCKETS come back. */
  granularity: number;
}

export const DEFAULT_GRANULARITY_S = 3600;
export const MAX_BUCKETS = 1000;
/** 9999-12-31 23:59:59 UTC: later times (1e308, 2^53 + 2) are refused, not turned into float arithmetic. */
const MAX_TIME_S = 253_402_300_799;
const MAX_REGION_CHARS = 64;

/** Unix seconds (a number or digits) or `YYYY-MM-DD HH:mm:ss` UTC; null when absent, NaN when bad. */
export function parseStatsTime(v: unknown): number | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 && v <= MAX_TIME_S ? v : NaN;
  if (typeof v !== 'string') return NaN;
  if (/^\d{1,12}$/.test(v.trim())) return Number(v.trim()) <= MAX_TIME_S ? Number(v.trim()) : NaN;
  if (v.trim() === 'NOW()') return NaN;
  const ms = parseListDate(v);
  return ms === null || Number.isNaN(ms) || ms < 0 ? NaN : Math.floor(ms / 1000);
}

/**
 * The params of GET /assembly_stats (docs/local-service.md "Statistics"); an ApiError says which is
 * wrong with the spec's code. Pure.
 */
export function parseStatsParams(params: Record<string, unknown>, nowMs: number): StatsParams | ApiError {
  const since = parseStatsTime(params.since);
  if (since === null || Number.isNaN(since)) {
    return apiError(ErrorCode.assemblyStatsInvalidTime, `since must be Unix seconds or a UTC time as "YYYY-MM-DD HH:mm:ss" (got ${JSON.stringify(params.since ?? null)}).`, 400);
  }
  // Default: the end of the current second, so an Assembly made a moment ago is counted.
  const until = parseStatsTime(params.until) ?? Math.floor(nowMs / 1000) + 1;
  if (Number.isNaN(until)) {
    return apiError(ErrorCode.assemblyStatsInvalidTime, `until must be Unix seconds or a UTC time as "YYYY-MM-DD HH:mm:ss" (got ${JSON.stringify(params.until)}).`, 400);
  }
  if (until <= since) return apiError(ErrorCode.assemblyStatsInvalidTime, `until (${until}) must come after since (${since}).`, 400);
  const region = params.region;
  if (typeof region !== 'string' || region.trim() === '' || region.length > MAX_REGION_CHARS) {
    return apiError(ErrorCode.assemblyStatsMissingRegion, 'region is required: a region (this service\'s is "local") or "all".', 400);
  }
  const raw = params.granularity;
  const asked = raw === undefined || raw === null || raw === '' ? DEFAULT_GRANULARITY_S : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1 || asked > MAX_TIME_S) {
    return apiError(ErrorCode.assemblyStatsError, `granularity must be a whole number of seconds from 1 to ${MAX_TIME_S} (got ${JSON.stringify(raw)}).`, 400);
  }
  // At most MAX_BUCKETS buckets: the answer's `granularity` says what was used.
  const granularity = Math.max(asked, Math.ceil((until - since) / MAX_BUCKETS));
  return { sinceS: since, untilS: until, region: region === 'all' ? null : region, granularity };
}
