import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { nthName, withExtension } from './watch-paths';

/** One result to write: its URL and where it goes below the output folder. */
export interface PlannedResult {
  url: string;
  /** Relative to the output folder, `/`-separated: `resized/sub/a.jpg`. */
  target: string;
}

/** A step name as a folder name (`:original` → `original`; no separators or reserved characters). */
export function stepFolder(step: string): string {
  // eslint-disable-next-line no-control-regex
  return step.replace(/^:+/, '').replace(/[<>:"|?*\\/\u0000-\u001f]/g, '_') || 'results';
}

/**
 * Where each result of one input's Assembly goes: `<step>/<relative path of the input, with the result's
 * extension>`; a step with several results for the one input numbers the extra ones (` (1)`, ` (2)`).
 * Pure, so the layout is tested without a download.
 */
export function planResults(status: Pick<AssemblyStatus, 'results'>, relativePath: string): PlannedResult[] {
  const out: PlannedResult[] = [];
  for (const [step, files] of Object.entries(status.results ?? {})) {
    const usable = files.filter((f) => typeof (f.ssl_url ?? f.url) === 'string');
    usable.forEach((file, n) => {
      const rel = withExtension(relativePath, file.ext ?? null);
      out.push({ url: (file.ssl_url ?? file.url) as string, target: `${stepFolder(step)}/${nthName(rel, n)}` });
    });
  }
  return out;
}

/**
 * Writes one processed file's results into the output folder (replacing results of an earlier version of
 * the same input). A small downloader of its own for now: the lead switches this to the results mirror
 * (electron/core/results-mirror/) when merging, so conflict policy and hash checks are shared.
 * Each file goes to `<target>.part` first, so a broken download never looks like a result.
 */
export async function writeResultsForWatch(input: {
  status: Pick<AssemblyStatus, 'results'>;
  relativePath: string;
  output: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Promise<string[]> {
  const written: string[] = [];
  for (const planned of planResults(input.status, input.relativePath)) {
    const target = path.join(input.output, ...planned.target.split('/'));
    if (!isBelow(input.output, target)) throw new Error(`A result would leave the output folder: ${planned.target}`);
    const response = await (input.fetch ?? fetch)(planned.url, { signal: AbortSignal.timeout(input.timeoutMs ?? 10 * 60_000) });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new Error(`Downloading ${planned.target} failed: HTTP ${response.status}.`);
    }
    await mkdir(path.dirname(target), { recursive: true });
    const part = `${target}.part`;
    try {
      await pipeline(Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>), createWriteStream(part));
      await rename(part, target);
    } catch (cause) {
      await rm(part, { force: true });
      throw cause;
    }
    written.push(planned.target);
  }
  return written;
}

function isBelow(outer: string, inner: string): boolean {
  const rel = path.relative(path.resolve(outer), path.resolve(inner));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
