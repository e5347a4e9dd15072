import type { Instructions } from '../../../shared/api/instructions';
import type { BatchMode } from '../../../shared/ipc/transfer-models';

/**
 * Splitting a drop into Assemblies, one file at a time, so a folder walk that is still going can already
 * fill (and send) its first batches. Pure: the engine and the pre-flight plan run the same rules.
 */

/** No Assembly ever gets more files than this, whatever the mode (the contract's limit per run). */
export const HARD_MAX_FILES_PER_ASSEMBLY = 100_000;

export interface BatchingSettings {
  mode: BatchMode;
  /** every-n: close a batch at this many files… */
  batchMaxFiles: number;
  /** …or at this many bytes. */
  batchMaxBytes: number;
}

/** Limits the Assembly itself carries (auth.max_number_of_files / auth.max_size of the Template or params). */
export interface AssemblyLimits {
  maxNumberOfFiles: number | null;
  maxSize: number | null;
}

/** Which params set a limit: the request's own (the Upload options) or the Template's. */
export type LimitSource = 'options' | 'template';
export interface LimitSources {
  readonly maxSize: LimitSource | null;
  readonly maxNumberOfFiles: LimitSource | null;
}

/**
 * The limits an Assembly runs with: the request's own `auth.max_size` / `auth.max_number_of_files` where
 * given, else the Template's (as the service merges them), and where each came from.
 */
export function mergeLimits(request: Instructions['auth'], template: AssemblyLimits): { limits: AssemblyLimits; sources: LimitSources } {
  const maxSize = request?.max_size ?? template.maxSize;
  const maxNumberOfFiles = request?.max_number_of_files ?? template.maxNumberOfFiles;
  return {
    limits: { maxSize, maxNumberOfFiles },
    sources: {
      maxSize: request?.max_size !== undefined ? 'options' : template.maxSize !== null ? 'template' : null,
      maxNumberOfFiles: request?.max_number_of_files !== undefined ? 'options' : template.maxNumberOfFiles !== null ? 'template' : null,
    },
  };
}

export interface OpenBatch {
  /** Order of creation within the transfer, from 0. */
  seq: number;
  /** The group the batch belongs to (a top-level folder in per-folder mode). */
  group: string;
  label: string;
  files: number;
  bytes: number;
  /** Files of this group placed before this batch (for "Files 1,001–2,000" labels). */
  firstIndex: number;
}

export interface BatcherState {
  readonly open: Readonly<Record<string, OpenBatch>>;
  readonly nextSeq: number;
  /** Files placed so far per group (the next batch of a group starts counting here). */
  readonly placed: Readonly<Record<string, number>>;
  /** Batches started per group (a folder split into parts is labelled "photos (part 2)"). */
  readonly parts: Readonly<Record<string, number>>;
}

export const emptyBatcher = (): BatcherState => ({ open: {}, nextSeq: 0, placed: {}, parts: {} });

export interface Placement {
  state: BatcherState;
  /** The batch the file went into. */
  batch: OpenBatch;
  /** Batches that are full now (no file will join them): the engine may create their Assemblies. */
  closed: OpenBatch[];
}

/** The group of a file: the whole drop, its top-level folder, or one running sequence. */
export function groupOf(mode: BatchMode, relativePath: string): string {
  if (mode !== 'per-folder') return '';
  const slash = relativePath.indexOf('/');
  return slash < 0 ? '' : relativePath.slice(0, slash);
}

/** The most files and bytes one batch may take under these settings and limits. */
export function batchCaps(settings: BatchingSettings, limits: AssemblyLimits): { files: number; bytes: number } {
  const own = settings.mode === 'every-n' ? { files: settings.batchMaxFiles, bytes: settings.batchMaxBytes } : { files: Infinity, bytes: Infinity };
  return {
    files: Math.max(1, Math.min(own.files, limits.maxNumberOfFiles ?? Infinity, HARD_MAX_FILES_PER_ASSEMBLY)),
    bytes: Math.max(1, Math.min(own.bytes, limits.maxSize ?? Infinity)),
  };
}

function labelOf(settings: BatchingSettings, group: string, part: number, firstIndex: number, dropLabel: string): string {
  if (settings.mode === 'every-n') return `Files ${(firstIndex + 1).toLocaleString('en-US')}–…`;
  const base = settings.mode === 'per-drop' ? dropLabel : group === '' ? 'Loose files' : group;
  return part === 1 ? base : `${base} (part ${part})`;
}

/** The label of a batch once its size is known ("Files 1–1,000"). */
export function finalLabel(batch: OpenBatch): string {
  if (!batch.label.endsWith('–…')) return batch.label;
  return `Files ${(batch.firstIndex + 1).toLocaleString('en-US')}–${(batch.firstIndex + batch.files).toLocaleString('en-US')}`;
}

/**
 * Put one file into a batch. A file that would take its batch over the byte cap starts a new batch (a
 * file bigger than the cap alone goes alone: the plan warns about it before anything is sent).
 */
export function placeFile(
  state: BatcherState,
  file: { relativePath: string; size: number },
  settings: BatchingSettings,
  limits: AssemblyLimits,
  dropLabel = 'Drop',
): Placement {
  const caps = batchCaps(settings, limits);
  const group = groupOf(settings.mode, file.relativePath);
  const open = { ...state.open };
  const placed = { ...state.placed };
  const parts = { ...state.parts };
  let nextSeq = state.nextSeq;
  const closed: OpenBatch[] = [];

  let batch = open[group];
  if (batch && batch.files > 0 && batch.bytes + file.size > caps.bytes) {
    closed.push(batch);
    delete open[group];
    batch = undefined;
  }
  if (!batch) {
    const part = (parts[group] ?? 0) + 1;
    parts[group] = part;
    const firstIndex = placed[group] ?? 0;
    batch = { seq: nextSeq++, group, label: labelOf(settings, group, part, firstIndex, dropLabel), files: 0, bytes: 0, firstIndex };
  }
  batch = { ...batch, files: batch.files + 1, bytes: batch.bytes + file.size };
  placed[group] = (placed[group] ?? 0) + 1;
  if (batch.files >= caps.files || batch.bytes >= caps.bytes) {
    closed.push(batch);
    delete open[group];
  } else {
    open[group] = batch;
  }
  return { state: { open, nextSeq, placed, parts }, batch, closed };
}

/** The walk ended: every open batch is complete. Ordered by creation. */
export function closeAll(state: BatcherState): { state: BatcherState; closed: OpenBatch[] } {
  const closed = Object.values(state.open).sort((a, b) => a.seq - b.seq);
  return { state: { ...state, open: {} }, closed };
}
