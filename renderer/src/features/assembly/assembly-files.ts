// The Assembly view's one file list: every file of the Assembly with what became of it — where this app
// sent it from and how far (a transfer row, or a run's file), the upload the service recorded with its
// metadata, its processing progress while the Assembly runs, and its results or why none. Pure.

import type { AssemblyFile, AssemblyStatus } from '../../../../shared/api/assembly-status';
import { pairUploads } from '../../../../shared/api/upload-pairing';
import type { StateTone } from '../../lib/run-state';
import { describeOutcome, uploadOutcomes, type AssemblyEnd } from './upload-outcomes';

/** A file as this app sent it: a transfer row or a run's file, in one shape. */
export interface LocalFile {
  readonly id: string;
  readonly relativePath: string;
  readonly size: number;
  readonly bytesSent: number;
  /** A transfer row's state (queued … verified, skipped) or a run file's (queued … canceled). */
  readonly state: string;
  readonly error: string | null;
  readonly note: string | null;
}

export interface FileRow {
  readonly key: string;
  /** The path this app sent it from (relative to what was dropped), else the upload's name. */
  readonly name: string;
  /** True when this app sent it (the name is then its local path). */
  readonly local: boolean;
  readonly size: number | null;
  /** How far this app got sending it; null for files another client sent. */
  readonly sending: { readonly text: string; readonly tone: StateTone; readonly percent: number | null } | null;
  /** The service's record of it, once it arrived. */
  readonly upload: AssemblyFile | null;
  /** 0–100 from `progress_per_original_file` while the Assembly executes; null when not reported. */
  readonly processing: number | null;
  /** Its results, or why none (when the Assembly ended, or results so far while it runs). */
  readonly outcome: { readonly text: string; readonly tone: StateTone } | null;
}

const SENDING: Record<string, { text: string; tone: StateTone }> = {
  queued: { text: 'Queued', tone: 'neutral' },
  uploading: { text: 'Uploading', tone: 'info' },
  paused: { text: 'Paused', tone: 'warning' },
  uploaded: { text: 'Uploaded', tone: 'info' },
  verified: { text: 'Uploaded · verified', tone: 'success' },
  // Delivered whole where the service records no checksums: Transfers says "Not verified" once, on the batch.
  unverified: { text: 'Uploaded', tone: 'neutral' },
  failed: { text: 'Upload failed', tone: 'danger' },
  canceled: { text: 'Canceled', tone: 'neutral' },
  skipped: { text: 'Skipped: unchanged since an earlier upload', tone: 'neutral' },
};

const sendingOf = (f: LocalFile, ended: boolean): NonNullable<FileRow['sending']> => {
  if (f.error) return { text: `Upload failed: ${f.error}`, tone: 'danger', percent: null };
  // The run is over, so a file still waiting was never sent.
  if (ended && (f.state === 'queued' || f.state === 'uploading' || f.state === 'paused')) return { text: 'Not uploaded', tone: 'neutral', percent: null };
  const known = SENDING[f.state] ?? { text: f.state, tone: 'neutral' as const };
  const percent = f.state === 'uploading' || f.state === 'paused' ? (f.size > 0 ? Math.min(100, (100 * f.bytesSent) / f.size) : 0) : null;
  return { ...known, text: percent !== null ? `${known.text} ${Math.floor(percent)} %` : known.text, percent };
};

/** How an ended Assembly ended, for a file without results or reasons; null while it runs. Pure. */
export const endOf = (status: AssemblyStatus | null): AssemblyEnd | null => {
  if (!status) return null;
  if (status.ok === 'ASSEMBLY_UPLOADING' || status.ok === 'ASSEMBLY_EXECUTING' || status.ok === 'ASSEMBLY_REPLAYING') return null;
  if (status.error) return 'failed';
  if (status.ok === 'ASSEMBLY_COMPLETED') return 'completed';
  if (status.ok === 'ASSEMBLY_CANCELED' || status.ok === 'REQUEST_ABORTED') return 'canceled';
  return 'other';
};

/**
 * One row per file: the files this app sent (in its order) each with the upload it became, then the
 * uploads no local file accounts for (another client's, or sent before this app knew them). While it runs,
 * a file with results so far says so; a file without any says nothing yet. Pure.
 */
export function fileRows(status: AssemblyStatus | null, local: readonly LocalFile[], perFile: ReadonlyMap<string, number>): FileRow[] {
  const uploads = status?.uploads ?? [];
  const end = endOf(status);
  const outcomes = new Map(uploadOutcomes(status).map((o) => [o.id, o]));
  const outcomeOf = (u: AssemblyFile | null): FileRow['outcome'] => {
    const o = u?.id ? outcomes.get(u.id) : undefined;
    if (!o) return null;
    if (end) return describeOutcome(o, end);
    if (o.reasons.length > 0) return describeOutcome(o, 'other');
    return o.results > 0 ? { text: `${o.results.toLocaleString('en-US')} result${o.results === 1 ? '' : 's'} so far`, tone: 'success' } : null;
  };
  const processingOf = (u: AssemblyFile | null): number | null => (end === null && u?.id && perFile.has(u.id) ? perFile.get(u.id)! : null);

  const pairs = pairUploads(local, uploads);
  const paired = new Set<number>();
  const rows: FileRow[] = local.map((f, i) => {
    const at = pairs[i];
    const upload = at === null || at === undefined ? null : uploads[at]!;
    if (at !== null && at !== undefined) paired.add(at);
    return { key: `local:${f.id}`, name: f.relativePath, local: true, size: f.size, sending: sendingOf(f, end !== null), upload, processing: processingOf(upload), outcome: outcomeOf(upload) };
  });
  uploads.forEach((u, i) => {
    if (paired.has(i)) return;
    rows.push({ key: `upload:${u.id ?? i}`, name: u.name ?? u.original_name ?? u.id ?? `upload ${i + 1}`, local: false, size: typeof u.size === 'number' ? u.size : null, sending: null, upload: u, processing: processingOf(u), outcome: outcomeOf(u) });
  });
  return rows;
}
