import { billRecordSchema, isBillMonth, statsRecordSchema, type BillRecord, type StatsRecord } from '../../../shared/api/account-records';
import type { Bill, Stats } from '../../../shared/ipc/account-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';

/**
 * The account's bill and Assembly statistics (docs/account.md), for any workspace: signed GETs with
 * `params` in the query (or a Bearer token holding `billing:read` / `assemblies:read`) through the
 * workspace's API client. Mapping is pure; the service's error codes pass through unchanged.
 */

const truthy = (v: unknown): boolean => v === true || v === 1;

/** `BILL_FOUND` → the Usage screen's bill. Robots sorted by billed GB, largest first. Pure. */
export function toBill(record: BillRecord, month: string): Bill {
  const plan = record.plan
    ? {
        name: record.plan.title ?? (record.plan.id === null || record.plan.id === undefined ? null : String(record.plan.id)),
        pricePerMonth: record.plan.price_per_month,
        gbIncluded: record.plan.gb_included,
        pricePerGb: record.plan.price_per_gb,
        gbLimit: record.plan.gb_limit ?? null,
        hasLifetimeLimit: truthy(record.plan.has_lifetime_limit),
      }
    : null;
  const robots = Object.entries(record.robots ?? {})
    .map(([robot, r]) => ({ robot, rawGb: r.rawGb, gb: r.gb, freeGb: r.freeGb, factor: r.factor, factorApplied: truthy(r.gbFactorApplied) }))
    .sort((a, b) => b.gb - a.gb || a.robot.localeCompare(b.robot));
  return {
    month: typeof record.month === 'string' && isBillMonth(record.month) ? record.month : month,
    invoiceId: record.invoice_id ?? null,
    plan,
    usedGb: record.used_gb,
    additionalGb: record.additional_gb,
    additionalGbFee: record.additional_gb_fee,
    subTotal: record.sub_total,
    vat: record.vat,
    total: record.total,
    currency: record.currency ?? null,
    robots,
    days: record.days ? record.days.map((d) => ({ date: d.date, gb: d.gb, assemblies: d.assemblies })).sort((a, b) => a.date.localeCompare(b.date)) : null,
  };
}

/** `ASSEMBLY_STATS_FOUND` → the Statistics screen's buckets, error list (most first) and totals. Pure. */
export function toStats(record: StatsRecord, asked: { region: string; since: number; until: number }): Stats {
  const buckets = record.stats
    .map((b) => ({
      from: b.data_from_ts,
      assemblies: b.num_assemblies,
      successful: b.num_successful_assemblies,
      canceled: b.num_cancelled_assemblies,
      erroneous: b.num_erroneous_assemblies,
      requestAborted: b.num_request_aborted_assemblies,
      files: b.num_files,
      bytesIn: b.total_num_uploaded_bytes,
      bytesOut: b.total_output_file_sizes,
      avgUploadS: b.avg_upload_duration,
      avgQueueS: b.avg_live_queue_duration,
      avgExecutionS: b.avg_execution_duration,
    }))
    .sort((a, b) => a.from - b.from);
  const errors = (record.errorStatsTotals ?? [])
    .map((e) => ({ error: e.error, count: e.num_erroneous_assemblies }))
    .filter((e) => e.count > 0)
    .sort((a, b) => b.count - a.count || a.error.localeCompare(b.error));
  return {
    region: asked.region,
    since: asked.since,
    until: asked.until,
    granularity: record.granularity,
    buckets,
    errors,
    totals: {
      assemblies: record.totalAssemblies,
      filesProcessed: record.totalFilesProcessed,
      outputFiles: record.totalOutputFilesProcessed,
      bytesUploaded: record.totalBytesUploaded,
      bytesProcessed: record.totalBytesProcessed,
      outputBytes: record.totalOutputBytesProcessed,
      uploadS: record.totalUploadDuration,
      queueS: record.totalLiveQueueDuration,
      executionS: record.totalExecutionDuration,
      usage: record.totalUsage,
    },
  };
}

const unreadable = (what: string, issue: string | undefined): Result<never> =>
  err(AppErrorCode.invalidResponse, `The service sent a ${what} the app cannot read${issue ? `: ${issue}` : ''}.`);

/** `GET /bill/{YYYY-MM}` (scope `billing:read`). */
export async function getBill(api: ApiClient, month: string): Promise<Result<Bill>> {
  const answer = await api.request('GET', `/bill/${month}`);
  if (!answer.ok) return answer;
  const parsed = billRecordSchema.safeParse(answer.value);
  if (!parsed.success) return unreadable('bill', parsed.error.issues[0]?.message);
  return ok(toBill(parsed.data, month));
}

/** The region this workspace's Assemblies run in: the newest Assembly's `region`; null when it has none yet. */
export async function workspaceRegion(api: ApiClient): Promise<Result<string | null>> {
  const answer = await api.request('GET', '/assemblies', { page: 1, pagesize: 1 });
  if (!answer.ok) return answer;
  const first: unknown = Array.isArray(answer.value.items) ? answer.value.items[0] : undefined;
  const region = typeof first === 'object' && first !== null ? (first as Record<string, unknown>).region : undefined;
  return ok(typeof region === 'string' && region !== '' ? region : null);
}

export interface StatsQuery {
  since: number;
  until: number;
  /** `workspace` (resolved here), `all`, or a region name. */
  region: string;
  granularity?: number;
}

/**
 * `GET /assembly_stats` (scope `assemblies:read`). `region: "workspace"` asks for the region of the
 * workspace's newest Assembly — and for `all` while it has none (nothing to count anyway).
 */
export async function getStats(api: ApiClient, query: StatsQuery): Promise<Result<Stats>> {
  if (query.until <= query.since) return err('ASSEMBLY_STATS_INVALID_TIME', 'The end of the range must be after its start.');
  let region = query.region;
  if (region === 'workspace') {
    const found = await workspaceRegion(api);
    if (!found.ok) return found;
    region = found.value ?? 'all';
  }
  const params: Record<string, unknown> = { since: query.since, until: query.until, region };
  if (query.granularity !== undefined) params.granularity = query.granularity;
  const answer = await api.request('GET', '/assembly_stats', params);
  if (!answer.ok) return answer;
  const parsed = statsRecordSchema.safeParse(answer.value);
  if (!parsed.success) return unreadable('statistics answer', parsed.error.issues[0]?.message);
  return ok(toStats(parsed.data, { region, since: query.since, until: query.until }));
}
