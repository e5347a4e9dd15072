import { z } from 'zod';

/**
 * The wire records of `GET /bill/{YYYY-MM}` (`BILL_FOUND`, service-facts.md §7) and `GET /assembly_stats`
 * (`ASSEMBLY_STATS_FOUND`, spec "Assembly statistics"), parsed leniently: a remote deployment may add
 * fields (kept, loose objects), send a number as a numeric string, or leave a figure out (0 / null).
 * Only a record with none of the expected shape is refused.
 */

/** A number, or a numeric string (some deployments send money as `"12.50"`); anything else → the fallback. */
const num = (fallback = 0) =>
  z.preprocess((v) => {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    return fallback;
  }, z.number());

const numOrNull = z.preprocess((v) => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}, z.number().nullable());

/** `invoice_id`: null for the current month; an id (string or number) once invoiced. */
const invoiceId = z.preprocess((v) => (v === undefined || v === '' ? null : typeof v === 'number' ? String(v) : v), z.string().nullable().catch(null));

export const billPlanRecordSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).nullable().optional().catch(null),
  title: z.string().nullable().optional().catch(null),
  price_per_month: num(),
  gb_included: num(),
  price_per_gb: num(),
  gb_limit: numOrNull.optional(),
  has_lifetime_limit: z.union([z.boolean(), z.number()]).optional().catch(false),
});

export const billRobotRecordSchema = z.looseObject({
  rawGb: num(),
  gb: num(),
  freeGb: num(),
  gbFactorApplied: z.union([z.boolean(), z.number()]).optional().catch(false),
  factor: num(1),
});

/** Our extension for the Usage chart (issue 14): one entry per day of the month up to today. */
export const billDayRecordSchema = z.looseObject({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  gb: num(),
  assemblies: num(),
});

export const billRecordSchema = z.looseObject({
  ok: z.literal('BILL_FOUND'),
  invoice_id: invoiceId.optional(),
  month: z.string().optional(),
  plan: billPlanRecordSchema.nullable().optional().catch(null),
  used_gb: num(),
  additional_gb: num(),
  additional_gb_fee: num(),
  robots: z.record(z.string(), billRobotRecordSchema.catch({ rawGb: 0, gb: 0, freeGb: 0, gbFactorApplied: false, factor: 1 })).optional().catch({}),
  sub_total: num(),
  vat: num(),
  total: num(),
  currency: z.string().optional().catch(undefined),
  days: z.array(billDayRecordSchema).optional().catch(undefined),
});
export type BillRecord = z.infer<typeof billRecordSchema>;

export const statsBucketRecordSchema = z.looseObject({
  data_from_ts: num(),
  num_assemblies: num(),
  num_successful_assemblies: num(),
  num_cancelled_assemblies: num(),
  num_erroneous_assemblies: num(),
  num_request_aborted_assemblies: num(),
  num_files: num(),
  num_bytes: num(),
  avg_upload_duration: num(),
  avg_live_queue_duration: num(),
  avg_execution_duration: num(),
  total_num_uploaded_bytes: num(),
  total_output_file_sizes: num(),
  total_num_output_files: num(),
});

export const statsRecordSchema = z.looseObject({
  ok: z.literal('ASSEMBLY_STATS_FOUND'),
  granularity: num(3600),
  stats: z.array(statsBucketRecordSchema),
  errorStatsTotals: z
    .array(z.looseObject({ error: z.string(), num_erroneous_assemblies: num() }))
    .optional()
    .catch([]),
  totalAssemblies: num(),
  totalBytesProcessed: num(),
  totalBytesUploaded: num(),
  totalExecutionDuration: num(),
  totalFilesProcessed: num(),
  totalLiveQueueDuration: num(),
  totalOutputBytesProcessed: num(),
  totalOutputFilesProcessed: num(),
  totalUploadDuration: num(),
  totalUsage: num(),
});
export type StatsRecord = z.infer<typeof statsRecordSchema>;

/** `YYYY-MM` of a month the API can bill: 2000-01 onwards (the service answers BILL_INVALID_DATE otherwise). */
export const BILL_MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;
export const isBillMonth = (month: string): boolean => {
  const m = BILL_MONTH_PATTERN.exec(month);
  return m !== null && Number(m[1]) >= 2000;
};

/** GB as the bill counts them: 1024³ bytes. */
export const BYTES_PER_GB = 1024 ** 3;
