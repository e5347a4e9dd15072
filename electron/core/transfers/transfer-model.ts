import { createHash } from 'node:crypto';
import type { Instructions } from '../../../shared/api/instructions';
import type { BatchState, TransferFileState, TransferSettings } from '../../../shared/ipc/transfer-models';
import type { AppError } from '../../../shared/result';
import type { SeenUpload } from './assembly-check';
import type { AssemblyLimits, BatcherState, BatchingSettings } from './batching';

/**
 * The engine's state: plain records in maps. `transfer-state.ts` changes it (no I/O, time comes in with
 * the events); `transfer-engine.ts` runs the commands it answers with.
 */

export type UploadMethod = 'tus' | 'multipart';

export interface FileRec {
  id: string;
  transferId: string;
  batchId: string | null;
  path: string;
  relativePath: string;
  name: string;
  size: number;
  mime: string | null;
  mtimeMs: number;
  state: TransferFileState;
  /** Bytes the server confirmed (tus offset), or all of them once delivered. */
  bytesSent: number;
  method: UploadMethod | null;
  attempts: number;
  error: string | null;
  note: string | null;
  /** The tus upload of the current Assembly, so a resume continues from the server's offset. */
  uploadUrl: string | null;
  /** md5 computed while the bytes were read for upload. */
  md5: string | null;
  /** Not before this time (backoff after an error). */
  retryAt: number | null;
  /** Same path and size as a verified upload of earlier: its content is compared when its turn comes. */
  unchangedCandidate: boolean;
  /** The md5 the service recorded for this file's upload, once a status listed it. */
  serviceMd5: string | null;
  /** Times the file was sent again because its Assembly did not hold it intact (absent, twice, another size or md5). */
  resends: number;
}

/** What a file brings when it is added to a transfer. */
export type AddedFile = Pick<FileRec, 'path' | 'relativePath' | 'name' | 'size' | 'mime' | 'mtimeMs'> & { unchangedCandidate?: boolean };

/**
 * A file as it enters the queue: queued, nothing sent. 100,000 of these live in memory: one literal gives
 * them all one shape, and they share the batch's own id string (not a copy per file). Pure.
 */
export function newFileRec(id: string, transferId: string, batchId: string, input: AddedFile): FileRec {
  return {
    id,
    transferId,
    batchId,
    path: input.path,
    relativePath: input.relativePath,
    name: input.name,
    size: input.size,
    mime: input.mime,
    mtimeMs: input.mtimeMs,
    state: 'queued',
    bytesSent: 0,
    method: null,
    attempts: 0,
    error: null,
    note: null,
    uploadUrl: null,
    md5: null,
    retryAt: null,
    unchangedCandidate: input.unchangedCandidate ?? false,
    serviceMd5: null,
    resends: 0,
  };
}

export interface BatchRec {
  id: string;
  transferId: string;
  seq: number;
  label: string;
  state: BatchState;
  /** Every file placed in this batch (a canceled or unreadable one stays listed, left out of the Assembly). */
  fileIds: string[];
  /** No file joins any more (the batcher closed it): its Assembly may be created. */
  sealed: boolean;
  /** Bumps each time the batch's Assembly is created again; part of the marker in its `fields`. */
  generation: number;
  /** A create request of this generation may have reached the service: look for its Assembly (by id, by marker) before sending again. */
  ambiguous: boolean;
  /**
   * Which id of this generation the next create request uses (`assemblyIdOf`): the ids below it are spent
   * (a cut request left a REQUEST_ABORTED Assembly under them). Back to 0 with each new generation.
   */
  idAttempt: number;
  runId: string | null;
  assemblyId: string | null;
  assemblyUrl: string | null;
  tusUrl: string | null;
  /**
   * The files the current Assembly was created for: it waits for exactly these. The first
   * `multipartFiles` went in the create request as `file_0`, `file_1`…; the rest by tus.
   */
  assemblyFiles: string[];
  multipartFiles: number;
  attempts: number;
  retryAt: number | null;
  error: AppError | null;
  userPaused: boolean;
  /** The Assembly ended (its last status is terminal). */
  assemblyDone: boolean;
  /** Said once for the batch: "Not verified" where the deployment records no checksums. */
  note: string | null;
}

export interface TransferRec {
  id: string;
  workspaceId: string;
  createdAt: string;
  label: string;
  /** What the drop does: the preset's title, the Template's name, "Custom steps" (null: not known, an older queue). */
  recipe?: string | null;
  instructions: Instructions;
  limits: AssemblyLimits;
  /** The batching settings when it started (a later change applies to later transfers). */
  batching: BatchingSettings;
  /** This transfer's own multipart threshold (`runs:start` sends every file by tus, as before); null = the setting. */
  multipartMaxFileBytes: number | null;
  /** A run opened before the first batch's Assembly exists (`runs:start`): that batch attaches to it. */
  runId: string | null;
  scanning: boolean;
  userPaused: boolean;
  canceled: boolean;
  batcher: BatcherState;
  /** Files placed so far (ids are `<transferId>:<n>`). */
  nextFile: number;
}

export interface EngineState {
  files: Map<string, FileRec>;
  batches: Map<string, BatchRec>;
  transfers: Map<string, TransferRec>;
  settings: TransferSettings;
  /** The whole queue paused by the user. */
  paused: boolean;
  /** The service asked to wait (413 RATE_LIMIT_REACHED) until then. */
  gateUntil: number | null;
  /** Requests allowed at once now: the setting, halved on 429 / network errors, probed back up. */
  effective: number;
  /** Successes since the last change of `effective`. */
  okStreak: number;
  /** Requests in flight: `c:<batchId>` (an Assembly being created) and `f:<fileId>` (a tus upload). */
  inFlight: Set<string>;
  /**
   * When the work under way began: the creation time (ISO) of the first drop started while the queue was
   * idle. The totals bar counts the drops since then (and any not finished), not the finished ones of before.
   */
  runStart: string | null;
}

/** What the engine must do; the results come back as events. */
export type Command =
  | { kind: 'create-batch'; batchId: string; generation: number; idAttempt: number; multipart: string[]; tus: string[]; lookFirst: boolean }
  | { kind: 'upload-tus'; fileId: string; batchId: string }
  | { kind: 'abort-file'; fileId: string }
  | { kind: 'abort-create'; batchId: string }
  | { kind: 'cancel-assembly'; batchId: string; assemblyUrl: string; runId: string | null }
  | { kind: 'remember-verified'; fileId: string }
  /** md5 of a file the service shows delivered whole, though the app stopped before it learned so. */
  | { kind: 'hash-file'; fileId: string };

/** How an error should be handled. */
export type FailureKind =
  /** 413 RATE_LIMIT_REACHED: everything waits `retryInMs`; not the file's fault. */
  | 'rate-limit'
  /** 429, network errors, 5xx, a stall: back off and retry; the engine runs fewer requests for a while. */
  | 'transient'
  /** The request itself is refused (4xx): retrying will not help until the user changes something. */
  | 'fatal';

export interface Excluded {
  fileId: string;
  state: 'failed' | 'skipped';
  reason: string;
}

export interface ServiceCheck {
  fileId: string;
  /** md5 the service recorded for this upload (null when it gave none). */
  serviceMd5: string | null;
  /** The status lists the upload as received whole. */
  delivered: boolean;
}

export type EngineEvent =
  | { kind: 'transfer-started'; transfer: Omit<TransferRec, 'batcher' | 'nextFile' | 'scanning' | 'userPaused' | 'canceled'> }
  | { kind: 'files-added'; transferId: string; files: AddedFile[] }
  | { kind: 'scan-ended'; transferId: string }
  | { kind: 'tick' }
  | {
      kind: 'batch-created';
      batchId: string;
      generation: number;
      assemblyId: string;
      assemblyUrl: string;
      tusUrl: string | null;
      runId: string | null;
      /** Files left out before the request (unreadable, unchanged). */
      excluded: Excluded[];
      /** Files announced for tus (`tus_num_expected_upload_files`). */
      tus: string[];
      /** Multipart files delivered in the request, with their md5 (computed while streaming) and the service's. */
      delivered: Array<{ fileId: string; md5: string; serviceMd5: string | null }>;
      /** The Assembly already ended (nothing to wait for, or it failed at once). */
      terminal: boolean;
      /** Its uploads, when it ended already: every file sent is checked against them. */
      uploads: SeenUpload[] | null;
      error: AppError | null;
      /** The id attempt the creator ended at (it moves past spent ids); absent: unchanged. */
      idAttempt?: number;
    }
  | { kind: 'batch-create-failed'; batchId: string; generation: number; error: AppError; failure: FailureKind; retryInMs?: number; ambiguous: boolean; excluded: Excluded[]; idAttempt?: number }
  | { kind: 'file-progress'; fileId: string; bytes: number }
  /** Progress of many files at once (the engine gathers it for ~100 ms): bytes each has sent so far. */
  | { kind: 'files-progress'; entries: ReadonlyArray<readonly [fileId: string, bytes: number]> }
  | { kind: 'tus-url'; fileId: string; url: string }
  | { kind: 'file-uploaded'; fileId: string; md5: string }
  | { kind: 'file-failed'; fileId: string; error: string; failure: FailureKind; retryInMs?: number }
  | { kind: 'file-hashed'; fileId: string; md5: string }
  /** `uploads`: the ended Assembly's uploads (null while it runs), against which every file sent is checked. */
  | { kind: 'assembly-status'; batchId: string; checks: ServiceCheck[]; terminal: boolean; error: AppError | null; uploads: SeenUpload[] | null }
  | { kind: 'settings'; settings: TransferSettings };

/** States in which the service has a file's bytes (or needs none): nothing more to send for it. */
export const SENT_FILE_STATES: ReadonlySet<TransferFileState> = new Set(['uploaded', 'verified', 'unverified', 'skipped']);
/**
 * States a user is told are Done: checked in a completed Assembly (or on a deployment that records no md5,
 * said so, or skipped). `uploaded` is not among them: its Assembly has not answered yet ("Verifying").
 */
export const DONE_FILE_STATES: ReadonlySet<TransferFileState> = new Set(['verified', 'unverified', 'skipped']);
/** States in which a file takes no more part in its batch's current Assembly. */
export const OUT_FILE_STATES: ReadonlySet<TransferFileState> = new Set(['canceled', 'skipped']);
export const TERMINAL_BATCH_STATES: ReadonlySet<BatchState> = new Set(['completed', 'failed', 'canceled']);

/** Retries of one file (or one batch's create) before it is marked failed for the user to retry. */
export const MAX_ATTEMPTS = 8;
/** Times one file is sent again (its Assembly did not hold it intact) before it is failed for good. */
export const MAX_RESENDS = 3;

/** 0.5 s doubling to 30 s, by attempt number (1-based). */
export const backoffMs = (attempt: number): number => Math.min(30_000, 500 * 2 ** Math.max(0, attempt - 1));

export const fileIdOf = (transferId: string, n: number): string => `${transferId}:${n}`;
export const batchIdOf = (transferId: string, seq: number): string => `${transferId}:b${seq}`;
/** The value put in the Assembly's `fields.assemblyline_batch`: found again after a lost response. */
export const markerOf = (batchId: string, generation: number): string => `alb-${batchId}-g${generation}`;
export const MARKER_FIELD = 'assemblyline_batch';

/**
 * The client-chosen Assembly id of a batch's create request (POST /assemblies/{id}, 32 hex characters):
 * derived from the batch, its generation and the id attempt, so after a restart the id of the request that
 * may have been sent is known and looked up, and a late copy of that request is refused by the service
 * (DO_NOT_REUSE_ASSEMBLY_IDS) instead of creating the batch twice. Pure.
 */
export const assemblyIdOf = (batchId: string, generation: number, attempt: number): string =>
  createHash('sha256').update(`assemblyline-batch:${batchId}:g${generation}:a${attempt}`).digest('hex').slice(0, 32);

/** Transfers whose walk is over and whose every batch ended (one pass over the batches). Pure. */
export function finishedTransfers(s: Pick<EngineState, 'transfers' | 'batches'>): Set<string> {
  const open = new Set<string>();
  for (const b of s.batches.values()) if (!TERMINAL_BATCH_STATES.has(b.state)) open.add(b.transferId);
  const done = new Set<string>();
  for (const t of s.transfers.values()) if (t.canceled || (!t.scanning && !open.has(t.id))) done.add(t.id);
  return done;
}

/** Where the work under way starts after a restart: the oldest drop not finished, else the newest drop. Pure. */
export function runStartOf(s: Pick<EngineState, 'transfers' | 'batches'>): string | null {
  const finished = finishedTransfers(s);
  let oldestOpen: string | null = null;
  let newest: string | null = null;
  for (const t of s.transfers.values()) {
    if (newest === null || t.createdAt > newest) newest = t.createdAt;
    if (!finished.has(t.id) && (oldestOpen === null || t.createdAt < oldestOpen)) oldestOpen = t.createdAt;
  }
  return oldestOpen ?? newest;
}

export function emptyState(settings: TransferSettings): EngineState {
  return { files: new Map(), batches: new Map(), transfers: new Map(), settings, paused: false, gateUntil: null, effective: settings.concurrency, okStreak: 0, inFlight: new Set(), runStart: null };
}
