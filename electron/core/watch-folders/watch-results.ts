import path from 'node:path';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type { ConflictPolicy } from '../../../shared/ipc/mirror-models';
import type { Result } from '../../../shared/result';
import { matchInputs, mirrorResults, type MirrorInput } from '../results-mirror';

/** What writing one file's results did, paths relative to the output folder (`resized/sub/a.jpg`). */
export interface WatchResultsWritten {
  /** Every result written (sorted), including those in `keptBeside`. */
  written: string[];
  /** Written under a numbered name (`resized/a (2).jpg`) because an earlier result held the name (keep-both). */
  keptBeside: string[];
  /** Not written: an earlier result was at the path and was left as it was (skip). */
  skipped: string[];
}

/**
 * Writes one processed file's results into the watch's output folder through the results mirror
 * (docs/desktop.md "Results to disk"): `<step>/<relative path of the input, with the result's extension>`,
 * each file verified against the record (size, md5, sha256) and placed atomically. A result already at its
 * path (an earlier version of the same input) is handled by the watch's conflict policy — the mirror's own
 * overwrite / keep-both / skip. Resolves with what was written, kept beside and skipped; rejects with the
 * first failure's code and message.
 */
export async function writeResultsForWatch(input: {
  status: AssemblyStatus;
  relativePath: string;
  output: string;
  conflict: ConflictPolicy;
  fetch?: typeof fetch;
  /** The Assembly's status read again, for fresh URLs of results whose URL expired (mirror-run.ts). */
  readStatus?: (status: AssemblyStatus) => Promise<Result<AssemblyStatus>>;
  signal?: AbortSignal;
}): Promise<WatchResultsWritten> {
  const uploads = input.status.uploads ?? [];
  // One watched file per Assembly: its one upload is the input, whatever name the service gave it.
  const inputs: MirrorInput[] =
    uploads.length === 1
      ? [{ relativePath: input.relativePath, size: uploads[0]!.size ?? null, md5: uploads[0]!.md5hash ?? null, uploadId: uploads[0]!.id ?? null, error: null }]
      : matchInputs(null, input.status);
  const out: WatchResultsWritten = { written: [], keptBeside: [], skipped: [] };
  const rel = (p: string) => path.relative(input.output, p).split(path.sep).join('/');
  const done = await mirrorResults([{ assemblyId: input.status.assembly_id ?? '', status: input.status, inputs }], {
    outputDir: input.output,
    layout: 'by-step',
    conflict: input.conflict,
    onFile: (entry, outcome) => {
      if (outcome.kind === 'written') {
        const at = rel(outcome.path);
        out.written.push(at);
        // keep-both found the planned path taken and numbered the copy.
        if (at !== entry.relPath) out.keptBeside.push(at);
      } else if (outcome.kind === 'skipped') out.skipped.push(rel(outcome.path));
    },
    ...(input.fetch ? { fetch: input.fetch } : {}),
    ...(input.readStatus ? { readStatus: input.readStatus } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const first = done.errors[0];
  if (done.failed > 0 && first) throw new Error(`${first.code}: ${first.path}: ${first.message}`);
  return { written: out.written.sort(), keptBeside: out.keptBeside.sort(), skipped: out.skipped.sort() };
}
