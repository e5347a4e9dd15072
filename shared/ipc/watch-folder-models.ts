import { z } from 'zod';
import { conflictPolicySchema, type ConflictPolicy } from './mirror-models';

/**
 * Watch folders (docs/desktop.md "Watch folders"): a folder core watches; every file that lands in it and
 * stops growing goes through the transfer queue with the watch's Template or preset, and its results are
 * written to the output folder as `<output>/<step>/<relative path, result's extension>`.
 */

/** Where a folder comes from: a handle the host's folder picker gave, or (browser host only) a typed absolute path. */
export const folderRefSchema = z.union([z.object({ handle: z.string().min(1) }), z.object({ path: z.string().min(1).max(4_096) })]);
export type FolderRef = z.infer<typeof folderRefSchema>;

/** What each file is processed with: a Template (and its fields) or one of the ready-made presets. */
export const watchRecipeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('template'), templateId: z.string().min(1), fields: z.record(z.string(), z.string()).default({}) }),
  z.object({ kind: z.literal('preset'), presetId: z.string().min(1) }),
]);
export type WatchRecipe = z.infer<typeof watchRecipeSchema>;

/** What happens to an original once its results are on disk. */
export const afterSuccessSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('keep') }),
  z.object({ kind: z.literal('delete') }),
  z.object({ kind: z.literal('move'), folder: z.string().min(1) }),
]);
export type AfterSuccess = z.infer<typeof afterSuccessSchema>;

/**
 * When a result is already at its path in the output folder (an earlier version of the same input, or a
 * file put there by hand), the results mirror's policy applies: `overwrite` replaces it (the default, and
 * what a watch stored before the choice existed does); `keep-both` saves the new one as `name (2).ext`;
 * `skip` leaves it as it is.
 */
export const DEFAULT_WATCH_CONFLICT: ConflictPolicy = 'overwrite';

export const MIN_SETTLE_MS = 200;
export const DEFAULT_SETTLE_MS = 2_000;

export const watchStateSchema = z.enum(['watching', 'paused', 'catching-up', 'error']);
export type WatchState = z.infer<typeof watchStateSchema>;

export const watchItemStateSchema = z.enum(['settling', 'checking', 'queued', 'processing', 'done', 'failed']);
export type WatchItemState = z.infer<typeof watchItemStateSchema>;

export const watchCountsSchema = z.object({
  done: z.number().int(),
  failed: z.number().int(),
  /** Settling, queued or processing. */
  queued: z.number().int(),
  /** Unchanged files already processed, passed over since the watch (re)started. */
  skipped: z.number().int(),
});
export type WatchCounts = z.infer<typeof watchCountsSchema>;

export const watchItemSchema = z.object({
  relativePath: z.string(),
  state: watchItemStateSchema,
  size: z.number(),
  mtimeMs: z.number(),
  sha256: z.string().nullable(),
  assemblyId: z.string().nullable(),
  transferId: z.string().nullable(),
  error: z.string().nullable(),
  /** Results written, relative to the output folder (`resized/a.jpg`). */
  results: z.array(z.string()),
  /** Those of `results` saved under a numbered name (`resized/a (2).jpg`) beside an earlier result (keep-both). */
  keptBeside: z.array(z.string()),
  /** Results not written because an earlier one was at their path, left as it was (skip). */
  skippedResults: z.array(z.string()),
  updatedAt: z.string(),
});
export type WatchItem = z.infer<typeof watchItemSchema>;

export const watchFolderSchema = z.object({
  id: z.string(),
  folder: z.string(),
  output: z.string(),
  recipe: watchRecipeSchema,
  reprocessStale: z.boolean(),
  afterSuccess: afterSuccessSchema,
  /** When a result is already there (DEFAULT_WATCH_CONFLICT). */
  conflict: conflictPolicySchema,
  settleMs: z.number().int(),
  paused: z.boolean(),
  state: watchStateSchema,
  /** Why the watch stopped (state `error`): the folder is gone, unreadable… */
  error: z.string().nullable(),
  lastActivityAt: z.string().nullable(),
  counts: watchCountsSchema,
  /** The newest failures, newest first (at most 5). */
  latestErrors: z.array(z.object({ relativePath: z.string(), error: z.string(), at: z.string() })),
});
export type WatchFolder = z.infer<typeof watchFolderSchema>;

/** After success as the page sends it: a move-to folder is a folder reference, resolved in core. */
export const afterSuccessInputSchema = z.discriminatedUnion('kind', [z.object({ kind: z.literal('keep') }), z.object({ kind: z.literal('delete') }), z.object({ kind: z.literal('move'), folder: folderRefSchema })]);
export type AfterSuccessInput = z.infer<typeof afterSuccessInputSchema>;

const settleMsSchema = z.number().int().min(MIN_SETTLE_MS).max(600_000);

export const watchFolderInputSchema = z.object({
  folder: folderRefSchema,
  output: folderRefSchema,
  recipe: watchRecipeSchema,
  reprocessStale: z.boolean().default(false),
  afterSuccess: afterSuccessInputSchema.default({ kind: 'keep' }),
  conflict: conflictPolicySchema.default(DEFAULT_WATCH_CONFLICT),
  settleMs: settleMsSchema.default(DEFAULT_SETTLE_MS),
  workspaceId: z.string().optional(),
});
export type WatchFolderInput = z.input<typeof watchFolderInputSchema>;

/**
 * Edit a watch: anything the add dialog sets except the watched folder (another folder is another watch).
 * Omitted fields stay as they are. The ledger is kept: the change applies to files that arrive or change
 * from then on, and a file already sent finishes with the settings it was sent with.
 */
export const watchFolderUpdateSchema = z.object({
  id: z.string().min(1),
  recipe: watchRecipeSchema.optional(),
  output: folderRefSchema.optional(),
  reprocessStale: z.boolean().optional(),
  afterSuccess: afterSuccessInputSchema.optional(),
  conflict: conflictPolicySchema.optional(),
  settleMs: settleMsSchema.optional(),
});
export type WatchFolderUpdate = z.input<typeof watchFolderUpdateSchema>;

/** Which field of the watch dialog a refusal is about (`error.details.field`), so the dialog shows it there. */
export const watchFieldSchema = z.enum(['folder', 'output', 'recipe', 'afterSuccess', 'settleMs']);
export type WatchField = z.infer<typeof watchFieldSchema>;

export const watchItemsPageSchema = z.object({ items: z.array(watchItemSchema), total: z.number().int() });
export type WatchItemsPage = z.infer<typeof watchItemsPageSchema>;

/** A watch changed (state, counts, an item): the screen re-reads the list. */
export const watchFoldersChangedSchema = z.object({ id: z.string(), removed: z.boolean().optional() });
