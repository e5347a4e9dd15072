import type { WatchItemState } from '../../../shared/ipc/watch-folder-models';

/**
 * One watch's files as a pure state machine: seen → settling (size and mtime unchanged for `settleMs`) →
 * checking (stat + sha256 at the edge) → queued → processing → done | failed. No I/O and no clock: time
 * comes in as `now`, and the effects to run come out as commands. The watch runtime (watch-runtime.ts)
 * feeds it chokidar's events and the results of the commands.
 */

export interface ItemRec {
  relativePath: string;
  state: WatchItemState;
  size: number;
  mtimeMs: number;
  /** When size or mtime last changed (settling). */
  changedAt: number;
  sha256: string | null;
  /** The content hash of the last successful processing: an unchanged file is not sent again. */
  doneSha256: string | null;
  assemblyId: string | null;
  transferId: string | null;
  error: string | null;
  results: string[];
  /** Of `results`, those saved as `name (2).ext` beside an earlier result (keep-both). Absent in older ledgers. */
  keptBeside?: string[];
  /** Results not written: an earlier one was at their path and was left as it was (skip). Absent in older ledgers. */
  skippedResults?: string[];
  updatedAt: number;
  /** It changed while queued or processing: checked again once this round ends. */
  dirty?: boolean;
}

export interface MachineState {
  settleMs: number;
  reprocessStale: boolean;
  paused: boolean;
  items: Map<string, ItemRec>;
  /** Unchanged processed files passed over since this state was built (a session count). */
  skipped: number;
}

export type WatchEvent =
  /** chokidar add/change, or the catch-up scan. */
  | { type: 'seen'; relativePath: string; size: number; mtimeMs: number; now: number }
  | { type: 'gone'; relativePath: string; now: number }
  | { type: 'tick'; now: number }
  /** The edge stat'ed and hashed a settled file. */
  | { type: 'checked'; relativePath: string; size: number; mtimeMs: number; sha256: string; now: number }
  | { type: 'check-failed'; relativePath: string; error: string; now: number }
  | { type: 'started'; relativePath: string; transferId: string; now: number }
  | { type: 'finished'; relativePath: string; assemblyId: string | null; results: string[]; keptBeside: string[]; skippedResults: string[]; now: number }
  | { type: 'failed'; relativePath: string; error: string; assemblyId: string | null; now: number }
  | { type: 'pause' }
  | { type: 'resume'; now: number };

export type WatchCommand =
  | { kind: 'check'; relativePath: string }
  | { kind: 'process'; relativePath: string; sha256: string }
  | { kind: 'after-success'; relativePath: string }
  | { kind: 'notify'; relativePath: string; outcome: 'done' | 'failed'; error?: string };

export interface Step {
  commands: WatchCommand[];
  /** Items whose record changed (to persist and announce). */
  changed: string[];
}

export function newMachine(options: { settleMs: number; reprocessStale: boolean; paused: boolean; items?: Iterable<ItemRec> }): MachineState {
  const items = new Map<string, ItemRec>();
  for (const item of options.items ?? []) items.set(item.relativePath, restoredItem(item));
  return { settleMs: options.settleMs, reprocessStale: options.reprocessStale, paused: options.paused, items, skipped: 0 };
}

/**
 * A stored item after a restart: one caught mid-check or still settling starts over (the scan sees it
 * again); queued stays queued; processing keeps its transfer (the queue resumes it).
 */
function restoredItem(item: ItemRec): ItemRec {
  if (item.state === 'settling' || item.state === 'checking') return { ...item, state: 'settling' };
  return { ...item };
}

const emptyStep = (): Step => ({ commands: [], changed: [] });

function freshItem(relativePath: string, size: number, mtimeMs: number, now: number): ItemRec {
  return { relativePath, state: 'settling', size, mtimeMs, changedAt: now, sha256: null, doneSha256: null, assemblyId: null, transferId: null, error: null, results: [], updatedAt: now };
}

export function step(state: MachineState, event: WatchEvent): Step {
  const out = emptyStep();
  const touch = (item: ItemRec, now: number) => {
    item.updatedAt = now;
    out.changed.push(item.relativePath);
  };
  switch (event.type) {
    case 'seen': {
      const item = state.items.get(event.relativePath);
      if (!item) {
        const rec = freshItem(event.relativePath, event.size, event.mtimeMs, event.now);
        state.items.set(rec.relativePath, rec);
        out.changed.push(rec.relativePath);
        return out;
      }
      const same = item.size === event.size && item.mtimeMs === event.mtimeMs;
      // Processing or queued: the file is being sent as it was checked; a later change is checked again after.
      if (item.state === 'processing' || item.state === 'queued') {
        if (!same) {
          item.size = event.size;
          item.mtimeMs = event.mtimeMs;
          item.changedAt = event.now;
          item.dirty = true;
          touch(item, event.now);
        }
        return out;
      }
      if (item.state === 'done' || item.state === 'failed') {
        if (same && item.state === 'done' && !state.reprocessStale) {
          state.skipped += 1;
          return out;
        }
        // Changed since (or failed before, or "reprocess stale"): settle and check again.
        if (same && item.state === 'done' && state.reprocessStale) item.doneSha256 = null;
        item.state = 'settling';
        item.size = event.size;
        item.mtimeMs = event.mtimeMs;
        item.changedAt = event.now;
        touch(item, event.now);
        return out;
      }
      // settling / checking: growing files restart the clock.
      if (!same) {
        item.size = event.size;
        item.mtimeMs = event.mtimeMs;
        item.changedAt = event.now;
        if (item.state === 'checking') item.state = 'settling';
        touch(item, event.now);
      }
      return out;
    }
    case 'gone': {
      const item = state.items.get(event.relativePath);
      // A processed file's record stays (moved or deleted after success, or the user tidied up); a file
      // that vanished before it was sent is forgotten.
      if (item && (item.state === 'settling' || item.state === 'checking' || item.state === 'queued')) {
        state.items.delete(event.relativePath);
        out.changed.push(event.relativePath);
      }
      return out;
    }
    case 'tick': {
      if (state.paused) return out;
      for (const item of state.items.values()) {
        if (item.state === 'settling' && event.now - item.changedAt >= state.settleMs) {
          item.state = 'checking';
          touch(item, event.now);
          out.commands.push({ kind: 'check', relativePath: item.relativePath });
        }
      }
      return out;
    }
    case 'checked': {
      const item = state.items.get(event.relativePath);
      if (!item || item.state !== 'checking') return out;
      if (item.size !== event.size || item.mtimeMs !== event.mtimeMs) {
        // It grew between the last event and the check: settle again.
        item.size = event.size;
        item.mtimeMs = event.mtimeMs;
        item.changedAt = event.now;
        item.state = 'settling';
        touch(item, event.now);
        return out;
      }
      item.sha256 = event.sha256;
      if (item.doneSha256 === event.sha256 && !state.reprocessStale) {
        // Touched, not changed: the results on disk are still its results.
        item.state = 'done';
        state.skipped += 1;
        touch(item, event.now);
        return out;
      }
      item.state = 'queued';
      item.error = null;
      touch(item, event.now);
      if (!state.paused) out.commands.push({ kind: 'process', relativePath: item.relativePath, sha256: event.sha256 });
      return out;
    }
    case 'check-failed': {
      const item = state.items.get(event.relativePath);
      if (!item || item.state !== 'checking') return out;
      item.state = 'failed';
      item.error = event.error;
      touch(item, event.now);
      out.commands.push({ kind: 'notify', relativePath: item.relativePath, outcome: 'failed', error: event.error });
      return out;
    }
    case 'started': {
      const item = state.items.get(event.relativePath);
      if (!item || item.state !== 'queued') return out;
      item.state = 'processing';
      item.transferId = event.transferId;
      touch(item, event.now);
      return out;
    }
    case 'finished': {
      const item = state.items.get(event.relativePath);
      if (!item || item.state !== 'processing') return out;
      item.assemblyId = event.assemblyId;
      item.results = event.results;
      item.keptBeside = event.keptBeside;
      item.skippedResults = event.skippedResults;
      item.doneSha256 = item.sha256;
      item.error = null;
      out.commands.push({ kind: 'notify', relativePath: item.relativePath, outcome: 'done' });
      if (item.dirty) {
        // Changed while it was processed: the original is left alone and the new version settles and goes.
        item.dirty = false;
        item.state = 'settling';
      } else {
        item.state = 'done';
        out.commands.unshift({ kind: 'after-success', relativePath: item.relativePath });
      }
      touch(item, event.now);
      return out;
    }
    case 'failed': {
      const item = state.items.get(event.relativePath);
      if (!item || (item.state !== 'processing' && item.state !== 'queued')) return out;
      item.state = item.dirty ? 'settling' : 'failed';
      item.dirty = false;
      item.error = event.error;
      item.assemblyId = event.assemblyId;
      touch(item, event.now);
      out.commands.push({ kind: 'notify', relativePath: item.relativePath, outcome: 'failed', error: event.error });
      return out;
    }
    case 'pause':
      state.paused = true;
      return out;
    case 'resume': {
      state.paused = false;
      // Queued files waited for the resume.
      for (const item of state.items.values()) {
        if (item.state === 'queued' && item.sha256) out.commands.push({ kind: 'process', relativePath: item.relativePath, sha256: item.sha256 });
      }
      return out;
    }
  }
}

/** Items still settling: when the next one is due (the runtime's timer), or null. */
export function nextDue(state: MachineState): number | null {
  let due: number | null = null;
  for (const item of state.items.values()) {
    if (item.state !== 'settling') continue;
    const at = item.changedAt + state.settleMs;
    if (due === null || at < due) due = at;
  }
  return due;
}

export function countsOf(state: MachineState): { done: number; failed: number; queued: number; skipped: number } {
  let done = 0;
  let failed = 0;
  let queued = 0;
  for (const item of state.items.values()) {
    if (item.state === 'done') done += 1;
    else if (item.state === 'failed') failed += 1;
    else queued += 1;
  }
  return { done, failed, queued, skipped: state.skipped };
}

/** Queued items to send after a restart (their check is done; processing ones have a transfer to follow). */
export function pendingAfterRestore(state: MachineState): WatchCommand[] {
  if (state.paused) return [];
  return [...state.items.values()].filter((i) => i.state === 'queued' && i.sha256).map((i) => ({ kind: 'process', relativePath: i.relativePath, sha256: i.sha256 as string }));
}
