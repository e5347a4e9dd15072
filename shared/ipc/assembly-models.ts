import { z } from 'zod';
import { assemblyStatusSchema } from '../api/assembly-status';
import { runTotalsSchema } from './models';

/** Assembly ids are 32 hex characters everywhere; anything else never reaches a URL path. */
export const assemblyIdSchema = z.string().regex(/^[0-9a-f]{32}$/i, 'An Assembly id is 32 hexadecimal characters.');

/** The service's list filter (`type`, service-facts §7). */
export const ASSEMBLY_STATE_FILTERS = ['all', 'uploading', 'executing', 'completed', 'failed', 'canceled', 'request_aborted'] as const;
export const assemblyStateFilterSchema = z.enum(ASSEMBLY_STATE_FILTERS);
export type AssemblyStateFilter = z.infer<typeof assemblyStateFilterSchema>;

/** `YYYY-MM-DD` (a day, UTC) as the date inputs give it. */
const daySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is YYYY-MM-DD.');

export const assemblyListQuerySchema = z.object({
  workspaceId: z.string().optional(),
  state: assemblyStateFilterSchema.default('all'),
  /** First day included (UTC). */
  fromDate: daySchema.optional(),
  /** Last day included (UTC). */
  toDate: daySchema.optional(),
  /** Every word must occur (id, fields, notify_url, error, file names), as the service matches `keywords`. */
  keywords: z.array(z.string().min(1).max(200)).max(20).default([]),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(500).default(100),
});
export type AssemblyListQuery = z.input<typeof assemblyListQuerySchema>;
export type ParsedAssemblyListQuery = z.output<typeof assemblyListQuerySchema>;

/** What this app's own run adds to an Assembly of the list (it started it: upload progress, the Assembly view). */
export const assemblyRunExtrasSchema = z.object({
  runId: z.string(),
  state: z.string(),
  totals: runTotalsSchema,
});

/** One row of Activity: an Assembly of the service's list, or a run of this app the service does not list yet. */
export const assemblyListItemSchema = z.object({
  /** The Assembly id; null for a run still creating its Assembly. */
  id: z.string().nullable(),
  parentId: z.string().nullable(),
  templateId: z.string().nullable(),
  /** The `ok` code, or the error code when it failed (`CREATING` for a run without an Assembly yet). */
  state: z.string(),
  error: z.string().nullable(),
  /** ISO 8601, UTC. */
  created: z.string(),
  fileNames: z.array(z.string()),
  numInputFiles: z.number().nullable(),
  bytes: z.number().nullable(),
  executionDuration: z.number().nullable(),
  notifyUrl: z.string().nullable(),
  run: assemblyRunExtrasSchema.nullable(),
});
export type AssemblyListItem = z.infer<typeof assemblyListItemSchema>;

export const assemblyListPageSchema = z.object({
  items: z.array(assemblyListItemSchema),
  /** Assemblies matching the filter across every page (the service's count, plus runs it does not list yet). */
  count: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AssemblyListPage = z.infer<typeof assemblyListPageSchema>;

/** Any Assembly of the workspace, by id (the status record), and the run of this app that made it, if one did. */
export const assemblyDetailSchema = z.object({
  status: assemblyStatusSchema,
  runId: z.string().nullable(),
  /** Replays of it this app started (the service has no list filter by parent). */
  replays: z.array(z.string()),
});
export type AssemblyDetail = z.infer<typeof assemblyDetailSchema>;

export const notificationAttemptSchema = z.object({
  url: z.string().nullable(),
  replay: z.boolean(),
  attempt: z.number().nullable(),
  started: z.string().nullable(),
  duration: z.number().nullable(),
  responseCode: z.number().nullable(),
  responseData: z.string().nullable(),
  error: z.string().nullable(),
  successful: z.boolean(),
});
export type NotificationAttempt = z.infer<typeof notificationAttemptSchema>;

export const assemblyNotificationsSchema = z.object({
  notifyUrl: z.string().nullable(),
  attempts: z.array(notificationAttemptSchema),
  pending: z.array(z.object({ url: z.string().nullable(), attempts: z.number().nullable(), nextAttempt: z.string().nullable() })),
});
export type AssemblyNotifications = z.infer<typeof assemblyNotificationsSchema>;

/** How to run an Assembly again: its own steps, new steps, another Template, the Template as it is now, another notify_url. */
export const replayOptionsSchema = z.object({
  steps: z.record(z.string(), z.unknown()).optional(),
  templateId: z.string().min(1).max(200).optional(),
  /** Read the Template as it is now instead of the content the original ran with. */
  reparseTemplate: z.boolean().optional(),
  notifyUrl: z.string().max(2048).optional(),
});
export type ReplayOptions = z.infer<typeof replayOptionsSchema>;

/** Send an ended Assembly's notification again (POST /assembly_notifications/{id}/replay), optionally elsewhere. */
export const notificationReplayRequestSchema = z.object({
  workspaceId: z.string().optional(),
  assemblyId: assemblyIdSchema,
  /** This replay only (the stored notify_url stays); empty = the stored one. */
  notifyUrl: z.string().max(2048).optional(),
  /** Wait for the first attempt's outcome (default), or only queue it. */
  wait: z.boolean().default(true),
});

/** The first attempt's outcome (with `wait`), or that it was queued. */
export const notificationReplaySchema = z.object({
  success: z.boolean(),
  queued: z.boolean(),
  notifyUrl: z.string().nullable(),
  responseCode: z.number().nullable(),
  responseData: z.string().nullable(),
  error: z.string().nullable(),
  duration: z.number().nullable(),
});
export type NotificationReplay = z.infer<typeof notificationReplaySchema>;

export const replayStartedSchema = z.object({ parentId: z.string(), assemblyId: z.string() });

export const replayManyResultSchema = z.object({
  started: z.array(replayStartedSchema),
  failed: z.array(z.object({ parentId: z.string(), code: z.string(), message: z.string() })),
});
export type ReplayManyResult = z.infer<typeof replayManyResultSchema>;

/** What a bulk cancel did: each selected Assembly canceled, found already ended (left as it was), or refused. */
export const cancelManyResultSchema = z.object({
  canceled: z.array(z.string()),
  alreadyEnded: z.array(z.string()),
  failed: z.array(z.object({ assemblyId: z.string(), code: z.string(), message: z.string() })),
});
export type CancelManyResult = z.infer<typeof cancelManyResultSchema>;

/** One step in `progress_per_step` (the local service's addition to `assembly_execution_progress`). */
export const stepProgressSchema = z.object({
  step: z.string(),
  robot: z.string().nullable(),
  state: z.enum(['waiting', 'executing', 'done']),
  /** 0–100. */
  progress: z.number(),
  filesDone: z.number(),
  /** 0 until the step starts (its inputs are known then). */
  filesTotal: z.number(),
});
export type StepProgress = z.infer<typeof stepProgressSchema>;

/**
 * How core follows a running Assembly right now: its update stream, or polling its status because the
 * deployment offers no stream, the stream dropped, or it went silent (`reason`); `rateLimitedMs` while a
 * status fetch waits out the deployment's rate limit (413 RATE_LIMIT_REACHED / 429: the wait it asked for).
 */
export const followStateSchema = z.object({
  via: z.enum(['stream', 'polling']),
  reason: z.enum(['no-stream', 'stream-dropped', 'stream-stalled']).nullable(),
  rateLimitedMs: z.number().nonnegative().nullable(),
});
export type FollowState = z.infer<typeof followStateSchema>;

/** Live news of an Assembly core follows for a detail view (`assemblies:follow`). */
export const assemblyUpdateSchema = z.object({
  assemblyId: z.string(),
  status: assemblyStatusSchema.nullable(),
  /**
   * `assembly_execution_progress` (only when the Assembly asked for it): percent overall and per original
   * file; per step only from a service that sends `progress_per_step` (null otherwise: nothing is made up).
   */
  progress: z
    .object({
      combined: z.number(),
      perFile: z.array(z.object({ originalId: z.string(), progress: z.number() })),
      perStep: z.array(stepProgressSchema).nullable().default(null),
    })
    .nullable(),
  /** How core follows it, sent when that changes (a rate-limit wait, the stream dropped or stalled). */
  follow: followStateSchema.optional(),
});
export type AssemblyUpdate = z.infer<typeof assemblyUpdateSchema>;
