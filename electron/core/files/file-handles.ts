import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { BridgeErrorCode } from '../../../shared/ipc/bridge-errors';
import { err, ok, type Result } from '../../../shared/result';

/**
 * Opaque handles for what the user picked or dropped. The page is untrusted, so it never names a path on
 * disk: the host registers each picked root (Electron's preload with real paths, the browser host with
 * what it staged) and the page gets a random id back. Every later request names a handle plus a relative
 * path, which must stay inside that root. Handles live in memory: a restart or a long idle expires them.
 */

export interface FileHandleRegistryOptions {
  /** Milliseconds a handle lives after its last use (12 h: a selection may wait while the user is away). */
  readonly ttlMs?: number;
  /** Oldest handles are forgotten past this many (a page cannot grow core's memory without bound). */
  readonly maxHandles?: number;
  readonly now?: () => number;
  readonly newId?: () => string;
}

export interface FileHandleRegistry {
  /** A handle for a picked root; the same root keeps the same handle while it lives. */
  register(rootPath: string): string;
  /**
   * Record that a file below a root is shown to the user under another relative path than it has on disk
   * (the browser host shortens names its file system cannot hold). Both paths start with the root's name.
   */
  alias(handle: string, diskRelativePath: string, userRelativePath: string): void;
  /** `[on disk, as the user sees it]` of every name the host shortened below a root (kept with a saved draft). */
  aliasesOf(handle: string): [string, string][];
  /** The picked root (absolute path) of a live handle. */
  root(handle: string): Result<string>;
  /** The path on disk named by `relativePath` (as the user sees it) below a live handle's root. */
  resolve(handle: string, relativePath: string): Result<string>;
  /** The relative path the user sees for a relative path on disk below a handle's root. */
  shownAs(handle: string, diskRelativePath: string): string;
  /**
   * Record an item of this root the host could not take (the browser host: the page could not read a
   * file, so nothing was staged), as the user sees it and why. Listed once by the next walk of the root.
   */
  noteUnreadable(handle: string, relativePath: string, reason: string): void;
  /** The notes of a root, handed over once (a later walk of the same root does not list them again). */
  takeUnreadable(handle: string): { relativePath: string; reason: string }[];
}

interface Entry {
  readonly root: string;
  lastUsed: number;
  /** disk relative path → user's, and back; empty unless the host shortened names. */
  readonly toUser: Map<string, string>;
  readonly toDisk: Map<string, string>;
  unreadable: { relativePath: string; reason: string }[];
}

/** Notes kept per root: a page cannot grow core's memory without bound by reporting failures. */
const MAX_NOTES_PER_ROOT = 100_000;

const DEFAULT_TTL_MS = 12 * 60 * 60_000;
const DEFAULT_MAX_HANDLES = 10_000;

export function createFileHandleRegistry(options: FileHandleRegistryOptions = {}): FileHandleRegistry {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const maxHandles = options.maxHandles ?? DEFAULT_MAX_HANDLES;
  const now = options.now ?? Date.now;
  const newId = options.newId ?? (() => `fh_${randomBytes(18).toString('base64url')}`);
  // Insertion order = least recently used first, so eviction takes the oldest.
  const entries = new Map<string, Entry>();
  const byRoot = new Map<string, string>();

  const forget = (handle: string) => {
    const entry = entries.get(handle);
    entries.delete(handle);
    if (entry && byRoot.get(entry.root) === handle) byRoot.delete(entry.root);
  };

  const live = (handle: string): Result<Entry> => {
    const entry = entries.get(handle);
    if (entry && now() - entry.lastUsed > ttlMs) forget(handle);
    const found = entries.get(handle);
    if (!found) {
      return err(BridgeErrorCode.handleUnknown, 'These files are no longer available to Assemblyline (the app restarted or they sat unused too long): pick them again.');
    }
    found.lastUsed = now();
    entries.delete(handle);
    entries.set(handle, found);
    return ok(found);
  };

  return {
    register(rootPath) {
      const root = path.resolve(rootPath);
      const existing = byRoot.get(root);
      if (existing && live(existing).ok) return existing;
      const handle = newId();
      entries.set(handle, { root, lastUsed: now(), toUser: new Map(), toDisk: new Map(), unreadable: [] });
      byRoot.set(root, handle);
      while (entries.size > maxHandles) forget(entries.keys().next().value as string);
      return handle;
    },
    alias(handle, diskRelativePath, userRelativePath) {
      const entry = entries.get(handle);
      if (!entry || diskRelativePath === userRelativePath) return;
      entry.toUser.set(diskRelativePath, userRelativePath);
      entry.toDisk.set(userRelativePath, diskRelativePath);
    },
    aliasesOf(handle) {
      return [...(entries.get(handle)?.toUser ?? [])];
    },
    root(handle) {
      const entry = live(handle);
      return entry.ok ? ok(entry.value.root) : entry;
    },
    resolve(handle, relativePath) {
      const entry = live(handle);
      if (!entry.ok) return entry;
      return pathWithinRoot(entry.value.root, entry.value.toDisk.get(relativePath) ?? relativePath);
    },
    shownAs(handle, diskRelativePath) {
      return entries.get(handle)?.toUser.get(diskRelativePath) ?? diskRelativePath;
    },
    noteUnreadable(handle, relativePath, reason) {
      const entry = entries.get(handle);
      if (entry && entry.unreadable.length < MAX_NOTES_PER_ROOT) entry.unreadable.push({ relativePath, reason });
    },
    takeUnreadable(handle) {
      const entry = entries.get(handle);
      if (!entry) return [];
      const notes = entry.unreadable;
      entry.unreadable = [];
      return notes;
    },
  };
}

/**
 * `photos/sub/a.jpg` below the root `/home/me/photos` is `/home/me/photos/sub/a.jpg`: relative paths start
 * at the root's parent, as the scanner makes them. Anything that would land outside the root (`..`,
 * an absolute path, another folder's name first) is refused.
 */
export function pathWithinRoot(root: string, relativePath: string): Result<string> {
  const refuse = () => err(BridgeErrorCode.pathOutsidePick, `"${relativePath.slice(0, 200)}" is not inside what the user picked.`);
  const segments = relativePath.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0'))) return refuse();
  const target = path.join(path.dirname(root), ...segments);
  const inside = path.relative(root, target);
  if (inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) return refuse();
  return ok(target);
}
