import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LocalFile } from '../../../shared/ipc/models';
import { mimeFromName } from './mime-types';

/** OS litter that never belongs in an Assembly. Dotfiles (`.DS_Store`, `.git`) are skipped as a rule. */
const IGNORED_NAMES = new Set(['thumbs.db', 'desktop.ini', 'ehthumbs.db', '$recycle.bin', 'icon\r']);

export const isIgnoredName = (name: string): boolean => name.startsWith('.') || IGNORED_NAMES.has(name.toLowerCase());

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
 * Expands dropped paths into files. A folder is walked recursively with a streaming `opendir`, so
 * thousands of entries never sit in one array; each file's relativePath is taken from the dropped item's
 * parent (`/x/photos` → `photos/a.jpg`, `photos/sub/b.jpg`). Entries that cannot be read are reported.
 */
export async function scanPaths(paths: readonly string[], options: ScanOptions = {}): Promise<DiskScan> {
  const maxFiles = options.maxFiles ?? 100_000;
  const files: LocalFile[] = [];
  const skipped: DiskScan['skipped'] = [];
  const seen = new Set<string>();

  const addFile = (absolute: string, relative: string, size: number) => {
    if (seen.has(absolute)) return;
    if (files.length >= maxFiles) {
      skipped.push({ path: absolute, reason: `More than ${maxFiles} files: split the drop into several runs.` });
      return;
    }
    seen.add(absolute);
    const name = path.basename(absolute);
    files.push({ path: absolute, relativePath: relative.split(path.sep).join('/'), name, size, mime: mimeFromName(name) });
  };

  async function walk(dir: string, root: string): Promise<void> {
    let handle;
    try {
      handle = await opendir(dir, { bufferSize: 256 });
    } catch (cause) {
      skipped.push({ path: dir, reason: reasonOf(cause) });
      return;
    }
    const subdirs: string[] = [];
    try {
      for await (const entry of handle) {
        if (isIgnoredName(entry.name)) continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) subdirs.push(full);
        else if (entry.isFile() || entry.isSymbolicLink()) await addEntry(full, root);
        else skipped.push({ path: full, reason: 'Not a regular file (device, socket or pipe).' });
      }
    } catch (cause) {
      skipped.push({ path: dir, reason: reasonOf(cause) });
    }
    subdirs.sort();
    for (const sub of subdirs) await walk(sub, root);
  }

  /** Follows symlinks to files; a link to a folder is not followed, so a loop can never hang the scan. */
  async function addEntry(full: string, root: string): Promise<void> {
    try {
      const info = await stat(full);
      if (info.isFile()) addFile(full, path.relative(root, full), info.size);
      else if (!info.isDirectory()) skipped.push({ path: full, reason: 'Not a regular file.' });
      else skipped.push({ path: full, reason: 'Link to a folder: not followed.' });
    } catch (cause) {
      skipped.push({ path: full, reason: reasonOf(cause) });
    }
  }

  for (const input of paths) {
    const absolute = path.resolve(input);
    try {
      const info = await stat(absolute);
      if (info.isDirectory()) await walk(absolute, path.dirname(absolute));
      else if (info.isFile()) addFile(absolute, path.basename(absolute), info.size);
      else skipped.push({ path: absolute, reason: 'Not a regular file or folder.' });
    } catch (cause) {
      skipped.push({ path: absolute, reason: reasonOf(cause) });
    }
  }

  files.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  return { files, skipped, totalBytes: files.reduce((sum, f) => sum + f.size, 0) };
}

function reasonOf(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'Not found (moved, deleted, or a broken link).';
    case 'EACCES':
    case 'EPERM':
      return 'Permission denied.';
    case 'ELOOP':
      return 'Too many symbolic links (a link loop).';
    default:
      return cause instanceof Error ? cause.message : String(cause);
  }
}
