import { ErrorCode } from '../../../shared/api/codes';
import type { TransferSettings } from '../../../shared/ipc/transfer-models';
import type { AppError } from '../../../shared/result';
import { checkUploads, checksumMismatch, NOT_VERIFIED_NOTE, uploadIdOf, type SeenUpload, type SentKey } from './assembly-check';
import { closeAll, finalLabel, placeFile, type OpenBatch } from './batching';
import {
  backoffMs,
  batchIdOf,
  DONE_FILE_STATES,
  fileIdOf,
  finishedTransfers,
  MAX_ATTEMPTS,
  MAX_RESENDS,
  newFileRec,
  OUT_FILE_STATES,
  SENT_FILE_STATES,
  TERMINAL_BATCH_STATES,
  type BatchRec,
  type Command,
  type EngineEvent,
  type EngineState,
  type Excluded,
  type FailureKind,
  type FileRec,
} from './transfer-model';

/**
 * The queue's transitions: state + event → commands. No I/O and no clock: time comes in as `now`, the
 * results of commands come back as events. The state is changed in place (a queue of 100,000 files is not
 * copied per progress event); every record touched is named in `changes`, which is what the engine
 * persists and announces.
 */

/** The code of a create that had nothing left to send. */
export const BATCH_EMPTY = 'BATCH_EMPTY';

/** Files sent in one multipart request at most (a batch of the default 1,000 files goes whole; the local service takes 10,000 parts per body). */
export const MULTIPART_MAX_FILES = 1_000;
/** Bytes of files in one multipart request at most; the rest of a batch's small files go by tus. */
export const MULTIPART_MAX_BYTES = 64 * 1024 * 1024;

export interface Changes {
  files: Set<string>;
  batches: Set<string>;
  transfers: Set<string>;
}

export const noChanges = (): Changes => ({ files: new Set(), batches: new Set(), transfers: new Set() });

export interface Step {
  commands: Command[];
  changes: Changes;
}

export interface Ctx {
  s: EngineState;
  now: number;
  out: Step;
}

export const touchFile = (c: Ctx, f: FileRec) => {
  c.out.changes.files.add(f.id);
  if (f.batchId) c.out.changes.batches.add(f.batchId);
  c.out.changes.transfers.add(f.transferId);
};
export const touchBatch = (c: Ctx, b: BatchRec) => {
  c.out.changes.batches.add(b.id);
  c.out.changes.transfers.add(b.transferId);
};

// ---- pacing ----------------------------------------------------------------------------------------

function backOff(c: Ctx) {
  c.s.effective = Math.max(1, Math.floor(c.s.effective / 2));
  c.s.okStreak = 0;
}

/** One success: after as many successes in a row as requests allowed, allow one more (up to the setting). */
function succeeded(c: Ctx) {
  c.s.okStreak++;
  if (c.s.effective < c.s.settings.concurrency && c.s.okStreak >= c.s.effective) {
    c.s.effective++;
    c.s.okStreak = 0;
  }
}

function gate(c: Ctx, retryInMs: number | undefined) {
  const until = c.now + Math.max(0, retryInMs ?? 1_000);
  c.s.gateUntil = Math.max(c.s.gateUntil ?? 0, until);
}

// ---- batches ----------------------------------------------------------------------------------------

export function newBatch(c: Ctx, transferId: string, open: OpenBatch): BatchRec {
  const batch: BatchRec = {
    id: batchIdOf(transferId, open.seq),
    transferId,
    seq: open.seq,
    label: open.label,
    state: 'queued',
    fileIds: [],
    sealed: false,
    generation: 0,
    ambiguous: false,
    idAttempt: 0,
    runId: null,
    assemblyId: null,
    assemblyUrl: null,
    tusUrl: null,
    assemblyFiles: [],
    multipartFiles: 0,
    attempts: 0,
    retryAt: null,
    error: null,
    userPaused: false,
    assemblyDone: false,
    note: null,
  };
  c.s.batches.set(batch.id, batch);
  touchBatch(c, batch);
  return batch;
}

function seal(c: Ctx, transferId: string, open: OpenBatch) {
  const batch = c.s.batches.get(batchIdOf(transferId, open.seq));
  if (!batch) return;
  batch.sealed = true;
  batch.label = finalLabel(open);
  touchBatch(c, batch);
}

/** A batch that has an Assembly still waiting for uploads. */
export const hasLiveAssembly = (b: BatchRec) => b.assemblyUrl !== null && !b.assemblyDone;

/**
 * The batch's Assembly is dropped and the batch sent again as a new Assembly (a checksum mismatch, or a
 * file canceled that the Assembly was waiting for): every file still part of it is queued from byte 0.
 */
export function recreate(c: Ctx, b: BatchRec, note: string | null) {
  if (hasLiveAssembly(b)) c.out.commands.push({ kind: 'cancel-assembly', batchId: b.id, assemblyUrl: b.assemblyUrl!, runId: b.runId });
  if (c.s.inFlight.delete(`c:${b.id}`)) c.out.commands.push({ kind: 'abort-create', batchId: b.id });
  for (const id of b.fileIds) {
    const f = c.s.files.get(id)!;
    if (c.s.inFlight.delete(`f:${id}`)) c.out.commands.push({ kind: 'abort-file', fileId: id });
    if (OUT_FILE_STATES.has(f.state)) continue;
    const wasSent = f.state !== 'queued' && f.state !== 'paused' && f.state !== 'failed';
    if (f.state !== 'paused' && f.state !== 'failed') f.state = 'queued';
    f.bytesSent = 0;
    f.uploadUrl = null;
    f.md5 = null;
    f.serviceMd5 = null;
    f.method = null;
    f.retryAt = null;
    if (note && wasSent && !f.note) f.note = note;
    touchFile(c, f);
  }
  b.generation++;
  b.idAttempt = 0;
  b.state = 'queued';
  b.ambiguous = false;
  b.runId = null;
  b.assemblyId = null;
  b.assemblyUrl = null;
  b.tusUrl = null;
  b.assemblyFiles = [];
  b.multipartFiles = 0;
  b.assemblyDone = false;
  b.note = null;
  b.attempts = 0;
  b.retryAt = null;
  b.error = null;
  touchBatch(c, b);
}

/** After a file changed: does its batch move on (all uploads delivered → processing; all out → canceled)? */
export function settleBatch(c: Ctx, b: BatchRec) {
  if (TERMINAL_BATCH_STATES.has(b.state)) return;
  const files = b.fileIds.map((id) => c.s.files.get(id)!);
  if (b.sealed && files.every((f) => OUT_FILE_STATES.has(f.state))) {
    if (b.assemblyUrl && !b.assemblyDone) c.out.commands.push({ kind: 'cancel-assembly', batchId: b.id, assemblyUrl: b.assemblyUrl, runId: b.runId });
    b.state = files.every((f) => f.state === 'skipped') ? 'completed' : 'canceled';
    touchBatch(c, b);
    return;
  }
  if (b.state === 'uploading' && b.assemblyFiles.every((id) => SENT_FILE_STATES.has(c.s.files.get(id)!.state))) {
    b.state = b.assemblyDone ? 'completed' : 'processing';
    touchBatch(c, b);
  }
}

// ---- checksums and the invariant -------------------------------------------------------------------

/**
 * Before the Assembly ends: a checksum the service recorded that differs from ours sends the batch again
 * at once (its Assembly canceled, so nothing is processed from bytes that are not the file's). A match
 * proves nothing yet: a file is verified only in its completed Assembly (completeAssembly).
 */
function earlyMismatch(c: Ctx, f: FileRec) {
  if (f.state !== 'uploaded' || !f.md5 || !f.serviceMd5 || f.md5 === f.serviceMd5) return;
  const b = f.batchId ? c.s.batches.get(f.batchId) : undefined;
  if (!b || b.assemblyDone) return;
  f.resends++;
  if (f.resends > MAX_RESENDS) {
    f.state = 'failed';
    f.error = `${checksumMismatch(f.md5, f.serviceMd5)} Sent ${f.resends} times; not sent again.`;
    touchFile(c, f);
    return;
  }
  f.note = `Sent again: the service's checksum did not match (${f.resends}×).`;
  recreate(c, b, 'Sent again with its batch: another file’s checksum did not match.');
}

/**
 * The batch's Assembly ended in an error. ASSEMBLY_CRASHED (the service stopped while it ran: the app quit
 * with its embedded service, a deployment restarted) is no fault of the files: the batch goes again as a
 * new Assembly, bounded like a resend. Any other error fails the batch and each of its files not done,
 * with the reason — never left "Verifying" under an Assembly that ended.
 */
function assemblyFailed(c: Ctx, b: BatchRec, error: AppError) {
  if (error.code === ErrorCode.assemblyCrashed) {
    const again = b.fileIds.map((id) => c.s.files.get(id)!).filter((f) => !OUT_FILE_STATES.has(f.state) && !DONE_FILE_STATES.has(f.state));
    for (const f of again) f.resends++;
    if (again.length > 0 && again.every((f) => f.resends <= MAX_RESENDS)) {
      return recreate(c, b, `Sent again with its batch: ${error.message} (${error.code})`);
    }
  }
  b.state = 'failed';
  b.error = error;
  for (const id of b.assemblyFiles) {
    const f = c.s.files.get(id)!;
    if (c.s.inFlight.delete(`f:${id}`)) c.out.commands.push({ kind: 'abort-file', fileId: id });
    if (!DONE_FILE_STATES.has(f.state) && f.state !== 'canceled') {
      f.state = 'failed';
      f.error = `${error.code}: ${error.message}`;
      touchFile(c, f);
    }
  }
  touchBatch(c, b);
}

/** How a file of the batch's Assembly is found among its uploads. */
function keyOf(b: BatchRec, f: FileRec, index: number): SentKey | null {
  if (index < b.multipartFiles) return { field: `file_${index}` };
  return f.uploadUrl ? { uploadId: uploadIdOf(f.uploadUrl) } : null;
}

/** A file proven in its completed Assembly: done, and remembered for "skip unchanged". */
function verified(c: Ctx, f: FileRec) {
  f.state = 'verified';
  touchFile(c, f);
  c.out.commands.push({ kind: 'remember-verified', fileId: f.id });
}

/**
 * The invariant, when a batch's Assembly completes: every file sent is in its uploads once, with the
 * size and md5 the engine read. Such a file is verified (or, where the deployment records no md5 at all,
 * "not verified", said once for the batch); any other is sent again in a new batch (resendInNewBatch).
 */
function completeAssembly(c: Ctx, b: BatchRec, uploads: readonly SeenUpload[]) {
  const sent: Array<{ f: FileRec; key: SentKey | null }> = [];
  b.assemblyFiles.forEach((id, i) => {
    const f = c.s.files.get(id)!;
    if (f.batchId === b.id && f.state !== 'canceled' && f.state !== 'skipped' && f.state !== 'failed') sent.push({ f, key: keyOf(b, f, i) });
  });
  const checks = checkUploads(sent.map(({ f, key }) => ({ fileId: f.id, key, size: f.size })), uploads, b.assemblyId ?? '');
  const hashing = new Set(c.out.commands.flatMap((cmd) => (cmd.kind === 'hash-file' ? [cmd.fileId] : [])));
  const failures: Array<{ f: FileRec; reason: string }> = [];
  for (const { f } of sent) {
    const check = checks.get(f.id)!;
    if (c.s.inFlight.delete(`f:${f.id}`)) c.out.commands.push({ kind: 'abort-file', fileId: f.id });
    if (check.kind === 'failed') {
      failures.push({ f, reason: check.reason });
      continue;
    }
    if (f.state !== 'uploaded') {
      // The service has it whole, though the engine had not heard its upload end (it stopped meanwhile).
      f.state = 'uploaded';
      f.bytesSent = f.size;
      touchFile(c, f);
    }
    if (check.kind === 'no-checksums') {
      f.state = 'unverified';
      b.note = NOT_VERIFIED_NOTE;
      touchFile(c, f);
      continue;
    }
    f.serviceMd5 = check.md5;
    if (!f.md5) {
      // Ours is not known (the app stopped before it learned the upload ended): read the file again.
      if (!hashing.has(f.id)) c.out.commands.push({ kind: 'hash-file', fileId: f.id });
      continue;
    }
    if (f.md5 === check.md5) verified(c, f);
    else failures.push({ f, reason: checksumMismatch(f.md5, check.md5) });
  }
  b.state = 'completed';
  touchBatch(c, b);
  resendInNewBatch(c, b, failures);
}

/**
 * Files their completed Assembly did not hold intact go again, in a new batch of their own (a new
 * Assembly; the others of the old one stay done), after a backoff. After MAX_RESENDS a file is failed
 * with the reason and stays with its batch.
 */
export function resendInNewBatch(c: Ctx, old: BatchRec, failures: ReadonlyArray<{ f: FileRec; reason: string }>) {
  const again: FileRec[] = [];
  for (const { f, reason } of failures) {
    f.resends++;
    if (f.resends > MAX_RESENDS) {
      f.state = 'failed';
      f.error = `${reason} Sent ${f.resends} times; not sent again.`;
      touchFile(c, f);
    } else {
      f.note = `Sent again in a new Assembly: ${reason}`;
      again.push(f);
    }
  }
  const t = c.s.transfers.get(old.transferId);
  if (again.length === 0 || !t) return;
  const seq = t.batcher.nextSeq;
  t.batcher = { ...t.batcher, nextSeq: seq + 1 };
  const bytes = again.reduce((n, f) => n + f.size, 0);
  const nb = newBatch(c, t.id, { seq, group: '', label: `${old.label.replace(/ \(sent again\)$/, '')} (sent again)`, files: again.length, bytes, firstIndex: 0 });
  nb.sealed = true;
  nb.retryAt = c.now + backoffMs(Math.max(...again.map((f) => f.resends)));
  const moved = new Set(again.map((f) => f.id));
  old.fileIds = old.fileIds.filter((id) => !moved.has(id));
  old.assemblyFiles = old.assemblyFiles.filter((id) => !moved.has(id));
  touchBatch(c, old);
  for (const f of again) {
    f.batchId = nb.id;
    f.state = 'queued';
    f.bytesSent = 0;
    f.uploadUrl = null;
    f.md5 = null;
    f.serviceMd5 = null;
    f.method = null;
    f.retryAt = null;
    f.error = null;
    nb.fileIds.push(f.id);
    touchFile(c, f);
  }
  c.out.changes.transfers.add(t.id);
}

// ---- events -----------------------------------------------------------------------------------------

function applyExcluded(c: Ctx, excluded: Excluded[]) {
  for (const x of excluded) {
    const f = c.s.files.get(x.fileId);
    if (!f) continue;
    f.state = x.state;
    if (x.state === 'failed') f.error = x.reason;
    else f.note = x.reason;
    f.method = null;
    touchFile(c, f);
  }
}

/** A file that arrived is no longer "Retrying: connect ECONNREFUSED": that note was about the way there. */
function clearRetrying(f: FileRec) {
  if (f.note?.startsWith('Retrying')) f.note = null;
}

function fileFailed(c: Ctx, f: FileRec, error: string, failure: FailureKind, retryInMs?: number) {
  if (failure === 'rate-limit') {
    gate(c, retryInMs);
    f.state = 'queued';
  } else if (failure === 'transient') {
    backOff(c);
    f.attempts++;
    if (f.attempts >= MAX_ATTEMPTS) {
      f.state = 'failed';
      f.error = `${error} (after ${f.attempts} attempts)`;
    } else {
      f.state = 'queued';
      f.retryAt = c.now + backoffMs(f.attempts);
      f.note = `Retrying: ${error}`;
    }
  } else {
    f.attempts++;
    f.state = 'failed';
    f.error = error;
  }
  touchFile(c, f);
}

export function reduce(s: EngineState, event: EngineEvent, now: number): Step {
  const c: Ctx = { s, now, out: { commands: [], changes: noChanges() } };
  switch (event.kind) {
    case 'transfer-started': {
      // Started while nothing else runs: a new run of work begins (the totals leave the finished drops out).
      const finished = finishedTransfers(s);
      if ([...s.transfers.keys()].every((id) => finished.has(id))) s.runStart = event.transfer.createdAt;
      s.transfers.set(event.transfer.id, { ...event.transfer, scanning: true, userPaused: false, canceled: false, batcher: { open: {}, nextSeq: 0, placed: {}, parts: {} }, nextFile: 0 });
      c.out.changes.transfers.add(event.transfer.id);
      break;
    }
    case 'files-added': {
      const t = s.transfers.get(event.transferId);
      if (!t || t.canceled) break;
      for (const input of event.files) {
        const placement = placeFile(t.batcher, input, t.batching, t.limits, t.label);
        t.batcher = placement.state;
        const batch = s.batches.get(batchIdOf(t.id, placement.batch.seq)) ?? newBatch(c, t.id, placement.batch);
        const f = newFileRec(fileIdOf(t.id, t.nextFile++), t.id, batch.id, input);
        s.files.set(f.id, f);
        batch.fileIds.push(f.id);
        touchFile(c, f);
        for (const closed of placement.closed) seal(c, t.id, closed);
      }
      break;
    }
    case 'scan-ended': {
      const t = s.transfers.get(event.transferId);
      if (!t) break;
      t.scanning = false;
      const { state, closed } = closeAll(t.batcher);
      t.batcher = state;
      for (const open of closed) seal(c, t.id, open);
      c.out.changes.transfers.add(t.id);
      break;
    }
    case 'tick':
      break;
    case 'batch-created': {
      const b = s.batches.get(event.batchId);
      if (!b || b.generation !== event.generation || !s.inFlight.delete(`c:${b.id}`)) {
        // An answer for a create that was abandoned (the batch was canceled or re-created meanwhile).
        c.out.commands.push({ kind: 'cancel-assembly', batchId: event.batchId, assemblyUrl: event.assemblyUrl, runId: event.runId });
        break;
      }
      succeeded(c);
      applyExcluded(c, event.excluded);
      b.ambiguous = false;
      if (event.idAttempt !== undefined) b.idAttempt = Math.max(b.idAttempt, event.idAttempt);
      b.assemblyId = event.assemblyId;
      b.assemblyUrl = event.assemblyUrl;
      b.tusUrl = event.tusUrl;
      b.runId = event.runId;
      b.assemblyDone = event.terminal;
      b.assemblyFiles = [...event.delivered.map((d) => d.fileId), ...event.tus];
      b.multipartFiles = event.delivered.length;
      b.note = null;
      b.state = 'uploading';
      b.error = null;
      touchBatch(c, b);
      for (const id of event.tus) {
        const f = s.files.get(id)!;
        f.method = 'tus';
        touchFile(c, f);
      }
      let mismatch = false;
      for (const d of event.delivered) {
        const f = s.files.get(d.fileId)!;
        f.state = 'uploaded';
        clearRetrying(f);
        f.method = 'multipart';
        f.bytesSent = f.size;
        f.md5 = d.md5;
        f.serviceMd5 = d.serviceMd5;
        touchFile(c, f);
        if (d.serviceMd5 && d.serviceMd5 !== d.md5) mismatch = true;
      }
      if (event.terminal && event.error) {
        assemblyFailed(c, b, event.error);
        break;
      }
      if (event.terminal) {
        completeAssembly(c, b, event.uploads ?? []);
        break;
      }
      if (mismatch) {
        for (const d of event.delivered) {
          earlyMismatch(c, s.files.get(d.fileId)!);
          if (b.generation !== event.generation) break; // re-created: the others go again with it
        }
        break;
      }
      settleBatch(c, b);
      break;
    }
    case 'batch-create-failed': {
      const b = s.batches.get(event.batchId);
      if (!b || b.generation !== event.generation || !s.inFlight.delete(`c:${b.id}`)) break;
      applyExcluded(c, event.excluded);
      // Ids found spent stay spent: the next attempt starts past them.
      if (event.idAttempt !== undefined) b.idAttempt = Math.max(b.idAttempt, event.idAttempt);
      for (const id of b.fileIds) {
        const f = s.files.get(id)!;
        if (f.state === 'uploading') {
          f.state = 'queued';
          f.bytesSent = 0;
          touchFile(c, f);
        }
      }
      b.ambiguous = event.ambiguous;
      if (event.error.code === BATCH_EMPTY) {
        // Nothing left to send: every file was unreadable, unchanged or canceled.
        const files = b.fileIds.map((id) => s.files.get(id)!);
        b.state = files.some((f) => f.state === 'failed') ? 'failed' : files.every((f) => f.state === 'skipped') ? 'completed' : 'canceled';
        if (b.state === 'failed') b.error = event.error;
        touchBatch(c, b);
        break;
      }
      if (event.failure === 'rate-limit') {
        gate(c, event.retryInMs);
        b.state = 'queued';
      } else if (event.failure === 'transient' && b.attempts + 1 < MAX_ATTEMPTS) {
        backOff(c);
        b.attempts++;
        b.state = 'queued';
        b.retryAt = now + backoffMs(b.attempts);
        b.error = event.error;
      } else {
        b.attempts++;
        b.state = 'failed';
        b.error = event.error;
        for (const id of b.fileIds) {
          const f = s.files.get(id)!;
          if (f.state === 'queued' || f.state === 'paused') {
            f.state = 'failed';
            f.error = `${event.error.code}: ${event.error.message}`;
            touchFile(c, f);
          }
        }
      }
      touchBatch(c, b);
      break;
    }
    case 'file-progress': {
      const f = s.files.get(event.fileId);
      if (!f || f.state !== 'uploading') break;
      f.bytesSent = Math.min(f.size, event.bytes);
      touchFile(c, f);
      break;
    }
    case 'files-progress': {
      for (const [id, bytes] of event.entries) {
        const f = s.files.get(id);
        if (!f || f.state !== 'uploading' || f.bytesSent === bytes) continue;
        f.bytesSent = Math.min(f.size, bytes);
        touchFile(c, f);
      }
      break;
    }
    case 'tus-url': {
      const f = s.files.get(event.fileId);
      if (!f || OUT_FILE_STATES.has(f.state)) break;
      f.uploadUrl = event.url;
      touchFile(c, f);
      break;
    }
    case 'file-uploaded': {
      const f = s.files.get(event.fileId);
      if (!f || !s.inFlight.delete(`f:${f.id}`)) break;
      succeeded(c);
      f.state = 'uploaded';
      f.bytesSent = f.size;
      f.md5 = event.md5;
      f.retryAt = null;
      clearRetrying(f);
      touchFile(c, f);
      const b = f.batchId ? s.batches.get(f.batchId) : undefined;
      earlyMismatch(c, f);
      if (b) settleBatch(c, b);
      break;
    }
    case 'file-failed': {
      const f = s.files.get(event.fileId);
      if (!f || !s.inFlight.delete(`f:${f.id}`) || f.state !== 'uploading') break;
      fileFailed(c, f, event.error, event.failure, event.retryInMs);
      break;
    }
    case 'file-hashed': {
      const f = s.files.get(event.fileId);
      if (!f || f.state !== 'uploaded') break;
      f.md5 = event.md5;
      touchFile(c, f);
      const b = f.batchId ? s.batches.get(f.batchId) : undefined;
      if (!b?.assemblyDone || b.state !== 'completed') {
        earlyMismatch(c, f);
      } else if (f.serviceMd5 === f.md5) {
        verified(c, f);
      } else if (f.serviceMd5) {
        resendInNewBatch(c, b, [{ f, reason: checksumMismatch(f.md5, f.serviceMd5) }]);
      }
      break;
    }
    case 'assembly-status': {
      const b = s.batches.get(event.batchId);
      if (!b || b.assemblyUrl === null) break;
      const generation = b.generation;
      for (const check of event.checks) {
        const f = s.files.get(check.fileId);
        if (!f || f.batchId !== b.id) continue;
        if (check.delivered && !SENT_FILE_STATES.has(f.state) && !OUT_FILE_STATES.has(f.state)) {
          // The service has it whole (the app stopped before it learned so): trust the service, hash ours.
          if (s.inFlight.delete(`f:${f.id}`)) c.out.commands.push({ kind: 'abort-file', fileId: f.id });
          f.state = 'uploaded';
          f.bytesSent = f.size;
          clearRetrying(f);
          touchFile(c, f);
          if (!f.md5) c.out.commands.push({ kind: 'hash-file', fileId: f.id });
        }
        if (!check.serviceMd5) continue;
        f.serviceMd5 = check.serviceMd5;
        // At the end the whole Assembly is checked at once (completeAssembly).
        if (event.terminal) continue;
        earlyMismatch(c, f);
        if (b.generation !== generation) return c.out; // re-created after a mismatch
      }
      if (!event.terminal) {
        settleBatch(c, b);
      } else if (TERMINAL_BATCH_STATES.has(b.state)) {
        // Already ended here (the user canceled it): its Assembly's last status changes nothing.
        b.assemblyDone = true;
      } else {
        b.assemblyDone = true;
        if (event.error) {
          assemblyFailed(c, b, event.error);
        } else {
          completeAssembly(c, b, event.uploads ?? []);
        }
      }
      break;
    }
    case 'settings': {
      const old = s.settings.concurrency;
      s.settings = event.settings;
      const next = event.settings.concurrency;
      // Lowered: at once. Raised: at once too, unless the engine is backing off (then it probes up to it).
      s.effective = next < old || s.effective >= old ? next : Math.min(s.effective, next);
      break;
    }
  }
  return c.out;
}

// ---- scheduling -------------------------------------------------------------------------------------

const transferBlocked = (s: EngineState, transferId: string) => {
  const t = s.transfers.get(transferId);
  return !t || t.userPaused || t.canceled;
};

/** Split a batch's files between the create request (multipart) and tus. Paused files go by tus (they may start later). */
export function splitMethods(files: readonly FileRec[], settings: TransferSettings): { multipart: string[]; tus: string[] } {
  const multipart: string[] = [];
  const tus: string[] = [];
  let bytes = 0;
  for (const f of files) {
    const small = settings.multipartMaxFileBytes > 0 && f.size <= settings.multipartMaxFileBytes && f.state === 'queued';
    if (small && multipart.length < MULTIPART_MAX_FILES && bytes + f.size <= MULTIPART_MAX_BYTES) {
      multipart.push(f.id);
      bytes += f.size;
    } else {
      tus.push(f.id);
    }
  }
  return { multipart, tus };
}

/** Start what may start now: tus uploads of batches whose Assembly exists first, then new Assemblies. */
export function pump(s: EngineState, now: number): Step {
  const c: Ctx = { s, now, out: { commands: [], changes: noChanges() } };
  if (s.paused) return c.out;
  if (s.gateUntil !== null) {
    if (now < s.gateUntil) return c.out;
    s.gateUntil = null;
  }
  let slots = s.effective - s.inFlight.size;
  for (const b of s.batches.values()) {
    if (slots <= 0) break;
    if (b.state !== 'uploading' || b.userPaused || transferBlocked(s, b.transferId)) continue;
    for (const id of b.assemblyFiles) {
      if (slots <= 0) break;
      const f = s.files.get(id)!;
      if (f.state !== 'queued' || (f.retryAt !== null && f.retryAt > now)) continue;
      f.state = 'uploading';
      f.method = 'tus';
      s.inFlight.add(`f:${id}`);
      c.out.commands.push({ kind: 'upload-tus', fileId: id, batchId: b.id });
      touchFile(c, f);
      slots--;
    }
  }
  for (const b of s.batches.values()) {
    if (slots <= 0) break;
    if (b.state !== 'queued' || !b.sealed || b.userPaused || transferBlocked(s, b.transferId)) continue;
    if (b.retryAt !== null && b.retryAt > now) continue;
    const files = b.fileIds.map((id) => s.files.get(id)!).filter((f) => f.state === 'queued' || f.state === 'paused' || f.state === 'failed');
    if (files.length === 0) {
      settleBatch(c, b);
      continue;
    }
    // A failed file is re-tried with its batch's new Assembly only when the user asked (it is queued then).
    const sendable = files.filter((f) => f.state !== 'failed');
    if (sendable.length === 0) continue;
    const t = s.transfers.get(b.transferId)!;
    const { multipart, tus } = splitMethods(sendable, t.multipartMaxFileBytes === null ? s.settings : { ...s.settings, multipartMaxFileBytes: t.multipartMaxFileBytes });
    b.state = 'creating';
    b.retryAt = null;
    s.inFlight.add(`c:${b.id}`);
    for (const id of multipart) {
      const f = s.files.get(id)!;
      f.state = 'uploading';
      f.method = 'multipart';
      touchFile(c, f);
    }
    c.out.commands.push({ kind: 'create-batch', batchId: b.id, generation: b.generation, idAttempt: b.idAttempt, multipart, tus, lookFirst: b.ambiguous });
    touchBatch(c, b);
    slots--;
  }
  return c.out;
}

/** When the next backoff or gate ends (the engine wakes then), or null. */
export function nextWake(s: EngineState, now: number): number | null {
  let next: number | null = s.gateUntil !== null && s.gateUntil > now ? s.gateUntil : null;
  const consider = (t: number | null) => {
    if (t !== null && t > now && (next === null || t < next)) next = t;
  };
  for (const b of s.batches.values()) {
    if (b.state === 'queued') consider(b.retryAt);
    if (b.state !== 'uploading') continue;
    for (const id of b.assemblyFiles) {
      const f = s.files.get(id)!;
      if (f.state === 'queued') consider(f.retryAt);
    }
  }
  return next;
}

/**
 * After a restart: nothing is in flight. Uploads resume from their stored tus URL (the server's offset);
 * a create request that was on the wire may have created its Assembly, so its marker is looked for first.
 */
export function restored(s: EngineState): Changes {
  const changes = noChanges();
  s.inFlight.clear();
  for (const b of s.batches.values()) {
    if (b.state === 'creating') {
      b.state = 'queued';
      b.ambiguous = true;
      changes.batches.add(b.id);
    }
  }
  for (const f of s.files.values()) {
    if (f.state !== 'uploading') continue;
    f.state = 'queued';
    if (f.method === 'multipart') f.bytesSent = 0;
    changes.files.add(f.id);
  }
  return changes;
}

export type { AppError };
