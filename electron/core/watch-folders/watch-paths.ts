import path from 'node:path';

/** Names a watch never takes: partial downloads and copies, Office lock files, OS litter, hidden files. */
const TEMP_SUFFIXES = ['.part', '.crdownload', '.partial', '.download', '.tmp'];
const OS_LITTER = new Set(['.ds_store', 'thumbs.db', 'desktop.ini']);

/** True when a file (relative path below the watched folder) is hidden, temporary or OS litter. */
export function isIgnoredRelativePath(relativePath: string): boolean {
  const parts = relativePath.split(/[\\/]/).filter(Boolean);
  if (parts.some((p) => p.startsWith('.'))) return true;
  const name = (parts.at(-1) ?? '').toLowerCase();
  if (OS_LITTER.has(name)) return true;
  if (name.startsWith('~$')) return true;
  return TEMP_SUFFIXES.some((s) => name.endsWith(s));
}

/**
 * Folders below the watched one a watch never takes files from: its output folder, its move-to folder and
 * former ones an edit left behind (their results would otherwise come back as new files).
 */
export function excludedFolders(def: { output: string; afterSuccess: { kind: string; folder?: string }; retiredFolders?: string[] }): string[] {
  return [def.output, ...(def.afterSuccess.kind === 'move' && def.afterSuccess.folder ? [def.afterSuccess.folder] : []), ...(def.retiredFolders ?? [])];
}

/**
 * The retired folders after an edit: the old output and move-to folders that lie inside the watched folder
 * and are no longer in use join the list; one back in use leaves it.
 */
export function retiredAfterEdit(folder: string, before: { output: string; afterSuccess: { kind: string; folder?: string }; retiredFolders?: string[] }, after: { output: string; afterSuccess: { kind: string; folder?: string } }): string[] {
  const inUse = excludedFolders({ ...after, retiredFolders: [] });
  const candidates = [...(before.retiredFolders ?? []), ...excludedFolders({ ...before, retiredFolders: [] })];
  const kept = candidates.filter((f) => isInside(folder, f) && !inUse.some((u) => path.resolve(u) === path.resolve(f)));
  return [...new Set(kept)];
}

/** `inner` is `outer` or below it (both absolute). */
export function isInside(outer: string, inner: string): boolean {
  const rel = path.relative(path.resolve(outer), path.resolve(inner));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `a/b/photo.jpg` + `png` → `a/b/photo.png`; keeps the name when the result has no extension. */
export function withExtension(relativePath: string, ext: string | null | undefined): string {
  const posix = relativePath.split(path.sep).join('/');
  if (!ext) return posix;
  const clean = ext.replace(/^\./, '');
  const dot = posix.lastIndexOf('.');
  const slash = posix.lastIndexOf('/');
  const stem = dot > slash + 1 ? posix.slice(0, dot) : posix;
  return `${stem}.${clean}`;
}

/** The n-th result of one input in one step: the first keeps the name, the others get ` (n)`. */
export function nthName(relativePath: string, n: number): string {
  if (n === 0) return relativePath;
  const dot = relativePath.lastIndexOf('.');
  const slash = relativePath.lastIndexOf('/');
  return dot > slash + 1 ? `${relativePath.slice(0, dot)} (${n})${relativePath.slice(dot)}` : `${relativePath} (${n})`;
}
