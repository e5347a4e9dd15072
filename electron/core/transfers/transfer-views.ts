import type {
  BatchState,
  CurrentWork,
  Transfer,
  TransferBatch,
  TransferRow,
  TransferRowsPage,
  TransferRowsQuery,
  TransferTotals,
} from '../../../shared/ipc/transfer-models';
import { DONE_FILE_STATES, finishedTransfers, SENT_FILE_STATES, TERMINAL_BATCH_STATES, type BatchRec, type EngineState, type FileRec, type TransferRec } from './transfer-model';

/** What the renderer sees of the engine's records. Pure. */

export const toRow = (f: FileRec): TransferRow => ({
  id: f.id,
  transferId: f.transferId,
  batchId: f.batchId,
  relativePath: f.relativePath,
  size: f.size,
  bytesSent: f.bytesSent,
  state: f.state,
  method: f.method,
  attempts: f.attempts,
  error: f.error,
  note: f.note,
});

function batchState(b: BatchRec, s: EngineState): BatchState {
  const t = s.transfers.get(b.transferId);
  const paused = b.userPaused || t?.userPaused || s.paused;
  if (paused && (b.state === 'queued' || b.state === 'uploading')) return 'paused';
  return b.state;
}

export function toBatch(b: BatchRec, s: EngineState): TransferBatch {
  let filesDone = 0;
  let filesFailed = 0;
  let bytesTotal = 0;
  let bytesSent = 0;
  for (const id of b.fileIds) {
    const f = s.files.get(id)!;
    if (DONE_FILE_STATES.has(f.state)) filesDone++;
    if (f.state === 'failed') filesFailed++;
    bytesTotal += f.size;
    bytesSent += f.bytesSent;
  }
  return {
    id: b.id,
    transferId: b.transferId,
    label: b.label,
    // People count Assemblies from 1 (the queue's own seq starts at 0).
    seq: b.seq + 1,
    state: batchState(b, s),
    runId: b.runId,
    assemblyId: b.assemblyId,
    filesTotal: b.fileIds.length,
    filesDone,
    filesFailed,
    bytesTotal,
    bytesSent,
    error: b.error,
    note: b.note ?? null,
  };
}

/** Files of a batch the service has (verified or still verifying). */
export function filesSentOf(b: BatchRec | undefined, s: EngineState): number {
  let n = 0;
  for (const id of b?.fileIds ?? []) if (SENT_FILE_STATES.has(s.files.get(id)!.state)) n++;
  return n;
}

export function toTransfer(t: TransferRec, s: EngineState): Transfer {
  let batchCount = 0;
  let filesTotal = 0;
  let filesDone = 0;
  let filesFailed = 0;
  let bytesTotal = 0;
  let bytesSent = 0;
  let allDone = true;
  for (const b of s.batches.values()) {
    if (b.transferId !== t.id) continue;
    batchCount++;
    if (!TERMINAL_BATCH_STATES.has(b.state)) allDone = false;
    for (const id of b.fileIds) {
      const f = s.files.get(id)!;
      filesTotal++;
      if (DONE_FILE_STATES.has(f.state)) filesDone++;
      if (f.state === 'failed') filesFailed++;
      bytesTotal += f.size;
      bytesSent += f.bytesSent;
    }
  }
  const state: Transfer['state'] = t.canceled ? 'canceled' : !t.scanning && allDone ? 'done' : t.userPaused || s.paused ? 'paused' : 'active';
  return { id: t.id, workspaceId: t.workspaceId, createdAt: t.createdAt, label: t.label, scanning: t.scanning, state, recipe: t.recipe ?? null, batchCount, filesTotal, filesDone, filesFailed, bytesTotal, bytesSent };
}

/** The drops the totals bar counts: those started since the queue was last idle, and any not finished. */
export function currentTransfers(s: EngineState): Set<string> {
  const finished = finishedTransfers(s);
  const out = new Set<string>();
  for (const t of s.transfers.values()) if (!finished.has(t.id) || (s.runStart !== null && t.createdAt >= s.runStart)) out.add(t.id);
  return out;
}

export function totalsOf(s: EngineState, speedBps: number, etaSeconds: number | null): TransferTotals {
  const totals: TransferTotals = {
    filesTotal: 0,
    filesQueued: 0,
    filesActive: 0,
    filesDone: 0,
    filesFailed: 0,
    filesCanceled: 0,
    filesSkipped: 0,
    bytesTotal: 0,
    bytesSent: 0,
    speedBps,
    etaSeconds,
    paused: s.paused,
    waitingUntil: s.gateUntil !== null ? new Date(s.gateUntil).toISOString() : null,
    effectiveConcurrency: s.effective,
    current: { transfers: 0, filesTotal: 0, filesDone: 0, filesFailed: 0, filesCanceled: 0, filesSkipped: 0, filesSent: 0, filesLeft: 0, bytesTotal: 0, bytesSent: 0 },
  };
  const inCurrent = currentTransfers(s);
  const cur: CurrentWork = totals.current;
  cur.transfers = inCurrent.size;
  for (const f of s.files.values()) {
    totals.filesTotal++;
    if (inCurrent.has(f.transferId)) countCurrent(cur, f);
    // Bytes of what is meant to go: a canceled file's bytes would keep the bar short of 100 % at "Done".
    if (f.state !== 'canceled') {
      totals.bytesTotal += f.size;
      totals.bytesSent += f.bytesSent;
    }
    switch (f.state) {
      case 'queued':
      case 'paused':
        totals.filesQueued++;
        break;
      // Verifying: its bytes are in, its Assembly has not answered yet. Active (the filter shows it there).
      case 'uploading':
      case 'uploaded':
        totals.filesActive++;
        break;
      case 'verified':
      case 'unverified':
        totals.filesDone++;
        break;
      case 'failed':
        totals.filesFailed++;
        break;
      case 'canceled':
        totals.filesCanceled++;
        break;
      case 'skipped':
        totals.filesSkipped++;
        break;
    }
  }
  return totals;
}

function countCurrent(cur: CurrentWork, f: FileRec) {
  cur.filesTotal++;
  if (f.state === 'canceled') {
    cur.filesCanceled++;
    return;
  }
  cur.bytesTotal += f.size;
  cur.bytesSent += f.bytesSent;
  if (f.state === 'skipped') cur.filesSkipped++;
  else if (DONE_FILE_STATES.has(f.state)) cur.filesDone++;
  else if (f.state === 'failed') cur.filesFailed++;
  else cur.filesLeft++;
  if (SENT_FILE_STATES.has(f.state) || (f.state === 'uploading' && f.bytesSent >= f.size)) cur.filesSent++;
}

/** Batches in the list's order: the newest drop first, each drop's Assemblies in their order. */
export function batchesInOrder(s: EngineState): BatchRec[] {
  const byTransfer = new Map<string, BatchRec[]>();
  for (const b of s.batches.values()) {
    const list = byTransfer.get(b.transferId);
    if (list) list.push(b);
    else byTransfer.set(b.transferId, [b]);
  }
  const transfers = [...s.transfers.values()];
  const out: BatchRec[] = [];
  for (let i = transfers.length - 1; i >= 0; i--) {
    const list = byTransfer.get(transfers[i]!.id);
    if (list) out.push(...list.sort((a, b) => a.seq - b.seq));
  }
  return out;
}

/**
 * A page of rows: ordered by batch (then path), filtered, with where each batch's rows start. Rows of a
 * batch are sorted once and the order cached until the batch changes (`sortedCache`).
 */
export function queryRows(s: EngineState, q: TransferRowsQuery, sortedCache: Map<string, { version: number; ids: string[] }>, versionOf: (batchId: string) => number): TransferRowsPage {
  const search = q.search?.toLowerCase() ?? '';
  const states = q.states ? new Set(q.states) : null;
  const groups: TransferRowsPage['groups'] = [];
  const rows: TransferRow[] = [];
  let total = 0;
  for (const b of batchesInOrder(s)) {
    if (q.transferId && b.transferId !== q.transferId) continue;
    if (q.batchId && b.id !== q.batchId) continue;
    const version = versionOf(b.id);
    let cached = sortedCache.get(b.id);
    if (!cached || cached.version !== version || cached.ids.length !== b.fileIds.length) {
      const ids = [...b.fileIds].sort((x, y) => {
        const a = s.files.get(x)!.relativePath;
        const c = s.files.get(y)!.relativePath;
        return a < c ? -1 : a > c ? 1 : 0;
      });
      cached = { version, ids };
      sortedCache.set(b.id, cached);
    }
    const start = total;
    for (const id of cached.ids) {
      const f = s.files.get(id)!;
      if (states && !states.has(f.state)) continue;
      if (search && !f.relativePath.toLowerCase().includes(search)) continue;
      if (total >= q.offset && rows.length < q.limit) rows.push(toRow(f));
      total++;
    }
    if (total > start) groups.push({ batchId: b.id, offset: start, count: total - start });
  }
  return { total, groups, rows };
}

/** Bytes per second over the last few seconds; an ETA only once the speed was measured for a while. */
export interface SpeedMeter {
  sample(now: number, bytesSent: number): void;
  speed(): number;
  eta(bytesLeft: number): number | null;
}

export function createSpeedMeter(windowMs = 5_000, settleMs = 3_000): SpeedMeter {
  const samples: Array<{ t: number; bytes: number }> = [];
  let measuringSince: number | null = null;
  return {
    sample(now, bytes) {
      const last = samples[samples.length - 1];
      // Bytes can go down (a batch re-sent): the window starts again.
      if (last && bytes < last.bytes) samples.length = 0;
      samples.push({ t: now, bytes });
      while (samples.length > 2 && samples[0]!.t < now - windowMs) samples.shift();
      const moving = samples.length >= 2 && samples[samples.length - 1]!.bytes > samples[0]!.bytes;
      if (moving) measuringSince ??= now;
      else if (samples.length >= 2 && now - samples[0]!.t >= windowMs) measuringSince = null;
    },
    speed() {
      if (samples.length < 2) return 0;
      const a = samples[0]!;
      const b = samples[samples.length - 1]!;
      return b.t > a.t ? ((b.bytes - a.bytes) / (b.t - a.t)) * 1000 : 0;
    },
    eta(bytesLeft) {
      const last = samples[samples.length - 1];
      if (measuringSince === null || !last || last.t - measuringSince < settleMs) return null;
      const speed = this.speed();
      return speed > 0 ? Math.ceil(bytesLeft / speed) : null;
    },
  };
}
