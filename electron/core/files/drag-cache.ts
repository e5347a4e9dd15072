import { createHash } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { downloadToDir, safeFileName } from './download';

/**
 * Where a result dragged out of the app lives while the OS copies it: `<cache>/<hash of URL>/<name>`, so
 * the file carries its own name to the desktop, and a second drag of the same result reuses it.
 */
export function dragCachePath(cacheDir: string, url: string, name: string): string {
  return path.join(cacheDir, createHash('sha256').update(url).digest('hex').slice(0, 32), safeFileName(name));
}

/** The result's file in the drag cache: the copy already there when its size is right, else downloaded now. */
export async function dragCopyOf(cacheDir: string, url: string, name: string, expectedSize: number | undefined, options: { fetch?: typeof fetch } = {}): Promise<string> {
  const target = dragCachePath(cacheDir, url, name);
  const have = await stat(target).catch(() => null);
  if (have?.isFile() && (expectedSize === undefined || have.size === expectedSize)) return target;
  // A partial or stale copy goes; downloadToDir then takes the plain name in the empty folder.
  await rm(path.dirname(target), { recursive: true, force: true });
  return downloadToDir(url, path.dirname(target), path.basename(target), options);
}

/**
 * The drag cache with one fetch per file at a time: the page asks as the mouse goes down on a result
 * (so the file is usually there when the drag starts) and again at dragstart; both wait for the same fetch.
 */
export function createDragCache(cacheDir: string, options: { fetch?: typeof fetch } = {}): { copyOf(url: string, name: string, expectedSize: number | undefined, doFetch?: typeof fetch): Promise<string> } {
  const inflight = new Map<string, Promise<string>>();
  return {
    copyOf(url, name, expectedSize, doFetch) {
      const key = dragCachePath(cacheDir, url, name);
      let pending = inflight.get(key);
      if (!pending) {
        pending = dragCopyOf(cacheDir, url, name, expectedSize, doFetch ? { fetch: doFetch } : options).finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      return pending;
    },
  };
}

/** Drops cached drags older than `maxAgeMs` (the drop target has long copied them). */
export async function pruneDragCache(cacheDir: string, maxAgeMs: number, now = Date.now()): Promise<void> {
  const entries = await readdir(cacheDir, { withFileTypes: true }).catch(() => []);
  await Promise.all(
    entries.map(async (entry) => {
      const at = path.join(cacheDir, entry.name);
      const info = await stat(at).catch(() => null);
      if (info && now - info.mtimeMs > maxAgeMs) await rm(at, { recursive: true, force: true });
    }),
  );
}
