import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** A file name safe on every OS: no folders, no reserved characters, not empty. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[<>:"|?*\u0000-\u001f]/g, '_').replace(/^\.+/, '').trim();
  return cleaned.slice(0, 200) || 'download';
}

/** `name.jpg`, then `name (1).jpg`, `name (2).jpg`, ... */
export function candidateName(name: string, attempt: number): string {
  if (attempt === 0) return name;
  const ext = path.extname(name);
  return `${name.slice(0, name.length - ext.length)} (${attempt})${ext}`;
}

/** A download the server answered with an HTTP error (its status kept: 403/404/410 may mean an expired URL). */
export class DownloadHttpError extends Error {
  constructor(readonly status: number) {
    super(`The download failed: HTTP ${status}.`);
    this.name = 'DownloadHttpError';
  }
}

/**
 * Streams a URL into `dir` under a name that does not exist yet (reserved with O_EXCL so two downloads
 * never pick the same one). The body goes to a `.part` file first, so a broken download never looks done.
 */
export async function downloadToDir(url: string, dir: string, name: string, options: { fetch?: typeof fetch; timeoutMs?: number } = {}): Promise<string> {
  const response = await (options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 10 * 60_000) });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new DownloadHttpError(response.status);
  }
  return saveResponseToDir(response, dir, name);
}

/** The body of an open response (a signed request core made, e.g. a stored asset's bytes) into `dir`, as downloadToDir. */
export async function saveResponseToDir(response: Response, dir: string, name: string): Promise<string> {
  if (!response.body) throw new Error(`The download failed: HTTP ${response.status} without a body.`);
  await mkdir(dir, { recursive: true });
  const safe = safeFileName(name);
  let target = '';
  for (let attempt = 0; ; attempt++) {
    target = path.join(dir, candidateName(safe, attempt));
    try {
      await (await open(target, 'wx')).close();
      break;
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 10_000) throw cause;
    }
  }
  const part = `${target}.part`;
  try {
    await pipeline(Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>), createWriteStream(part));
    await rename(part, target);
  } catch (cause) {
    await rm(part, { force: true });
    await rm(target, { force: true });
    throw cause;
  }
  return target;
}
