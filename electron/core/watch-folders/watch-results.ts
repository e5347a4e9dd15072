import path from 'node:path';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { matchInputs, mirrorResults, type MirrorInput } from '../results-mirror';

/**
 * Writes one processed file's results into the watch's output folder through the results mirror
 * (docs/desktop.md "Results to disk"): `<step>/<relative path of the input, with the result's extension>`,
 * each file verified against the record (size, md5, sha256) and placed atomically; a result of an earlier
 * version of the same input is replaced (the watch's conflict policy is always overwrite). Resolves with the
 * written paths relative to the output folder; rejects with the first failure's code and message.
 */
export async function writeResultsForWatch(input: {
  status: AssemblyStatus;
  relativePath: string;
  output: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}): Promise<string[]> {
  const uploads = input.status.uploads ?? [];
  // One watched file per Assembly: its one upload is the input, whatever name the service gave it.
  const inputs: MirrorInput[] =
    uploads.length === 1
      ? [{ relativePath: input.relativePath, size: uploads[0]!.size ?? null, md5: uploads[0]!.md5hash ?? null, uploadId: uploads[0]!.id ?? null, error: null }]
      : matchInputs(null, input.status);
  const written: string[] = [];
  const done = await mirrorResults([{ assemblyId: input.status.assembly_id ?? '', status: input.status, inputs }], {
    outputDir: input.output,
    layout: 'by-step',
    conflict: 'overwrite',
    onFile: (_entry, outcome) => {
      if (outcome.kind === 'written') written.push(path.relative(input.output, outcome.path).split(path.sep).join('/'));
    },
    ...(input.fetch ? { fetch: input.fetch } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const first = done.errors[0];
  if (done.failed > 0 && first) throw new Error(`${first.code}: ${first.path}: ${first.message}`);
  return written.sort();
}
