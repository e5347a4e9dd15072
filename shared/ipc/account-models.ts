import { z } from 'zod';
import { isBillMonth } from '../api/account-records';

/** The Usage and Statistics screens' records (docs/account.md): the service's bill and statistics, in camelCase. */

export const billMonthSchema = z.string().refine(isBillMonth, 'A month as YYYY-MM, 2000-01 or later.');

export const billPlanSchema = z.object({
  name: z.string().nullable(),
  pricePerMonth: z.number(),
  gbIncluded: z.number(),
  pricePerGb: z.number(),
  gbLimit: z.number().nullable(),
  hasLifetimeLimit: z.boolean(),
});

export const billRobotSchema = z.object({
  /** `/image/resize`, … and `/assemblies` for upload bytes. */
  robot: z.string(),
  rawGb: z.number(),
  gb: z.number(),
  freeGb: z.number(),
  factor: z.number(),
  factorApplied: z.boolean(),
});

export const billDaySchema = z.object({ date: z.string(), gb: z.number(), assemblies: z.number() });

export const billSchema = z.object({
  month: z.string(),
  /** null: the current month, not invoiced yet. */
  invoiceId: z.string().nullable(),
  plan: billPlanSchema.nullable(),
  usedGb: z.number(),
  additionalGb: z.number(),
  additionalGbFee: z.number(),
  subTotal: z.number(),
  /** VAT on the subtotal (0 where none applies). */
  vat: z.number(),
  total: z.number(),
  currency: z.string().nullable(),
  robots: z.array(billRobotSchema),
  /** Usage per day (our service's extension); null when the deployment does not send it. */
  days: z.array(billDaySchema).nullable(),
});
export type Bill = z.infer<typeof billSchema>;
export type BillRobot = z.infer<typeof billRobotSchema>;
export type BillDay = z.infer<typeof billDaySchema>;

/** `workspace`: the region the workspace's Assemblies run in (core finds it); `all`; or a region name. */
export const statsRegionSchema = z.string().min(1).max(100);

export const statsRequestSchema = z.object({
  workspaceId: z.string().optional(),
  /** Unix seconds. */
  since: z.number().int().nonnegative(),
  until: z.number().int().nonnegative(),
  region: statsRegionSchema,
  /** Seconds per bucket; the service may raise it (at most 1,000 buckets) and says so in the answer. */
  granularity: z.number().int().positive().optional(),
});
export type StatsRequest = z.input<typeof statsRequestSchema>;

export const statsBucketSchema = z.object({
  /** Bucket start, Unix seconds. */
  from: z.number(),
  assemblies: z.number(),
  successful: z.number(),
  canceled: z.number(),
  erroneous: z.number(),
  requestAborted: z.number(),
  files: z.number(),
  /** Bytes uploaded into the bucket's Assemblies. */
  bytesIn: z.number(),
  /** Bytes of their results. */
  bytesOut: z.number(),
  avgUploadS: z.number(),
  avgQueueS: z.number(),
  avgExecutionS: z.number(),
});
export type StatsBucket = z.infer<typeof statsBucketSchema>;

export const statsSchema = z.object({
  /** The region asked for (the workspace's resolved), or `all`. */
  region: z.string(),
  since: z.number(),
  until: z.number(),
  /** Seconds per bucket, as the service answered. */
  granularity: z.number(),
  buckets: z.array(statsBucketSchema),
  /** errorStatsTotals, most frequent first. */
  errors: z.array(z.object({ error: z.string(), count: z.number() })),
  totals: z.object({
    assemblies: z.number(),
    filesProcessed: z.number(),
    outputFiles: z.number(),
    bytesUploaded: z.number(),
    bytesProcessed: z.number(),
    outputBytes: z.number(),
    uploadS: z.number(),
    queueS: z.number(),
    executionS: z.number(),
    usage: z.number(),
  }),
});
export type Stats = z.infer<typeof statsSchema>;
