import { z } from 'zod';
import { appErrorSchema, fileHandleSchema } from './models';

/**
 * The transfer engine's records as the renderer sees them (see electron/core/transfers). Core holds the
 * queue, the draft selection and every file row; the page reads pages of rows and gets small deltas, so
 * nothing crossing the bridge grows with the size of a drop.
 */

/** Which files of a drop are left out before anything is sent. */
export const skipRulesSchema = z.object({
  /** Glob patterns on the relative path (`*.jpg`, `raw/**`, case-insensitive); empty = every file. */
  include: z.array(z.string().min(1).max(500)).max(100),
  /** Glob patterns on the relative path; a match is left out. */
  exclude: z.array(z.string().min(1).max(500)).max(100),
  /** Dotfiles and OS litter (.DS_Store, Thumbs.db, desktop.ini, ._*). */
  skipHidden: z.boolean(),
  minBytes: z.number().int().nonnegative().nullable(),
  maxBytes: z.number().int().nonnegative().nullable(),
  /** Leave out a file uploaded before from the same path with the same size and content hash. */
  skipUnchanged: z.boolean(),
});
export type SkipRules = z.infer<typeof skipRulesSchema>;

/** How a drop is split into Assemblies. */
export const batchModeSchema = z.enum(['per-drop', 'per-folder', 'every-n']);
export type BatchMode = z.infer<typeof batchModeSchema>;

export const transferSettingsSchema = z.object({
  /** Requests (files) in flight at once; the engine may run fewer while the service pushes back. */
  concurrency: z.number().int().min(1).max(32),
  /** Bytes per second across all uploads; 0 = no limit. Applies live. */
  bandwidthLimitBps: z.number().int().nonnegative(),
  batchMode: batchModeSchema,
  /** A new Assembly after this many files (every mode; never above the Assembly's max_number_of_files). */
  batchMaxFiles: z.number().int().min(1).max(100_000),
  /** …or after this many bytes. */
  batchMaxBytes: z.number().int().min(1),
  /** Files up to this size travel many to a multipart request; larger ones by tus. 0 = tus only. */
  multipartMaxFileBytes: z.number().int().nonnegative(),
  skip: skipRulesSchema,
});
export type TransferSettings = z.infer<typeof transferSettingsSchema>;

export const DEFAULT_TRANSFER_SETTINGS: TransferSettings = {
  concurrency: 4,
  bandwidthLimitBps: 0,
  batchMode: 'every-n',
  batchMaxFiles: 1_000,
  batchMaxBytes: 20 * 1024 ** 3,
  multipartMaxFileBytes: 4 * 1024 ** 2,
  skip: { include: [], exclude: [], skipHidden: true, minBytes: null, maxBytes: null, skipUnchanged: false },
};

/** One file of the draft (the Upload view's selection, held in core). */
export const draftRowSchema = z.object({
  id: z.string(),
  handle: fileHandleSchema,
  relativePath: z.string(),
  name: z.string(),
  size: z.number(),
  mime: z.string().nullable(),
  /** The skip rule that leaves it out of Start (`hidden`: dotfiles and OS litter; `pattern`; `size`), or null when it goes. */
  leftOut: z.enum(['hidden', 'pattern', 'size']).nullable(),
});
export type DraftRow = z.infer<typeof draftRowSchema>;

/** An item of a drop that is not in the draft, and why (unreadable, or a skip rule). */
export const draftSkipSchema = z.object({ relativePath: z.string(), reason: z.string() });
export type DraftSkip = z.infer<typeof draftSkipSchema>;

export const draftSummarySchema = z.object({
  /** Bumps on every change: the list refetches the rows it shows. */
  version: z.number().int(),
  /** True while a dropped folder is still being walked; counts grow meanwhile. */
  scanning: z.boolean(),
  files: z.number().int(),
  bytes: z.number(),
  /** Items that could not be read (permission, broken link, vanished), listed with their reason. */
  unreadable: z.number().int(),
  /** Files dropped again that were already in the draft. */
  duplicates: z.number().int(),
});
export type DraftSummary = z.infer<typeof draftSummarySchema>;

export const planWarningSchema = z.object({
  /** The service's error code this would otherwise end in (MAX_SIZE_EXCEEDED, MAX_NUMBER_OF_FILES_EXCEEDED…). */
  code: z.string(),
  message: z.string(),
  /** The setting or input the warning is about, e.g. `batchMaxFiles`, `template`, `files`. */
  field: z.string().nullable(),
});
export type PlanWarning = z.infer<typeof planWarningSchema>;

/** The pre-flight summary: what Start would do with the draft under the current settings. */
export const transferPlanSchema = z.object({
  files: z.number().int(),
  bytes: z.number(),
  /** Files the skip rules leave out, by rule. `unchanged` counts candidates (same path and size); their content is compared when their turn comes. */
  skipped: z.object({
    hidden: z.number().int(),
    pattern: z.number().int(),
    size: z.number().int(),
    unchanged: z.number().int(),
    unreadable: z.number().int(),
  }),
  assemblies: z.number().int(),
  /** The first batches (label, files, bytes); `assemblies` counts all of them. */
  batches: z.array(z.object({ label: z.string(), files: z.number().int(), bytes: z.number() })).max(200),
  multipartFiles: z.number().int(),
  tusFiles: z.number().int(),
  /** Limits the chosen instructions carry (a Template's auth.max_size / max_number_of_files). */
  limits: z.object({ maxSize: z.number().nullable(), maxNumberOfFiles: z.number().int().nullable() }),
  warnings: z.array(planWarningSchema),
});
export type TransferPlan = z.infer<typeof transferPlanSchema>;

export const transferFileStateSchema = z.enum([
  'queued',
  'uploading',
  'paused',
  /** Bytes delivered; the service's checksum not yet compared. */
  'uploaded',
  /** The service's md5hash equals the one computed while reading. */
  'verified',
  /** Delivered and its Assembly ended, but the service recorded no md5hash to compare with. */
  'unverified',
  'failed',
  'canceled',
  /** Left out when its turn came (unchanged since an earlier upload). */
  'skipped',
]);
export type TransferFileState = z.infer<typeof transferFileStateSchema>;

export const transferRowSchema = z.object({
  id: z.string(),
  transferId: z.string(),
  batchId: z.string().nullable(),
  relativePath: z.string(),
  size: z.number(),
  bytesSent: z.number(),
  state: transferFileStateSchema,
  method: z.enum(['tus', 'multipart']).nullable(),
  attempts: z.number().int(),
  /** Why it failed, in words a user can act on (with the service's code where there is one). */
  error: z.string().nullable(),
  /** What happened on the way, e.g. "Sent again: the service's checksum did not match". */
  note: z.string().nullable(),
});
export type TransferRow = z.infer<typeof transferRowSchema>;

export const batchStateSchema = z.enum(['queued', 'creating', 'uploading', 'paused', 'processing', 'completed', 'failed', 'canceled']);
export type BatchState = z.infer<typeof batchStateSchema>;

/** One Assembly of a transfer. */
export const transferBatchSchema = z.object({
  id: z.string(),
  transferId: z.string(),
  /** `photos/2024`, or `Files 1–1,000`. */
  label: z.string(),
  /** Its number in the transfer, from 1 ("Assembly 1"). */
  seq: z.number().int(),
  state: batchStateSchema,
  /** The run that follows its Assembly (Activity, the Assembly view), once created. */
  runId: z.string().nullable(),
  assemblyId: z.string().nullable(),
  filesTotal: z.number().int(),
  filesDone: z.number().int(),
  filesFailed: z.number().int(),
  bytesTotal: z.number(),
  bytesSent: z.number(),
  error: appErrorSchema.nullable(),
  /** Said once for the batch, e.g. "Not verified: this service records no checksums…" (its files are then `unverified`). */
  note: z.string().nullable(),
});
export type TransferBatch = z.infer<typeof transferBatchSchema>;

/** One drop the user started. */
export const transferSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  createdAt: z.string(),
  label: z.string(),
  /** Still taking files from a folder walk that has not finished. */
  scanning: z.boolean(),
  state: z.enum(['active', 'paused', 'done', 'canceled']),
  /** What it does: the preset's title, the Template's name or "Custom steps" (null for a drop queued by an older version). */
  recipe: z.string().nullable(),
  /** Its Assemblies (batches) so far. */
  batchCount: z.number().int(),
  filesTotal: z.number().int(),
  filesDone: z.number().int(),
  filesFailed: z.number().int(),
  bytesTotal: z.number(),
  bytesSent: z.number(),
});
export type Transfer = z.infer<typeof transferSchema>;

/**
 * The figures of the work under way: the drops started since the queue was last idle, and any drop not
 * finished. Finished drops of earlier stay in the list (and its filter counts) but not in these.
 */
export const currentWorkSchema = z.object({
  transfers: z.number().int(),
  filesTotal: z.number().int(),
  filesDone: z.number().int(),
  filesFailed: z.number().int(),
  filesCanceled: z.number().int(),
  filesSkipped: z.number().int(),
  /** Files whose bytes have all left (in a request still on the wire, or delivered), done ones included. */
  filesSent: z.number().int(),
  /** Files queued or on their way (what keeps the work from being over). */
  filesLeft: z.number().int(),
  bytesTotal: z.number(),
  bytesSent: z.number(),
});
export type CurrentWork = z.infer<typeof currentWorkSchema>;

export const transferTotalsSchema = z.object({
  filesTotal: z.number().int(),
  filesQueued: z.number().int(),
  filesActive: z.number().int(),
  filesDone: z.number().int(),
  filesFailed: z.number().int(),
  filesCanceled: z.number().int(),
  filesSkipped: z.number().int(),
  /** Bytes of the files not canceled, and how many of them are sent. */
  bytesTotal: z.number(),
  bytesSent: z.number(),
  /** Bytes per second over a recent window; 0 before the first measurement. */
  speedBps: z.number(),
  etaSeconds: z.number().nullable(),
  /** The whole queue is paused by the user. */
  paused: z.boolean(),
  /** The service asked to wait (RATE_LIMIT_REACHED / 429) until then (ISO time), or null. */
  waitingUntil: z.string().nullable(),
  /** Requests the engine allows at once now (≤ the concurrency setting while it backs off). */
  effectiveConcurrency: z.number().int(),
  /** The work under way (the totals bar, the time left, the taskbar); the counts above are the whole list's. */
  current: currentWorkSchema,
});
export type TransferTotals = z.infer<typeof transferTotalsSchema>;

/** The whole queue's counts as the work under way (every drop counts): fixtures, and fakes of core. Pure. */
export const currentFromTotals = (t: Omit<TransferTotals, 'current'>): CurrentWork => ({
  transfers: t.filesTotal > 0 ? 1 : 0,
  filesTotal: t.filesTotal,
  filesDone: t.filesDone,
  filesFailed: t.filesFailed,
  filesCanceled: t.filesCanceled,
  filesSkipped: t.filesSkipped,
  filesSent: t.filesDone,
  filesLeft: t.filesQueued + t.filesActive,
  bytesTotal: t.bytesTotal,
  bytesSent: t.bytesSent,
});

export const transferScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('transfer'), id: z.string().min(1) }),
  z.object({ kind: z.literal('batch'), id: z.string().min(1) }),
  z.object({ kind: z.literal('files'), ids: z.array(z.string().min(1)).min(1).max(100_000) }),
]);
export type TransferScope = z.infer<typeof transferScopeSchema>;

export const transferActionSchema = z.enum(['pause', 'resume', 'cancel', 'retry']);
export type TransferAction = z.infer<typeof transferActionSchema>;

/**
 * What canceling chosen files would cost the rest of their batches. An Assembly waits for exactly the
 * uploads it was created for, and the API cannot lower that count (service-facts §6): leaving a file out
 * of an Assembly that exists means canceling that Assembly and creating the batch again, so its other
 * files go again from 0 B. The page asks first, naming them.
 */
export const cancelCostSchema = z.object({
  batches: z.array(
    z.object({
      batchId: z.string(),
      /** The batch as the list names it ("Files 1–3"), and its drop's name. */
      label: z.string(),
      transferLabel: z.string(),
      /** The Assembly that would be canceled (shown as Canceled in Activity), if it exists. */
      assemblyId: z.string().nullable(),
      /** Files that would be sent again from 0 B (all of them), and the bytes of theirs already sent that would be thrown away. */
      resendFiles: z.number().int(),
      resendBytes: z.number(),
      lostBytes: z.number(),
      /** The first of them (at most 20), with what each had sent. */
      files: z.array(z.object({ relativePath: z.string(), size: z.number(), bytesSent: z.number(), done: z.boolean() })).max(20),
    }),
  ),
});
export type CancelCost = z.infer<typeof cancelCostSchema>;

export const transferOverviewSchema = z.object({
  totals: transferTotalsSchema,
  transfers: z.array(transferSchema),
  batches: z.array(transferBatchSchema),
});
export type TransferOverview = z.infer<typeof transferOverviewSchema>;

export const transferRowsQuerySchema = z.object({
  transferId: z.string().optional(),
  batchId: z.string().optional(),
  /** Only rows in these states (e.g. failed); all when absent. */
  states: z.array(transferFileStateSchema).optional(),
  /** Case-insensitive substring of the relative path. */
  search: z.string().max(500).optional(),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().min(1).max(1_000),
});
export type TransferRowsQuery = z.infer<typeof transferRowsQuerySchema>;

export const transferRowsPageSchema = z.object({
  /** Rows matching the query in all. */
  total: z.number().int(),
  /** Where each batch's rows start in the filtered order (rows are ordered by batch, then path). */
  groups: z.array(z.object({ batchId: z.string().nullable(), offset: z.number().int(), count: z.number().int() })),
  rows: z.array(transferRowSchema),
});
export type TransferRowsPage = z.infer<typeof transferRowsPageSchema>;

/** Coalesced (a few per second): what changed since the last event, never the whole queue. */
export const transferChangesSchema = z.object({
  totals: transferTotalsSchema,
  transfers: z.array(transferSchema),
  batches: z.array(transferBatchSchema),
  /** Changed rows, at most 500; when more changed, `rowsTruncated` says to refetch the rows in view. */
  rows: z.array(transferRowSchema).max(500),
  rowsTruncated: z.boolean(),
});
export type TransferChanges = z.infer<typeof transferChangesSchema>;
