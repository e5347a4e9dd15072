import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';

/** Parses a single `bytes=a-b` range; null when absent or unsatisfiable as written (then the whole file is sent). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** Streams a stored file with its Content-Type and Content-Length; honours a single byte Range. */
export async function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  localPath: string,
  mime: string | null,
  name: string,
  cacheControl = 'private, max-age=3600',
  disposition: 'inline' | 'attachment' = 'inline',
  extraHeaders: Record<string, string> = {},
): Promise<boolean> {
  let size: number;
  try {
    size = (await stat(localPath)).size;
  } catch {
    return false;
  }
  const headers: Record<string, string | number> = {
    'Content-Type': mime ?? 'application/octet-stream',
    'Accept-Ranges': 'bytes',
    'Content-Disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(name)}`,
    'Cache-Control': cacheControl,
    ...extraHeaders,
  };
  const range = parseRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}` });
    res.end();
    return true;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  res.writeHead(range ? 206 : 200, {
    ...headers,
    'Content-Length': size === 0 ? 0 : end - start + 1,
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return true;
  }
  await pipeline(createReadStream(localPath, { start, end }), res).catch(() => undefined);
  return true;
}
