import { z } from 'zod';
import { assemblyStatusSchema } from '../api/assembly-status';
import { authModeSchema } from './workspace-models';

/** Records that cross the bridge. None of them ever carries a secret. */

export const vaultStatusSchema = z.object({
  /** Which backend holds secrets: the OS keyring, Electron safeStorage, an unprotected file the user accepted, or none. */
  backend: z.enum(['os-keyring', 'safe-storage', 'unprotected-file', 'none']),
  secure: z.boolean(),
  /** Human-readable explanation, shown when `secure` is false. */
  detail: z.string(),
});
export type VaultStatus = z.infer<typeof vaultStatusSchema>;

export const workspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['local', 'remote']),
  endpoint: z.string(),
  authKey: z.string(),
  /** True when the vault holds this workspace's Auth Secret (the secret itself never leaves core). */
  hasSecret: z.boolean(),
  slug: z.string(),
  authMode: authModeSchema,
  signatureAlgo: z.enum(['sha1', 'sha256', 'sha384']),
  tokenScopes: z.array(z.string()).nullable(),
  /** Browser sign-in with a private key: the client it signs in as (its public key: workspaces:clientKeyShow). */
  clientKey: z.object({ clientId: z.string(), kid: z.string() }).nullable().optional(),
  /** Local only: why it has no full access to its own service (shown with "Restore full access"); null when it has. */
  accessProblem: z.string().nullable().optional(),
  /** The certificate authority this workspace trusts besides the system's (its CA file), or null. */
  ca: z.object({ subject: z.string(), validTo: z.string() }).nullable().optional(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const appInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['electron', 'browser']),
  platform: z.string(),
  dataDir: z.string(),
  localServiceUrl: z.string().nullable(),
  activeWorkspaceId: z.string(),
  vault: vaultStatusSchema,
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** An opaque id core issued for a file or folder the user picked or dropped; never a path. */
export const fileHandleSchema = z.string().min(1).max(100);

/** A file's preview (files:thumbnail, results:thumbnail): null dataUrl → the page shows the kind's icon. */
export const mediaPreviewSchema = z.object({
  dataUrl: z.string().nullable(),
  kind: z.enum(['image', 'video', 'audio', 'other']),
  /** Seconds (video and audio), when known. */
  duration: z.number().nonnegative().nullable(),
});
export type MediaPreview = z.infer<typeof mediaPreviewSchema>;

/**
 * A file the user chose, as the page sees it: the handle of the picked root plus where the file sits
 * below it. The page never learns, and can never send, a path on disk.
 */
export const selectedFileSchema = z.object({
  handle: fileHandleSchema,
  /** Path relative to the dropped folder's parent (e.g. `photos/2024/a.jpg`), or the bare name for loose files. */
  relativePath: z.string().min(1).max(4096),
  name: z.string(),
  size: z.number().int().nonnegative(),
  mime: z.string().nullable(),
});
export type SelectedFile = z.infer<typeof selectedFileSchema>;

/** Core's own view of a picked file: resolved to its path on disk. It never crosses the bridge. */
export interface LocalFile {
  path: string;
  relativePath: string;
  name: string;
  size: number;
  mime: string | null;
}

export const scanResultSchema = z.object({
  files: z.array(selectedFileSchema),
  /** Entries that could not be read (permission denied, broken link), with the reason; paths as the user sees them. */
  skipped: z.array(z.object({ relativePath: z.string(), reason: z.string() })),
  totalBytes: z.number(),
});
export type ScanResult = z.infer<typeof scanResultSchema>;

export const fileUploadStateSchema = z.enum(['queued', 'uploading', 'uploaded', 'failed', 'canceled']);
export type FileUploadState = z.infer<typeof fileUploadStateSchema>;

export const runFileSchema = z.object({
  fileId: z.string(),
  relativePath: z.string(),
  size: z.number(),
  bytesUploaded: z.number(),
  state: fileUploadStateSchema,
  error: z.string().optional(),
});
export type RunFile = z.infer<typeof runFileSchema>;

export const runTotalsSchema = z.object({
  bytesTotal: z.number(),
  bytesUploaded: z.number(),
  filesTotal: z.number(),
  filesUploaded: z.number(),
  /** Bytes per second over a recent window; 0 before the first measurement. */
  speedBps: z.number(),
  /** Seconds left at the current speed; null when unknown. */
  etaSeconds: z.number().nullable(),
});
export type RunTotals = z.infer<typeof runTotalsSchema>;

export const appErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  httpCode: z.number().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** One Assembly the app started (or follows), as the renderer sees it. */
export const runSchema = z.object({
  runId: z.string(),
  workspaceId: z.string(),
  assemblyId: z.string().nullable(),
  createdAt: z.string(),
  /** The Assembly's `ok` code, or `CREATING` before the service answered. */
  state: z.string(),
  error: appErrorSchema.nullable(),
  totals: runTotalsSchema,
  files: z.array(runFileSchema),
  /** The latest full status record from the service (null until the first one). */
  status: assemblyStatusSchema.nullable(),
});
export type Run = z.infer<typeof runSchema>;

/** A batched progress update: only the files that changed since the last event. */
export const runProgressSchema = z.object({
  runId: z.string(),
  totals: runTotalsSchema,
  files: z.array(runFileSchema),
});
export type RunProgress = z.infer<typeof runProgressSchema>;
