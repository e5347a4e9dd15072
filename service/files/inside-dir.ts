// Every path the service writes for an Assembly is proven to stay inside the Assembly's folder here.
// Names are made safe first (safe-name.ts); this is the check that holds even if a name slipped through.

import { isAbsolute, relative, resolve } from 'node:path';
import { safeFileName, safeFileNameWithSuffix } from './safe-name';

export const UNSAFE_PATH_CODE = 'FILE_PATH_OUTSIDE_ASSEMBLY';

/** A write that would land outside its folder; it is refused, never performed. */
export class UnsafePathError extends Error {
  readonly code = UNSAFE_PATH_CODE;
  constructor(readonly dir: string, readonly segments: readonly string[]) {
    super(`Refused to write ${JSON.stringify(segments.join('/'))}: it is not inside its Assembly's folder.`);
    this.name = 'UnsafePathError';
  }
}

/** True when `target` is `dir` itself or below it (both absolute or both relative to the same cwd). */
export function isInside(dir: string, target: string): boolean {
  const rel = relative(resolve(dir), resolve(target));
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith('../') && !rel.startsWith('..\\'));
}

/** `segments` resolved below `dir`; throws UnsafePathError when the result is not strictly inside `dir`. */
export function resolveInside(dir: string, ...segments: string[]): string {
  const target = resolve(dir, ...segments);
  if (target === resolve(dir) || !isInside(dir, target) || segments.some((s) => s.includes('\0'))) throw new UnsafePathError(dir, segments);
  return target;
}

const onWindows = { windows: process.platform === 'win32' };

/**
 * A file in `dir` named after `rawName` made safe (see safeFileName), proven to stay in `dir`. A `suffix`
 * of the service's own (such as "_2.jpg") survives a cut whole (safeFileNameWithSuffix).
 */
export const safePathIn = (dir: string, rawName: string, suffix = ''): string =>
  resolveInside(dir, suffix === '' ? safeFileName(rawName, onWindows) : safeFileNameWithSuffix(rawName, suffix, onWindows));
