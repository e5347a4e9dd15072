import { z } from 'zod';
import { assemblyIdSchema } from './assembly-models';

/**
 * Results to disk and job manifests (electron/core/results-mirror, docs/desktop.md "Results to disk").
 * The page names what to save (a run, a batch, Activity's filtered Assemblies) and how; the folder is one
 * the user picked in the host's own dialog, kept by core — the page never names a path to write to.
 */

/**
 * Where each result goes under the output folder:
 * - `by-step`: `<step>/<relative input path, with the result's extension>` (the input tree, once per step);
 * - `flat`: `<step>/<result name>`;
 * - `by-folder`: `<relative input folder>/<step>-<result name>`.
 */
export const mirrorLayoutSchema = z.enum(['by-step', 'flat', 'by-folder']);
export type MirrorLayout = z.infer<typeof mirrorLayoutSchema>;

/** What to do when a file is already at the target path. `keep-both` writes `name (2).ext`. */
export const conflictPolicySchema = z.enum(['skip', 'overwrite', 'keep-both']);
export type ConflictPolicy = z.infer<typeof conflictPolicySchema>;

/** A run, a batch of a transfer, or Assemblies (Activity's filtered rows). */
export const mirrorScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('run'), runId: z.string().min(1) }),
  z.object({ kind: z.literal('batch'), batchId: z.string().min(1) }),
  z.object({ kind: z.literal('assemblies'), assemblyIds: z.array(assemblyIdSchema).min(1).max(1000) }),
]);
export type MirrorScope = z.infer<typeof mirrorScopeSchema>;

/** The remembered choice (core keeps it in `<dataDir>/results-mirror.json`). */
export const mirrorSettingsSchema = z.object({
  /** The output folder the user last picked; null until one was. */
  folder: z.string().nullable(),
  layout: mirrorLayoutSchema,
  conflict: conflictPolicySchema,
  /** False where the host shows no folder dialog (then core cannot be given a folder). */
  canChooseFolder: z.boolean(),
});
export type MirrorSettings = z.infer<typeof mirrorSettingsSchema>;

export const mirrorFileErrorSchema = z.object({
  /** The target path relative to the output folder (or the result's name when no path was made). */
  path: z.string(),
  code: z.string(),
  message: z.string(),
});

/** Where a mirror is: counts only, coalesced (a few events a second). */
export const mirrorProgressSchema = z.object({
  mirrorId: z.string(),
  folder: z.string(),
  state: z.enum(['running', 'done', 'canceled']),
  filesTotal: z.number().int(),
  filesDone: z.number().int(),
  bytesTotal: z.number(),
  bytesDone: z.number(),
  written: z.number().int(),
  skipped: z.number().int(),
  /** Written files whose size and hash (md5, sha256 when recorded) matched the record. */
  verified: z.number().int(),
  failed: z.number().int(),
  /** The first failures (at most 20), each with the service's or core's code. */
  errors: z.array(mirrorFileErrorSchema).max(20),
});
export type MirrorProgress = z.infer<typeof mirrorProgressSchema>;

export const manifestFormatSchema = z.enum(['csv', 'json']);
export type ManifestFormat = z.infer<typeof manifestFormatSchema>;

export const manifestExportSchema = z.object({
  /** Null: the user closed the save dialog. */
  path: z.string().nullable(),
  /** Assemblies and CSV-style rows (one per result; an input without results is one row). */
  assemblies: z.number().int(),
  rows: z.number().int(),
});
export type ManifestExport = z.infer<typeof manifestExportSchema>;
