import type { PlanWarning, TransferPlan, TransferSettings } from '../../../shared/ipc/transfer-models';
import { closeAll, emptyBatcher, finalLabel, placeFile, type AssemblyLimits, type BatcherState, type LimitSource, type LimitSources, type OpenBatch } from '../transfers/batching';

export { mergeLimits } from '../transfers/batching';
import { compileSkipRules } from './skip-rules';

/**
 * The pre-flight plan: what Start would do with the draft under the current settings, computed from the
 * draft's paths and sizes alone (no I/O), with the engine's own batching so both count the same
 * Assemblies. Linear in the number of files.
 */

/** Past this many files the plan warns (the engine's queue and the contract's pages are sized for it). */
export const PLAN_MAX_FILES = 100_000;
/** The plan lists this many batches; `assemblies` counts all of them. */
export const PLAN_MAX_BATCHES = 200;

export const PlanWarningCode = {
  maxSize: 'MAX_SIZE_EXCEEDED',
  maxFiles: 'MAX_NUMBER_OF_FILES_EXCEEDED',
  nothingLeft: 'NO_FILES_TO_UPLOAD',
  tooMany: 'TOO_MANY_FILES',
} as const;

export interface PlanFiles {
  /** Each file's relative path (as the user sees it) and size, in draft order. */
  forEach(visit: (relativePath: string, size: number, index: number) => void): void;
  /** The path on disk of the file at `index` (only asked for skipUnchanged candidates). */
  pathAt(index: number): string;
}

export interface PlanInput {
  files: PlanFiles;
  settings: TransferSettings;
  /** The instructions' limits (a Template's auth.max_size / max_number_of_files), null where none. */
  limits: AssemblyLimits;
  /** Items of the drop that could not be read. */
  unreadable: number;
  /** A file sent before from this path with this size (the engine's record); absent = none known. */
  isUploadedBefore?: ((path: string, size: number) => boolean) | undefined;
  /** Where each limit came from, for the warnings' words (the Template's by default). */
  limitSources?: LimitSources | undefined;
  /** Why the Template's limits could not be read (the plan is still made, without them). */
  templateError?: { code: string; message: string } | null;
  dropLabel?: string;
}

const formatBytes = (bytes: number): string => {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
};
const count = (n: number) => n.toLocaleString('en-US');
const filesWord = (n: number) => `${count(n)} file${n === 1 ? '' : 's'}`;

export function buildPlan(input: PlanInput): TransferPlan {
  const { settings, limits } = input;
  const skipOf = compileSkipRules(settings.skip);
  const skipped = { hidden: 0, pattern: 0, size: 0, unchanged: 0, unreadable: input.unreadable };
  const batching = { mode: settings.batchMode, batchMaxFiles: settings.batchMaxFiles, batchMaxBytes: settings.batchMaxBytes };
  const checkUnchanged = settings.skip.skipUnchanged && input.isUploadedBefore !== undefined;

  // The batcher copies its per-group maps on every file; per folder, each group keeps a state of its own
  // (sharing the sequence), so thousands of top-level folders stay linear and give the same batches.
  const groups = new Map<string, { state: BatcherState }>();
  let nextSeq = 0;
  let whole = emptyBatcher();
  let assemblies = 0;
  const listed: OpenBatch[] = [];
  const onClosed = (batch: OpenBatch) => {
    assemblies += 1;
    if (batch.seq < PLAN_MAX_BATCHES) listed.push(batch);
  };

  let files = 0;
  let bytes = 0;
  let multipartFiles = 0;
  let tusFiles = 0;
  let overMaxSize = 0;
  let firstOver: { relativePath: string; size: number } | null = null;

  input.files.forEach((relativePath, size, index) => {
    const reason = skipOf({ relativePath, size });
    if (reason !== null) {
      skipped[reason] += 1;
      return;
    }
    if (checkUnchanged && input.isUploadedBefore?.(input.files.pathAt(index), size)) skipped.unchanged += 1;
    files += 1;
    bytes += size;
    if (settings.multipartMaxFileBytes > 0 && size <= settings.multipartMaxFileBytes) multipartFiles += 1;
    else tusFiles += 1;
    if (limits.maxSize !== null && size > limits.maxSize) {
      overMaxSize += 1;
      firstOver ??= { relativePath, size };
    }

    if (batching.mode !== 'per-folder') {
      const placed = placeFile(whole, { relativePath, size }, batching, limits, input.dropLabel);
      whole = placed.state;
      for (const batch of placed.closed) onClosed(batch);
      return;
    }
    const group = topFolder(relativePath);
    let own = groups.get(group);
    if (!own) {
      own = { state: emptyBatcher() };
      groups.set(group, own);
    }
    const placed = placeFile({ ...own.state, nextSeq }, { relativePath, size }, batching, limits, input.dropLabel);
    nextSeq = placed.state.nextSeq;
    own.state = placed.state;
    for (const batch of placed.closed) onClosed(batch);
  });
  const stillOpen = batching.mode === 'per-folder' ? [...groups.values()].flatMap((g) => closeAll(g.state).closed) : closeAll(whole).closed;
  for (const batch of stillOpen) onClosed(batch);

  const warnings: PlanWarning[] = [];
  if (input.templateError) {
    warnings.push({
      code: input.templateError.code,
      message: `The Template's limits could not be read, so they are not checked here: ${input.templateError.message}`,
      field: 'template',
    });
  }
  if (overMaxSize > 0 && firstOver !== null && limits.maxSize !== null) {
    const first: { relativePath: string; size: number } = firstOver;
    warnings.push({
      code: PlanWarningCode.maxSize,
      message:
        `${overMaxSize === 1 ? 'A file is' : `${count(overMaxSize)} files are`} larger than ${sourceWords(input.limitSources?.maxSize)} max_size of ${formatBytes(limits.maxSize)} ` +
        `(e.g. ${first.relativePath}, ${formatBytes(first.size)}): the service would stop ${overMaxSize === 1 ? 'its Assembly' : 'their Assemblies'}. Leave ${overMaxSize === 1 ? 'it' : 'them'} out or raise the limit.`,
      field: 'files',
    });
  }
  const maxFiles = limits.maxNumberOfFiles;
  if (maxFiles !== null && (settings.batchMode === 'every-n' ? settings.batchMaxFiles > maxFiles : files > maxFiles)) {
    warnings.push({
      code: PlanWarningCode.maxFiles,
      message: `${capitalized(sourceWords(input.limitSources?.maxNumberOfFiles))} max_number_of_files allows ${filesWord(maxFiles)} per Assembly: batches are capped at ${filesWord(maxFiles)}.`,
      field: 'batchMaxFiles',
    });
  }
  if (files === 0) {
    const ruled = skipped.hidden + skipped.pattern + skipped.size;
    warnings.push({
      code: PlanWarningCode.nothingLeft,
      message: ruled > 0 ? `The skip rules leave out every file (${count(ruled)}): nothing would be sent.` : 'There are no files to send.',
      field: ruled > 0 ? 'skip' : 'files',
    });
  }
  if (files > PLAN_MAX_FILES) {
    warnings.push({ code: PlanWarningCode.tooMany, message: `${count(files)} files: more than ${count(PLAN_MAX_FILES)} in one transfer. Split the drop.`, field: 'files' });
  }

  listed.sort((a, b) => a.seq - b.seq);
  return {
    files,
    bytes,
    skipped,
    assemblies,
    batches: listed.map((b) => ({ label: finalLabel(b), files: b.files, bytes: b.bytes })),
    multipartFiles,
    tusFiles,
    limits: { maxSize: limits.maxSize, maxNumberOfFiles: limits.maxNumberOfFiles },
    warnings,
  };
}

const sourceWords = (source: LimitSource | null | undefined): string => (source === 'options' ? "the Upload options'" : "the Template's");
const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function topFolder(relativePath: string): string {
  const slash = relativePath.indexOf('/');
  return slash < 0 ? '' : relativePath.slice(0, slash);
}

/**
 * `auth.max_size` / `auth.max_number_of_files` of a Template's content (an object, or its JSON text), read
 * as the service reads them: max_size a number ≥ 0, max_number_of_files an integer ≥ 1, numbers as
 * strings allowed; anything else is no limit.
 */
export function limitsOfTemplateContent(content: unknown): AssemblyLimits {
  let value = content;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { maxSize: null, maxNumberOfFiles: null };
    }
  }
  const auth = isRecord(value) && isRecord(value.auth) ? value.auth : {};
  return { maxSize: limitOf(auth.max_size, 0, false), maxNumberOfFiles: limitOf(auth.max_number_of_files, 1, true) };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function limitOf(raw: unknown, min: number, integer: boolean): number | null {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) return null;
  return n;
}
