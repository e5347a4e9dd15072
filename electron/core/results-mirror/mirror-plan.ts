import type { AssemblyFile, AssemblyStatus } from '../../../shared/api/assembly-status';
import { pairUploads, uploadRelativePath } from '../../../shared/api/upload-pairing';
import type { MirrorLayout } from '../../../shared/ipc/mirror-models';
import { numberedName, targetPath } from './mirror-paths';

/** An input of an Assembly as the app knows it: its relative path, size and md5, and the upload it became. */
export interface MirrorInput {
  relativePath: string;
  size: number | null;
  md5: string | null;
  /** The status record's upload id (results name it in `original_id`); null when it never arrived. */
  uploadId: string | null;
  /** Why it did not make it (the transfer's error), else null. */
  error: string | null;
}

/** One Assembly to mirror or list: its status record and the inputs the app sent (or the record's uploads). */
export interface MirrorSource {
  assemblyId: string;
  status: AssemblyStatus;
  inputs: MirrorInput[];
}

/** What the app knows of a local file it sent (a transfer row, a run file). */
export interface LocalInput {
  relativePath: string;
  size: number;
  error?: string | null;
}

/**
 * Pairs the files the app sent with the status record's uploads, so each result can be traced to its input
 * (shared/api/upload-pairing.ts: by the relative path the upload carried, else by name and size in order).
 * Without local knowledge (an Assembly from elsewhere) the uploads are the inputs.
 */
export function matchInputs(local: readonly LocalInput[] | null, status: AssemblyStatus): MirrorInput[] {
  const uploads = status.uploads ?? [];
  const fromUpload = (u: AssemblyFile): MirrorInput => ({
    relativePath: uploadRelativePath(u) ?? u.name ?? u.id ?? 'upload',
    size: typeof u.size === 'number' ? u.size : null,
    md5: u.md5hash ?? null,
    uploadId: u.id ?? null,
    error: null,
  });
  if (!local) return uploads.map(fromUpload);
  const pairs = pairUploads(local, uploads);
  return local.map((f, i) => {
    const at = pairs[i];
    const u = at === null || at === undefined ? null : uploads[at]!;
    return { relativePath: f.relativePath, size: f.size, md5: u?.md5hash ?? null, uploadId: u?.id ?? null, error: f.error ?? null };
  });
}

/** Result files of a status record, step by step, in the record's order. */
export function resultsOf(status: AssemblyStatus): Array<{ step: string; file: AssemblyFile }> {
  return Object.entries(status.results ?? {}).flatMap(([step, files]) => files.map((file) => ({ step, file })));
}

export const resultUrl = (f: AssemblyFile): string | null => f.ssl_url ?? f.url ?? null;

/** The key under which core remembers where a result was mirrored (manifest's local path). */
export const resultKey = (assemblyId: string, step: string, f: AssemblyFile): string => `${assemblyId}\n${step}\n${f.id ?? resultUrl(f) ?? f.name ?? ''}`;

const originalIds = (v: AssemblyFile['original_id']): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v : []);

/** One file to write. */
export interface MirrorEntry {
  assemblyId: string;
  step: string;
  key: string;
  url: string;
  /** Its record in the status planned from (to find it again in a fresher one when its URL expired). */
  file: AssemblyFile;
  /** Under the output folder, `/`-separated, every segment safe. */
  relPath: string;
  size: number | null;
  md5: string | null;
  sha256: string | null;
}

/**
 * What to write where (pure). Results of an input follow its relative path; a result with no known input
 * goes by its own name. Two results landing on one path in the same plan (a step with many results per
 * input) get `(2)`, `(3)`… so none is lost; a result without a URL cannot be fetched and is listed apart.
 */
export function planMirror(sources: readonly MirrorSource[], layout: MirrorLayout): { entries: MirrorEntry[]; unfetchable: Array<{ assemblyId: string; step: string; name: string }> } {
  const entries: MirrorEntry[] = [];
  const unfetchable: Array<{ assemblyId: string; step: string; name: string }> = [];
  const taken = new Set<string>();
  for (const source of sources) {
    const inputOf = new Map(source.inputs.filter((i) => i.uploadId).map((i) => [i.uploadId!, i]));
    for (const { step, file } of resultsOf(source.status)) {
      const url = resultUrl(file);
      const name = file.name ?? (file.basename ? `${file.basename}${file.ext ? `.${file.ext}` : ''}` : (file.id ?? 'result'));
      if (!url) {
        unfetchable.push({ assemblyId: source.assemblyId, step, name });
        continue;
      }
      const input = originalIds(file.original_id)
        .map((id) => inputOf.get(id))
        .find((i) => i !== undefined);
      let rel = targetPath(layout, { step, resultName: name, resultExt: file.ext ?? null, inputPath: input?.relativePath ?? null });
      const wanted = rel;
      for (let n = 2; taken.has(rel.toLowerCase()); n++) rel = numberedName(wanted, n);
      // Case-insensitive: two names differing only in case are one file on macOS and Windows.
      taken.add(rel.toLowerCase());
      const sha256 = (file as { sha256?: unknown }).sha256 ?? (file.meta as { sha256?: unknown } | undefined)?.sha256;
      entries.push({
        assemblyId: source.assemblyId,
        step,
        key: resultKey(source.assemblyId, step, file),
        url,
        file,
        relPath: rel,
        size: typeof file.size === 'number' ? file.size : null,
        md5: file.md5hash ?? null,
        sha256: typeof sha256 === 'string' ? sha256.toLowerCase() : null,
      });
    }
  }
  return { entries, unfetchable };
}
