import type { CancelCost, TransferAction, TransferScope } from '../../../shared/ipc/transfer-models';
import { SENT_FILE_STATES, OUT_FILE_STATES, TERMINAL_BATCH_STATES, type BatchRec, type EngineState, type FileRec } from './transfer-model';
import { hasLiveAssembly, newBatch, noChanges, recreate, settleBatch, touchBatch, touchFile, type Ctx, type Step } from './transfer-state';

/**
 * Pause, resume, cancel and retry, per file, batch, transfer or everything: pure transitions like those of
 * transfer-state.ts (no I/O; the commands they answer with abort requests and cancel Assemblies).
 */

function scopeFiles(s: EngineState, scope: TransferScope): FileRec[] {
  switch (scope.kind) {
    case 'all':
      return [...s.files.values()];
    case 'transfer':
      return [...s.files.values()].filter((f) => f.transferId === scope.id);
    case 'batch':
      return (s.batches.get(scope.id)?.fileIds ?? []).map((id) => s.files.get(id)!);
    case 'files':
      return scope.ids.map((id) => s.files.get(id)).filter((f): f is FileRec => f !== undefined);
  }
}

function scopeBatches(s: EngineState, scope: TransferScope): BatchRec[] {
  switch (scope.kind) {
    case 'all':
      return [...s.batches.values()];
    case 'transfer':
      return [...s.batches.values()].filter((b) => b.transferId === scope.id);
    case 'batch': {
      const b = s.batches.get(scope.id);
      return b ? [b] : [];
    }
    case 'files':
      return [];
  }
}

function pauseFile(c: Ctx, f: FileRec): boolean {
  if (f.state === 'queued') {
    f.state = 'paused';
  } else if (f.state === 'uploading' && f.method === 'tus') {
    // The server keeps the offset: resume continues from there.
    c.s.inFlight.delete(`f:${f.id}`);
    c.out.commands.push({ kind: 'abort-file', fileId: f.id });
    f.state = 'paused';
  } else {
    return false; // delivered, failed, or inside a create request already on the wire
  }
  touchFile(c, f);
  return true;
}

/**
 * Abandon a batch's create request on the wire (the engine aborts it): the batch is queued again under a new
 * generation (a new marker), its files in that request become `to`. Looking for the old marker would adopt
 * an Assembly the abandoned request may have made, with files it should not carry; a late answer of that
 * request is for an old generation, and the Assembly it made is canceled.
 */
function abandonCreate(c: Ctx, b: BatchRec, to: 'queued' | 'paused'): number {
  if (b.state !== 'creating' || !c.s.inFlight.delete(`c:${b.id}`)) return 0;
  c.out.commands.push({ kind: 'abort-create', batchId: b.id });
  b.state = 'queued';
  b.generation++;
  b.idAttempt = 0;
  b.ambiguous = false;
  touchBatch(c, b);
  let n = 0;
  for (const id of b.fileIds) {
    const f = c.s.files.get(id)!;
    if (f.state !== 'uploading') continue;
    f.state = to;
    f.bytesSent = 0;
    touchFile(c, f);
    n++;
  }
  return n;
}

function cancelFile(c: Ctx, f: FileRec): boolean {
  if (SENT_FILE_STATES.has(f.state) || f.state === 'canceled') return false;
  if (c.s.inFlight.delete(`f:${f.id}`)) c.out.commands.push({ kind: 'abort-file', fileId: f.id });
  const b = f.batchId ? c.s.batches.get(f.batchId) : undefined;
  // A create request on the wire names the file (in its body, or announced for tus): that request is
  // abandoned and the batch created again without it.
  if (b && b.state === 'creating') abandonCreate(c, b, 'queued');
  f.state = 'canceled';
  f.retryAt = null;
  touchFile(c, f);
  return true;
}

/** Put a failed or canceled file back in the queue: in its batch while that can still take it, else in a new batch. */
function retryFile(c: Ctx, f: FileRec): boolean {
  if (f.state !== 'failed' && f.state !== 'canceled') return false;
  const b = f.batchId ? c.s.batches.get(f.batchId) : undefined;
  const t = c.s.transfers.get(f.transferId);
  if (t) t.canceled = false;
  f.state = 'queued';
  f.error = null;
  f.attempts = 0;
  f.retryAt = null;
  touchFile(c, f);
  if (!b) return true;
  const waitedFor = b.assemblyFiles.includes(f.id) && hasLiveAssembly(b);
  const notCreated = b.assemblyUrl === null && !TERMINAL_BATCH_STATES.has(b.state);
  if (waitedFor || notCreated) return true;
  // Its Assembly does not expect it (any more): the file goes in a batch of its own.
  if (t) {
    const seq = t.batcher.nextSeq;
    t.batcher = { ...t.batcher, nextSeq: seq + 1 };
    const retry = newBatch(c, t.id, { seq, group: '', label: `${b.label} (retry)`, files: 0, bytes: 0, firstIndex: 0 });
    retry.sealed = true;
    b.fileIds = b.fileIds.filter((id) => id !== f.id);
    touchBatch(c, b);
    retry.fileIds.push(f.id);
    f.batchId = retry.id;
    f.bytesSent = 0;
    f.uploadUrl = null;
    f.method = null;
    touchFile(c, f);
  }
  return true;
}

/** Files that canceling would stop (not done, not already out). */
const cancelable = (f: FileRec) => !SENT_FILE_STATES.has(f.state) && f.state !== 'canceled';

/**
 * What canceling these files costs the rest of their batches: a batch whose Assembly exists (or whose
 * create request is on the wire) and waits for one of them is created again without it, and its other
 * files go again from 0 B. Empty when nothing would be sent again, nor an Assembly canceled. Pure.
 */
export function cancelCost(s: EngineState, scope: TransferScope): CancelCost {
  if (scope.kind !== 'files') return { batches: [] };
  const chosen = new Set(scopeFiles(s, scope).filter(cancelable).map((f) => f.id));
  const byBatch = new Map<string, BatchRec>();
  for (const id of chosen) {
    const b = s.files.get(id)!.batchId;
    const batch = b ? s.batches.get(b) : undefined;
    if (batch && !TERMINAL_BATCH_STATES.has(batch.state)) byBatch.set(batch.id, batch);
  }
  const out: CancelCost = { batches: [] };
  for (const b of byBatch.values()) {
    const creating = b.state === 'creating' && s.inFlight.has(`c:${b.id}`);
    const waitedFor = hasLiveAssembly(b) && b.assemblyFiles.some((id) => chosen.has(id));
    if (!creating && !waitedFor) continue;
    const rest = b.fileIds.map((id) => s.files.get(id)!).filter((f) => !chosen.has(f.id) && !OUT_FILE_STATES.has(f.state));
    // Every file out: the batch (and its Assembly) is simply canceled, as the user asked.
    if (rest.length === 0) continue;
    // A create on the wire loses what its body carried so far; an Assembly that exists, everything sent to it.
    const lost = rest.filter((f) => f.bytesSent > 0 || SENT_FILE_STATES.has(f.state));
    if (creating && lost.length === 0) continue;
    const t = s.transfers.get(b.transferId);
    out.batches.push({
      batchId: b.id,
      label: b.label,
      transferLabel: t?.label ?? '',
      assemblyId: waitedFor ? b.assemblyId : null,
      resendFiles: lost.length,
      resendBytes: lost.reduce((n, f) => n + f.size, 0),
      lostBytes: lost.reduce((n, f) => n + (SENT_FILE_STATES.has(f.state) ? f.size : f.bytesSent), 0),
      files: lost.slice(0, 20).map((f) => ({ relativePath: f.relativePath, size: f.size, bytesSent: SENT_FILE_STATES.has(f.state) ? f.size : f.bytesSent, done: SENT_FILE_STATES.has(f.state) })),
    });
  }
  return out;
}

/**
 * Pause, resume, cancel or retry a scope. Answers how many files changed (not the flags of the queue or a
 * batch: "Resumed: 3 files" for 3 files).
 * Canceling files whose batch would be sent again (`cancelCost`) is done only with `resend`; without it
 * nothing changes and the cost is answered for the user to decide.
 */
export function control(s: EngineState, action: TransferAction, scope: TransferScope, now: number, options: { resend?: boolean } = {}): Step & { affected: number; confirm?: CancelCost } {
  const c: Ctx = { s, now, out: { commands: [], changes: noChanges() } };
  if (action === 'cancel' && !options.resend) {
    const cost = cancelCost(s, scope);
    if (cost.batches.length > 0) return { ...c.out, affected: 0, confirm: cost };
  }
  let affected = 0;
  const files = scopeFiles(s, scope);
  const batches = scopeBatches(s, scope);
  const transfers = scope.kind === 'all' ? [...s.transfers.values()] : scope.kind === 'transfer' ? [s.transfers.get(scope.id)].filter((t) => t !== undefined) : [];

  if (action === 'pause') {
    // The queue's and batches' own flags are not files: the answer (and "Paused: N files") counts files.
    if (scope.kind === 'all' && !s.paused) s.paused = true;
    for (const t of transfers) {
      if (t.userPaused) continue;
      t.userPaused = true;
      c.out.changes.transfers.add(t.id);
    }
    for (const b of scope.kind === 'batch' ? batches : []) {
      if (b.userPaused) continue;
      b.userPaused = true;
      touchBatch(c, b);
    }
    // A create request on the wire stops too: its files show Paused at once, and the batch is created
    // again (those bytes sent again) on resume. Pausing single files leaves such a request alone.
    for (const b of batches) affected += abandonCreate(c, b, 'paused');
    for (const f of files) if (pauseFile(c, f)) affected++;
  } else if (action === 'resume') {
    if (scope.kind === 'all' && s.paused) s.paused = false;
    for (const t of transfers) {
      if (!t.userPaused) continue;
      t.userPaused = false;
      c.out.changes.transfers.add(t.id);
    }
    for (const b of batches) {
      if (!b.userPaused) continue;
      b.userPaused = false;
      touchBatch(c, b);
    }
    for (const f of files) {
      if (f.state !== 'paused') continue;
      f.state = 'queued';
      f.retryAt = null;
      touchFile(c, f);
      affected++;
    }
  } else if (action === 'cancel') {
    for (const t of transfers) {
      if (t.canceled) continue;
      t.canceled = true;
      c.out.changes.transfers.add(t.id);
    }
    const touched = new Set<BatchRec>();
    for (const f of files) {
      if (!cancelFile(c, f)) continue;
      affected++;
      const b = f.batchId ? s.batches.get(f.batchId) : undefined;
      if (b) touched.add(b);
    }
    for (const b of batches) {
      if (TERMINAL_BATCH_STATES.has(b.state)) continue;
      if (b.assemblyUrl && !b.assemblyDone) c.out.commands.push({ kind: 'cancel-assembly', batchId: b.id, assemblyUrl: b.assemblyUrl, runId: b.runId });
      b.state = 'canceled';
      b.userPaused = false;
      touchBatch(c, b);
      touched.delete(b);
    }
    for (const b of touched) {
      // The Assembly waits for exactly the uploads it was created for: without a canceled one it would wait
      // until it expires, so it is created again without it.
      const waitedFor = hasLiveAssembly(b) && b.assemblyFiles.some((id) => s.files.get(id)!.state === 'canceled');
      const rest = b.fileIds.some((id) => !OUT_FILE_STATES.has(s.files.get(id)!.state));
      if (waitedFor && rest) recreate(c, b, 'Sent again (you agreed): its Assembly was created again without the canceled files.');
      else settleBatch(c, b);
    }
  } else {
    for (const t of transfers) {
      if (!t.canceled) continue;
      t.canceled = false;
      c.out.changes.transfers.add(t.id);
    }
    for (const b of batches) {
      if (b.state !== 'failed' && b.state !== 'canceled') continue;
      for (const id of b.fileIds) {
        const f = s.files.get(id)!;
        if (f.state === 'failed' || f.state === 'canceled') {
          f.state = 'queued';
          f.error = null;
          f.attempts = 0;
          touchFile(c, f);
          affected++;
        }
      }
      recreate(c, b, null);
      b.sealed = true;
    }
    for (const f of files) if (retryFile(c, f)) affected++;
  }
  return { ...c.out, affected };
}

