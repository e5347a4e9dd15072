// What every import robot (/s3/import, /http/import, /ftp/import, /sftp/import…) does with a file it
// brings in: writes it below the step's folder under a safe name, and describes it like an upload (size,
// md5, mime, real metadata). Also the parameters all imports share: `force_name` and `ignore_errors`.

import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describeUpload, newFileId, type StoredFile } from '../file-record';
import { outputDir, outputFile } from '../output-path';

/** A source's bytes were more than the step allows (`max_file_size`, or the service's own cap). */
export class TooLarge extends Error {
  constructor(readonly limit: number) {
    super(`larger than ${limit} bytes`);
  }
}

/** The name of the n-th imported file: `force_name` (a string for all, or a list by position) or its own. Pure. */
export function importName(forceName: unknown, index: number, own: string): string {
  const forced = Array.isArray(forceName) ? forceName[index] : forceName;
  const name = typeof forced === 'string' && forced.trim() !== '' ? forced : own;
  return name === '' ? 'file' : name;
}

/** `ignore_errors` as the vendor takes it: true (all), false, or a list of `meta`, `import`, `execute`. Pure. */
export function ignoresErrors(v: unknown, kind: 'meta' | 'import' | 'execute'): boolean {
  return v === true || (Array.isArray(v) && v.includes(kind));
}

/** The last segment of a path or URL path, decoded where it is percent-encoded. Pure. */
export function baseNameOf(path: string): string {
  const last = path.replace(/\/+$/, '').split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function limitBytes(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      done(seen > limit ? new TooLarge(limit) : null, chunk);
    },
  });
}

/**
 * Writes `body` as a new file of the step named `name` and describes it. `maxBytes`: the stream fails with
 * TooLarge past it, and nothing of the file is kept.
 */
export async function keepImported(outDir: string, name: string, body: Readable, o: { maxBytes?: number; signal?: AbortSignal } = {}): Promise<StoredFile> {
  // The body may fail while the folder is made (an FTP server's 550 arrives at once): heard here, the error
  // reaches the pipeline below through the destroyed stream instead of ending the process as uncaught.
  const early = (): void => undefined;
  body.on('error', early);
  const id = newFileId();
  const localPath = outputFile(await outputDir(outDir, id), name);
  try {
    const sink = createWriteStream(localPath);
    if (o.maxBytes !== undefined) await pipeline(body, limitBytes(o.maxBytes), sink, { signal: o.signal });
    else await pipeline(body, sink, { signal: o.signal });
  } catch (e) {
    await rm(localPath, { force: true });
    throw e;
  } finally {
    body.off('error', early);
  }
  return describeUpload({ localPath, name, id });
}

/** "0-99" / "-500" / "100-" → `bytes=…` Range values; null when one is malformed. Pure. */
export function byteRanges(v: unknown): string[] | null {
  if (v === undefined || v === null) return [];
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : null;
  if (!list) return null;
  const out: string[] = [];
  for (const r of list) {
    if (typeof r !== 'string' || !/^\s*(\d+-\d*|-\d+)\s*$/.test(r)) return null;
    out.push(`bytes=${r.trim()}`);
  }
  return out;
}

/**
 * One body of several byte ranges, as the vendor's imports make it: each range at its own offset, zero
 * bytes in the gaps between them. `fetch` gets one Range header value at a time.
 */
export function rangedBody(ranges: string[], fetch: (range: string) => Promise<Readable>): Readable {
  const out = new PassThrough();
  void (async () => {
    let at = 0;
    for (const r of ranges) {
      const start = Number(/bytes=(\d*)/.exec(r)?.[1] || '0');
      if (start > at) {
        out.write(Buffer.alloc(start - at));
        at = start;
      }
      for await (const chunk of await fetch(r)) {
        if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
        at += (chunk as Buffer).length;
      }
    }
    out.end();
  })().catch((e: Error) => out.destroy(e));
  return out;
}
