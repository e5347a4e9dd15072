import type { MirrorSource } from './mirror-plan';
import { resultKey, resultsOf, resultUrl } from './mirror-plan';

/** Where core put a result on disk, and the md5 it computed while writing it. */
export interface MirroredFile {
  path: string;
  md5: string;
}

export interface ManifestResult {
  step: string;
  name: string;
  url: string | null;
  size: number | null;
  md5: string | null;
  localPath: string | null;
  localMd5: string | null;
}

export interface ManifestInput {
  path: string;
  size: number | null;
  md5: string | null;
  error: string | null;
  results: ManifestResult[];
}

export interface ManifestAssembly {
  assemblyId: string;
  state: string;
  error: string | null;
  inputs: ManifestInput[];
  /** Results traced to no input (a step that joins many inputs, or an Assembly whose inputs are unknown). */
  otherResults: ManifestResult[];
}

const originalIds = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The nested manifest (the JSON export), from the sources and what was mirrored where (pure). */
export function buildManifest(sources: readonly MirrorSource[], mirrored: (key: string) => MirroredFile | undefined): ManifestAssembly[] {
  return sources.map((source) => {
    const byUpload = new Map<string, ManifestResult[]>();
    const other: ManifestResult[] = [];
    for (const { step, file } of resultsOf(source.status)) {
      const local = mirrored(resultKey(source.assemblyId, step, file));
      const row: ManifestResult = {
        step,
        name: file.name ?? file.id ?? '',
        url: resultUrl(file),
        size: typeof file.size === 'number' ? file.size : null,
        md5: file.md5hash ?? null,
        localPath: local?.path ?? null,
        localMd5: local?.md5 ?? null,
      };
      const owner = originalIds(file.original_id).find((id) => source.inputs.some((i) => i.uploadId === id));
      if (owner) byUpload.set(owner, [...(byUpload.get(owner) ?? []), row]);
      else other.push(row);
    }
    const status = source.status;
    return {
      assemblyId: source.assemblyId,
      state: status.error ?? status.ok ?? 'UNKNOWN',
      error: status.error ? [status.error, status.message].filter(Boolean).join(': ') : null,
      inputs: source.inputs.map((i) => ({
        path: i.relativePath,
        size: i.size,
        md5: i.md5,
        error: i.error,
        results: i.uploadId ? (byUpload.get(i.uploadId) ?? []) : [],
      })),
      otherResults: other,
    };
  });
}

export const MANIFEST_COLUMNS = [
  'input_path',
  'input_size',
  'input_md5',
  'assembly_id',
  'state',
  'error',
  'step',
  'result_name',
  'result_url',
  'result_size',
  'result_md5',
  'local_path',
  'local_md5',
] as const;

type Cell = string | number | null;

/** One row per result; an input without results is one row, with empty result columns. */
export function manifestRows(manifest: readonly ManifestAssembly[]): Cell[][] {
  const rows: Cell[][] = [];
  const resultCells = (r: ManifestResult | null): Cell[] => (r ? [r.step, r.name, r.url, r.size, r.md5, r.localPath, r.localMd5] : [null, null, null, null, null, null, null]);
  for (const a of manifest) {
    for (const i of a.inputs) {
      const head: Cell[] = [i.path, i.size, i.md5, a.assemblyId, a.state, i.error ?? a.error];
      if (i.results.length === 0) rows.push([...head, ...resultCells(null)]);
      for (const r of i.results) rows.push([...head, ...resultCells(r)]);
    }
    for (const r of a.otherResults) rows.push([null, null, null, a.assemblyId, a.state, a.error, ...resultCells(r)]);
    if (a.inputs.length === 0 && a.otherResults.length === 0) rows.push([null, null, null, a.assemblyId, a.state, a.error, ...resultCells(null)]);
  }
  return rows;
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote, CR or LF, quotes doubled. A text cell that
 * a spreadsheet would run as a formula (starting with = + - @, tab or CR) gets a leading `'` (OWASP's
 * CSV-injection advice); numbers are written as they are.
 */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** The CSV export: UTF-8 with a BOM (so spreadsheet apps read the names right), header, CRLF line ends. */
export function manifestCsv(manifest: readonly ManifestAssembly[]): string {
  const lines = [MANIFEST_COLUMNS.join(','), ...manifestRows(manifest).map((row) => row.map(csvCell).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export function manifestJson(manifest: readonly ManifestAssembly[], exportedAt: string): string {
  return `${JSON.stringify({ exportedAt, assemblies: manifest }, null, 2)}\n`;
}
