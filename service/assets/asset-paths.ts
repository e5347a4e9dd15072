// Stored-asset paths, names, ids and cursors (docs/local-service.md "Stored assets"). Pure.
//
// A path is "folder/sub/name.ext": segments joined by "/", each a valid filename (the addendum's rule:
// 1..255 characters, no "/", "\" or control characters, not "." or "..", no surrounding spaces).
// Folders are path prefixes; a folder id is the folder's path without the trailing "/" ("photos/2026"),
// null for the root.

import { randomBytes } from 'node:crypto';

/** Asset and version ids: 16 random bytes in base64url, 22 characters; the last holds 2 bits (A, Q, g or w). */
export const ASSET_ID = /^[A-Za-z0-9_-]{21}[AQgw]$/;
export const newAssetId = (): string => randomBytes(16).toString('base64url');

// C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
export const MAX_FILENAME = 255;
/** A whole path: a generous cap so a folder tree cannot grow without bound. */
export const MAX_PATH = 1024;

/** Why `name` is not a valid filename, or null when it is. */
export function filenameProblem(name: string): string | null {
  if (name.length === 0) return 'a filename cannot be empty';
  if (name.length > MAX_FILENAME) return `a filename has at most ${MAX_FILENAME} characters (got ${name.length})`;
  if (name.includes('/') || name.includes('\\')) return 'a filename cannot contain "/" or "\\"';
  if (CONTROL.test(name)) return 'a filename cannot contain control characters';
  if (name === '.' || name === '..') return 'a filename cannot be "." or ".."';
  if (name.trim() !== name) return 'a filename cannot start or end with spaces';
  return null;
}

/** Why `path` is not a valid asset path ("a/b/c.jpg"), or null. */
export function pathProblem(path: string): string | null {
  if (path.length > MAX_PATH) return `a path has at most ${MAX_PATH} characters`;
  for (const segment of path.split('/')) {
    const problem = filenameProblem(segment);
    if (problem) return `${problem} (in "${path}")`;
  }
  return null;
}

/**
 * A folder id from outside → the folder as a path prefix ("photos/2026" → "photos/2026/", null → "").
 * One trailing "/" is accepted. A string is the problem.
 */
export function folderPrefix(id: unknown): { prefix: string } | { problem: string } {
  if (id === null) return { prefix: '' };
  if (typeof id !== 'string') return { problem: 'destination_folder_id must be a folder path such as "photos/2026", or null for the root' };
  const trimmed = id.endsWith('/') ? id.slice(0, -1) : id;
  const problem = pathProblem(trimmed);
  return problem ? { problem: `destination_folder_id: ${problem}` } : { prefix: `${trimmed}/` };
}

/** "a/b/c.jpg" → folder "a/b/" (with its "/"; "" at the root) and filename "c.jpg". */
export function splitPath(path: string): { folder: string; filename: string } {
  const slash = path.lastIndexOf('/');
  return { folder: path.slice(0, slash + 1), filename: path.slice(slash + 1) };
}

/** "a/b/" → "a/b"; "" → null (the root). */
export const folderId = (folder: string): string | null => (folder === '' ? null : folder.slice(0, -1));

/** Every folder above a path, outermost first: "a/b/c.jpg" → ["a/", "a/b/"]. */
export function ancestorFolders(path: string): string[] {
  const out: string[] = [];
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) out.push(path.slice(0, i + 1));
  return out;
}

/** "a/b/" → "a/"; "a/" → "". */
export const parentFolder = (folder: string): string => splitPath(folder.slice(0, -1)).folder;

/**
 * The smallest string above every string that starts with `prefix` (byte order of UTF-8, SQLite's
 * BINARY collation), so a prefix becomes an index range [prefix, end). Null when there is none.
 */
export function prefixEnd(prefix: string): string | null {
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  while (points.length > 0) {
    let next = points.pop()! + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000; // lone surrogates cannot be stored
    if (next <= 0x10ffff) return String.fromCodePoint(...points, next);
  }
  return null;
}

/** "name (1).ext" style alternatives for a taken path: n = 1, 2, … (the extension is kept). */
export function renamedPath(path: string, n: number): string {
  const { folder, filename } = splitPath(path);
  const dot = filename.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ''];
  return `${folder}${base} (${n})${ext}`;
}

/** The opaque list cursor: the last path served, base64url. */
export const encodeCursor = (lastPath: string): string => Buffer.from(JSON.stringify({ p: lastPath }), 'utf8').toString('base64url');

export function decodeCursor(cursor: string): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    const p = (parsed as { p?: unknown } | null)?.p;
    return typeof p === 'string' ? p : null;
  } catch {
    return null;
  }
}
