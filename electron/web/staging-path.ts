import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { err, ok, type Result } from '../../shared/result';

/** The browser host's own error codes for staging uploads (a page gives no file paths, so bytes are copied). */
export const StagingErrorCode = {
  invalidPath: 'STAGING_PATH_INVALID',
  writeFailed: 'STAGING_WRITE_FAILED',
} as const;

export const MAX_STAGING_PATH_LENGTH = 1024;
const MAX_SEGMENT_LENGTH = 255;
const BATCH_ID = /^[A-Za-z0-9_-]{1,64}$/;
// Control characters (NUL included) and characters that are path syntax on some platform.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f\\:*?"<>|]/;

export interface StagingTarget {
  readonly batchId: string;
  /** Forward-slash relative path, as the page sent it (`photos/sub/a.jpg`). */
  readonly relativePath: string;
  /** Absolute file path inside the staging dir. */
  readonly filePath: string;
  /** `<stagingDir>/<batchId>/<first segment>`: what `files:scan` gets. */
  readonly rootPath: string;
}

/**
 * Parse `/staging/<batchId>/<relativePath>` (still percent-encoded) into a path that is guaranteed to stay
 * inside `<stagingDir>/<batchId>`. Every segment is checked after decoding, so `%2e%2e` and `%2F` are caught.
 */
export function resolveStagingPath(stagingDir: string, urlPath: string): Result<StagingTarget> {
  const bad = (why: string) => err(StagingErrorCode.invalidPath, `Invalid staging path: ${why}`);
  if (!urlPath.startsWith('/staging/')) return bad('must start with /staging/');
  if (urlPath.length > MAX_STAGING_PATH_LENGTH * 3) return bad('too long');
  const rawSegments = urlPath.slice('/staging/'.length).split('/');
  const segments: string[] = [];
  for (const raw of rawSegments) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return bad('malformed percent-encoding');
    }
    if (segment.length === 0) return bad('empty segment');
    if (segment === '.' || segment === '..') return bad('"." and ".." are not allowed');
    if (segment.includes('/')) return bad('encoded "/" inside a name');
    if (FORBIDDEN_CHARS.test(segment)) return bad('control or reserved character in a name');
    if (segment.length > MAX_SEGMENT_LENGTH) return bad('a name is longer than 255 characters');
    segments.push(segment);
  }
  const [batchId, ...rest] = segments;
  if (!batchId || !BATCH_ID.test(batchId)) return bad('batch id must be 1-64 letters, digits, "-" or "_"');
  if (rest.length === 0) return bad('missing file path');
  const relativePath = rest.join('/');
  if (relativePath.length > MAX_STAGING_PATH_LENGTH) return bad(`longer than ${MAX_STAGING_PATH_LENGTH} characters`);
  const batchDir = resolve(stagingDir, batchId);
  const filePath = resolve(batchDir, ...rest);
  const inside = relative(batchDir, filePath);
  // Belt and braces: the segment checks already exclude escapes; this catches anything they missed.
  if (inside.length === 0 || inside.startsWith('..') || isAbsolute(inside) || inside.split(sep).includes('..')) {
    return bad('escapes the staging folder');
  }
  return ok({ batchId, relativePath, filePath, rootPath: join(batchDir, rest[0] as string) });
}
