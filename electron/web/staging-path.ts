import { createHash } from 'node:crypto';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { err, ok, type Result } from '../../shared/result';

/** The browser host's own error codes for staging uploads (a page gives no file paths, so bytes are copied). */
export const StagingErrorCode = {
  invalidPath: 'STAGING_PATH_INVALID',
  writeFailed: 'STAGING_WRITE_FAILED',
  /** The path clashes with what this batch already staged (a file where a folder must go). */
  conflict: 'STAGING_PATH_CONFLICT',
} as const;

/** Longest relative path a page may stage (Linux's PATH_MAX; a folder picked there can be this deep). */
export const MAX_STAGING_PATH_LENGTH = 4096;
/**
 * Longest absolute path staging writes as is (macOS allows 1,024 bytes). A deeper file is kept directly
 * below its root folder under a hashed name; the user's path is kept beside it (handle aliases).
 */
export const MAX_DISK_PATH_BYTES = 1000;
const MAX_SEGMENT_LENGTH = 255;
/**
 * Longest name staging writes as is. Linux allows 255 bytes, some file systems (eCryptfs) 143, and a
 * legal user name can be 255 UTF-16 units (765 bytes): longer names get a shorter name on disk.
 */
export const MAX_DISK_NAME_BYTES = 140;
const BATCH_ID = /^[A-Za-z0-9_-]{1,64}$/;
// NUL is the one character no file system allows in a name.
const hasNul = (segment: string) => segment.includes('\0');
// Legal in a name on Linux and macOS (control characters too), but path syntax or trouble somewhere:
// kept for the user, replaced on disk.
// eslint-disable-next-line no-control-regex
const RESERVED_CHARS = /[\\:*?"<>|\u0001-\u001f\u007f]/;

export interface StagingTarget {
  readonly batchId: string;
  /** Forward-slash relative path, as the page sent it (`photos/sub/a.jpg`): what the user sees and uploads. */
  readonly relativePath: string;
  /** The same below the batch folder on disk, with names too long or reserved there shortened. */
  readonly diskRelativePath: string;
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
  const bad = (why: string) => err(StagingErrorCode.invalidPath, `Invalid staging path: ${why}`, { httpCode: 400 });
  if (!urlPath.startsWith('/staging/')) return bad('must start with /staging/');
  // Percent-encoded UTF-8: up to 9 characters per character of the path.
  if (urlPath.length > MAX_STAGING_PATH_LENGTH * 9 + 200) return bad('too long');
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
    if (hasNul(segment)) return bad('NUL character in a name');
    if (segment.length > MAX_SEGMENT_LENGTH) return bad('a name is longer than 255 characters');
    segments.push(segment);
  }
  const [batchId, ...rest] = segments;
  if (!batchId || !BATCH_ID.test(batchId)) return bad('batch id must be 1-64 letters, digits, "-" or "_"');
  if (rest.length === 0) return bad('missing file path');
  const relativePath = rest.join('/');
  if (relativePath.length > MAX_STAGING_PATH_LENGTH) return bad(`longer than ${MAX_STAGING_PATH_LENGTH} characters`);
  const batchDir = resolve(stagingDir, batchId);
  let diskSegments = rest.map(diskNameFor);
  if (rest.length > 2 && Buffer.byteLength(resolve(batchDir, ...diskSegments)) > MAX_DISK_PATH_BYTES) {
    diskSegments = [diskSegments[0] as string, flatDiskName(rest.slice(1).join('/'))];
  }
  const filePath = resolve(batchDir, ...diskSegments);
  const inside = relative(batchDir, filePath);
  // Belt and braces: the segment checks already exclude escapes; this catches anything they missed.
  if (inside.length === 0 || inside.startsWith('..') || isAbsolute(inside) || inside.split(sep).includes('..')) {
    return bad('escapes the staging folder');
  }
  return ok({ batchId, relativePath, diskRelativePath: diskSegments.join('/'), filePath, rootPath: join(batchDir, diskSegments[0] as string) });
}

/**
 * The name a segment gets on disk: itself when any file system takes it, else a readable prefix, `~`, a
 * hash of the whole name (so two long names sharing a prefix never collide) and the extension, at most
 * MAX_DISK_NAME_BYTES long. The user's own name is kept beside it (core's handle aliases).
 */
export function diskNameFor(segment: string): string {
  const reserved = RESERVED_CHARS.test(segment) || /[. ]$/.test(segment);
  if (!reserved && Buffer.byteLength(segment) <= MAX_DISK_NAME_BYTES) return segment;
  return hashedDiskName(segment);
}

/** A readable prefix of `segment`, `~`, a hash of the whole of it and its extension: a name of its own on any disk. */
export function hashedDiskName(segment: string): string {
  const hash = createHash('sha256').update(segment).digest('hex').slice(0, 12);
  const dot = segment.lastIndexOf('.');
  const rawExt = dot > 0 ? segment.slice(dot) : '';
  const ext = /^\.[A-Za-z0-9]{1,15}$/.test(rawExt) ? rawExt : '';
  const stem = (ext ? segment.slice(0, -ext.length) : segment).replace(new RegExp(RESERVED_CHARS.source, 'g'), '_');
  const budget = MAX_DISK_NAME_BYTES - Buffer.byteLength(`~${hash}${ext}`);
  return `${truncateUtf8(stem, budget)}~${hash}${ext}`;
}

/**
 * The name a file too deep for the disk gets directly below its root: its own name's start, `~~`, a hash of
 * its whole path below the root (two deep files never share one) and the extension.
 */
export function flatDiskName(pathBelowRoot: string): string {
  const name = pathBelowRoot.slice(pathBelowRoot.lastIndexOf('/') + 1);
  const hash = createHash('sha256').update(pathBelowRoot).digest('hex').slice(0, 16);
  const dot = name.lastIndexOf('.');
  const rawExt = dot > 0 ? name.slice(dot) : '';
  const ext = /^\.[A-Za-z0-9]{1,15}$/.test(rawExt) ? rawExt : '';
  const stem = (ext ? name.slice(0, -ext.length) : name).replace(new RegExp(RESERVED_CHARS.source, 'g'), '_').replace(/^\.+/, '_');
  return `${truncateUtf8(stem, 60)}~~${hash}${ext}`;
}

/** The longest prefix of `text` (whole code points) that fits in `maxBytes` of UTF-8. */
function truncateUtf8(text: string, maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > maxBytes) break;
    out += char;
    bytes += size;
  }
  return out;
}
