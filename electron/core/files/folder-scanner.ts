import { constants } from 'node:fs';
import { access, opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LocalFile } from '../../../shared/ipc/models';
import { mimeFromName } from './mime-types';

/** OS litter that never belongs in an Assembly. Dotfiles (`.DS_Store`, `.git`) are skipped as a rule. */
const IGNORED_NAMES = new Set(['thumbs.db', 'desktop.ini', 'ehthumbs.db', '$recycle.bin', 'icon\r']);

export const isIgnoredName = (name: string): boolean => name.startsWith('.') || IGNORED_NAMES.has(name.toLowerCase());

/** One thing a walk found: a readable file, or an item it could not take and why. */
export type WalkEntry =
  | {
      readonly kind: 'file';
      /** The dropped root this came from (absolute). */
      readonly root: string;
      readonly path: string;
      /** From the root's parent, `/`-separated: `photos/sub/a.jpg` (as it is on disk). */
      readonly relativePath: string;
      readonly size: number;
      readonly mtimeMs: number;
    }
  | { readonly kind: 'skip'; readonly root: string; readonly path: string; readonly relativePath: string; readonly reason: string };

export interface WalkOptions {
  /** Leave out dotfiles and OS litter without reporting them (files:scan's old behaviour). Default false. */
  skipHidden?: boolean;
  /** Stop soon after this is aborted (a cleared draft). */
  signal?: AbortSignal;
}

/** Entries stat'ed at once: enough to keep libuv's threads busy, few enough to yield often. */
const STAT_CHUNK = 32;

/**
 * Walks dropped paths and yields each file as soon as it is known (a streaming `opendir` per folder, an
 * explicit stack instead of recursion), so the first files are usable long before a 100 000-file tree is
 * done. Order: a folder's files by name, then its subfolders by name. Every file is probed for read
 * permission here, so an unreadable one is reported now rather than failing its upload later. A link to a
 * file is followed; a link to a folder is not (a loop can never hang the walk).
 */
export async function* walkPaths(paths: readonly string[], options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const skipHidden = options.skipHidden ?? false;
  const stopped = () => options.signal?.aborted === true;
  for (const input of paths) {
    if (stopped()) return;
    const absolute = path.resolve(input);
    const base = path.dirname(absolute);
    const rel = (full: string) => path.relative(base, full).split(path.sep).join('/');
    const skip = (full: string, reason: string): WalkEntry => ({ kind: 'skip', root: absolute, path: full, relativePath: rel(full), reason });
    let info;
    try {
      info = await stat(absolute);
    } catch (cause) {
      yield skip(absolute, reasonOf(cause));
      continue;
    }
    if (info.isFile()) {
      yield await probeFile(absolute, absolute, rel(absolute));
      continue;
    }
    if (!info.isDirectory()) {
      yield skip(absolute, 'Not a regular file or folder.');
      continue;
    }
    const stack = [absolute];
    while (stack.length > 0) {
      if (stopped()) return;
      const dir = stack.pop() as string;
      const listed = await listDir(dir);
      if (!listed.ok) {
        yield skip(dir, listed.reason);
        continue;
      }
      const files: string[] = [];
      const subdirs: string[] = [];
      for (const entry of listed.entries) {
        if (skipHidden && isIgnoredName(entry.name)) continue;
        const full = path.join(dir, entry.name);
        if (entry.dir) subdirs.push(full);
        else if (entry.fileOrLink) files.push(full);
        else yield skip(full, 'Not a regular file (device, socket or pipe).');
      }
      for (let i = 0; i < files.length; i += STAT_CHUNK) {
        if (stopped()) return;
        const chunk = files.slice(i, i + STAT_CHUNK);
        for (const entry of await Promise.all(chunk.map((full) => probeFile(absolute, full, rel(full))))) yield entry;
      }
      if (listed.error) yield skip(dir, listed.error);
      // Reverse onto the stack so subfolders come off it in name order.
      for (let i = subdirs.length - 1; i >= 0; i -= 1) stack.push(subdirs[i] as string);
    }
  }
}

interface Listed {
  ok: true;
  entries: { name: string; dir: boolean; fileOrLink: boolean }[];
  /** The folder stopped listing part way (it vanished, or an I/O error). */
  error: string | null;
}

async function listDir(dir: string): Promise<Listed | { ok: false; reason: string }> {
  let handle;
  try {
    handle = await opendir(dir, { bufferSize: 256 });
  } catch (cause) {
    return { ok: false, reason: reasonOf(cause) };
  }
  const entries: Listed['entries'] = [];
  let error: string | null = null;
  try {
    for await (const entry of handle) entries.push({ name: entry.name, dir: entry.isDirectory(), fileOrLink: entry.isFile() || entry.isSymbolicLink() });
  } catch (cause) {
    error = reasonOf(cause);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ok: true, entries, error };
}

/** stat (following a link) plus a read-permission probe: one file's entry. */
async function probeFile(root: string, full: string, relativePath: string): Promise<WalkEntry> {
  const skip = (reason: string): WalkEntry => ({ kind: 'skip', root, path: full, relativePath, reason });
  try {
    const info = await stat(full);
    if (info.isDirectory()) return skip('Link to a folder: not followed.');
    if (!info.isFile()) return skip('Not a regular file.');
    await access(full, constants.R_OK);
    return { kind: 'file', root, path: full, relativePath, size: info.size, mtimeMs: info.mtimeMs };
  } catch (cause) {
    return skip(reasonOf(cause));
  }
}

/** What a scan found on disk, with absolute paths: core's own view (files:scan turns it into handles). */
export interface DiskScan {
  files: LocalFile[];
  /** Entries that could not be read (permission denied, broken link), with the reason. */
  skipped: { path: string; reason: string }[];
  totalBytes: number;
}

export interface ScanOptions {
  /** Stop after this many files (the contract allows 100 000 per run). */
  maxFiles?: number;
}

/**
 * Expands dropped paths into one sorted list (files:scan): the walk above, collected, without dotfiles
 * and OS litter. Each file's relativePath is taken from the dropped item's parent (`/x/photos` →
 * `photos/a.jpg`, `photos/sub/b.jpg`). Entries that cannot be read are reported.
 */
export async function scanPaths(paths: readonly string[], options: ScanOptions = {}): Promise<DiskScan> {
  const maxFiles = options.maxFiles ?? 100_000;
  const files: LocalFile[] = [];
  const skipped: DiskScan['skipped'] = [];
  const seen = new Set<string>();
  for await (const entry of walkPaths(paths, { skipHidden: true })) {
    if (entry.kind === 'skip') {
      skipped.push({ path: entry.path, reason: entry.reason });
      continue;
    }
    if (seen.has(entry.path)) continue;
    if (files.length >= maxFiles) {
      skipped.push({ path: entry.path, reason: `More than ${maxFiles} files: split the drop into several runs.` });
      continue;
    }
    seen.add(entry.path);
    const name = path.basename(entry.path);
    files.push({ path: entry.path, relativePath: entry.relativePath, name, size: entry.size, mime: mimeFromName(name) });
  }
  files.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  return { files, skipped, totalBytes: files.reduce((sum, f) => sum + f.size, 0) };
}

export function reasonOf(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'Not found (moved, deleted, or a broken link).';
    case 'EACCES':
    case 'EPERM':
      return 'Permission denied: no read access.';
    case 'ELOOP':
      return 'Too many symbolic links (a link loop).';
    case 'ENAMETOOLONG':
      return 'The path is too long for this system.';
    default:
      return cause instanceof Error ? cause.message : String(cause);
  }
}
