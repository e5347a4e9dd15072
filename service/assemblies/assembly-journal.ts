// The small changes of an uploading Assembly that a client is told about at once (a tus upload created,
// a tus upload finished). The whole Assembly is written at most every PERSIST_INTERVAL_MS while uploads
// arrive (rewriting it per file made the cost per file grow with the Assembly); these changes go to a
// journal row each, before the client's answer, and are replayed onto the stored Assembly after a crash.
// The same functions change the live Assembly, so live and replayed states cannot disagree. Pure.

import type { AssemblyState, TusUploadEntry } from './assembly-state';

export type AssemblyEvent =
  | { kind: 'tus_created'; entry: TusUploadEntry }
  | { kind: 'tus_finished'; uploadId: string; size: number };

/** How often, at most, an uploading Assembly is rewritten whole while files arrive. */
export const PERSIST_INTERVAL_MS = 150;

type FindEntry = (uploadId: string) => TusUploadEntry | undefined;

const linearFind =
  (s: AssemblyState): FindEntry =>
  (uploadId) =>
    s.tusUploads.find((t) => t.uploadId === uploadId);

/** Bytes of a tus upload that arrived: the Assembly's `bytes_received` grows by what is new. */
export function applyProgress(s: AssemblyState, entry: TusUploadEntry, offset: number): void {
  if (offset <= entry.offset) return;
  s.bytesReceived += offset - entry.offset;
  entry.offset = offset;
}

/**
 * Applies one change; false when it changed nothing (already applied: replay is idempotent). `find`
 * locates a tus upload by id (an index in the live Assembly; a scan by default).
 */
export function applyEvent(s: AssemblyState, e: AssemblyEvent, find: FindEntry = linearFind(s)): boolean {
  if (e.kind === 'tus_created') {
    if (find(e.entry.uploadId)) return false;
    s.tusUploads.push(e.entry);
    s.startedTusUploads += 1;
    s.bytesExpected += e.entry.size;
    return true;
  }
  const entry = find(e.uploadId);
  if (!entry || entry.finished) return false;
  applyProgress(s, entry, e.size);
  entry.finished = true;
  entry.size = e.size;
  s.finishedTusUploads += 1;
  return true;
}

/** The stored Assembly with its journal replayed (events that do not parse are skipped). */
export function replayJournal(s: AssemblyState, events: readonly string[]): AssemblyState {
  for (const raw of events) {
    let e: AssemblyEvent;
    try {
      e = JSON.parse(raw) as AssemblyEvent;
    } catch {
      continue;
    }
    if (e.kind === 'tus_created' || e.kind === 'tus_finished') applyEvent(s, e);
  }
  return s;
}
