import type { UsageBucket } from '../usage/usage-store';
import type { StatsParams } from './stats-params';

const megabits = (bytes: number): number => (bytes * 8) / 1e6;
const ratio = (a: number, b: number): number => (b > 0 ? a / b : 0);

/** One `stats` element (spec "Assembly statistics") from a bucket's sums; zeros for an empty bucket. Pure. */
export function statsElement(dataFromTs: number, b: UsageBucket | undefined): Record<string, number> {
  const n = b?.assemblies ?? 0;
  const z = (v: number | undefined | null): number => v ?? 0;
  return {
    data_from_ts: dataFromTs,
    num_assemblies: n,
    num_bytes: z(b?.processedBytes),
    num_cancelled_assemblies: z(b?.cancelled),
    num_erroneous_assemblies: z(b?.erroneous),
    num_files: z(b?.filesUploaded),
    num_request_aborted_assemblies: z(b?.requestAborted),
    num_successful_assemblies: z(b?.successful),
    avg_execution_duration: ratio(z(b?.executionS), n),
    avg_live_queue_duration: ratio(z(b?.queueS), n),
    avg_upload_duration: ratio(z(b?.uploadS), n),
    avg_input_file_sizes: ratio(z(b?.bytesUploaded), z(b?.filesUploaded)),
    avg_output_file_sizes: ratio(z(b?.outputBytes), z(b?.outputFiles)),
    avg_processing_speed: ratio(megabits(z(b?.timedProcessedBytes)), z(b?.executionS)),
    avg_upload_speed: ratio(megabits(z(b?.timedUploadBytes)), z(b?.uploadS)),
    total_bytes_usage: z(b?.bytesUploaded) + z(b?.processedBytes),
    total_execution_duration: z(b?.executionS),
    total_live_queue_duration: z(b?.queueS),
    total_num_output_files: z(b?.outputFiles),
    total_num_uploaded_bytes: z(b?.bytesUploaded),
    total_output_file_sizes: z(b?.outputBytes),
    total_upload_duration: z(b?.uploadS),
  };
}

/**
 * `ASSEMBLY_STATS_FOUND` from the per-bucket sums SQL made (one row per non-empty bucket, never one per
 * Assembly): every bucket of [since, until) is present, empty ones as zeros. Pure.
 */
export function assemblyStats(p: StatsParams, buckets: readonly UsageBucket[], errors: readonly { k: number; error: string; n: number }[]): Record<string, unknown> {
  const count = Math.ceil((p.untilS - p.sinceS) / p.granularity);
  const byK = new Map(buckets.map((b) => [b.k, b]));
  const stats = Array.from({ length: count }, (_, k) => statsElement(p.sinceS + k * p.granularity, byK.get(k)));
  const errorTotals = new Map<string, number>();
  for (const e of errors) errorTotals.set(e.error, (errorTotals.get(e.error) ?? 0) + e.n);
  const sum = (key: keyof UsageBucket): number => buckets.reduce((n, b) => n + (b[key] ?? 0), 0);
  return {
    ok: 'ASSEMBLY_STATS_FOUND',
    granularity: p.granularity,
    stats,
    errorStats: errors.map((e) => ({ data_from_ts: p.sinceS + e.k * p.granularity, error: e.error, num_erroneous_assemblies: e.n })),
    errorStatsGranularity: p.granularity,
    errorStatsTotals: [...errorTotals]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([error, n]) => ({ error, num_erroneous_assemblies: n })),
    totalAssemblies: sum('assemblies'),
    totalBytesProcessed: sum('processedBytes'),
    totalBytesUploaded: sum('bytesUploaded'),
    totalExecutionDuration: sum('executionS'),
    totalFilesProcessed: sum('filesUploaded'),
    totalLiveQueueDuration: sum('queueS'),
    totalOutputBytesProcessed: sum('outputBytes'),
    totalOutputFilesProcessed: sum('outputFiles'),
    totalUploadDuration: sum('uploadS'),
    totalUsage: sum('bytesUploaded') + sum('processedBytes'),
  };
}
