// The Smart CDN's result cache (docs/local-service.md "Signed content-delivery URLs"): results on disk,
// keyed by what determines them, bounded in bytes with least-recently-used eviction. It is a cache, not a
// store: emptied on every start, so nothing about it needs migrating.

import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface CdnCacheEntry {
  /** Absolute path of the cached bytes. */
  localPath: string;
  name: string;
  mime: string | null;
  size: number;
  sha256: string;
}

export interface CdnKeyParts {
  templateId: string;
  /** Changes whenever the Template's content does (a hash of it). */
  templateRevision: string;
  /** The input's bytes (sha256), so a new asset version is a new key. */
  inputVersion: string;
  /** The URL's parameters that feed the Template (no `auth_key`, `exp`, `sig`), sorted by key. */
  params: readonly (readonly [string, string])[];
}

/** Query keys that sign a URL rather than say what it serves: never fields, never part of the key. */
export const SIGNING_PARAMS: ReadonlySet<string> = new Set(['auth_key', 'exp', 'sig', 's', 'expires']);

/** The cache key: the same Template revision, input bytes and parameters give the same result. Pure. */
export function cdnCacheKey(k: CdnKeyParts): string {
  const params = [...k.params].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([k.templateId, k.templateRevision, k.inputVersion, params])).digest('hex');
}

export const DEFAULT_CDN_CACHE_BYTES = 256 * 1024 * 1024;

export class CdnCache {
  /** Insertion order is recency order: a hit moves its entry to the end; eviction takes from the front. */
  private readonly entries = new Map<string, CdnCacheEntry>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private bytes = 0;

  constructor(
    private readonly dir: string,
    readonly maxBytes = DEFAULT_CDN_CACHE_BYTES,
  ) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  get totalBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CdnCacheEntry | null {
    const hit = this.entries.get(key);
    if (!hit) return null;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /**
   * Moves a finished result into the cache and returns its entry; null when it is larger than the whole
   * cache (then the caller serves it from where it is and removes it).
   */
  async put(key: string, from: Omit<CdnCacheEntry, 'localPath'> & { localPath: string }): Promise<CdnCacheEntry | null> {
    if (from.size > this.maxBytes) return null;
    const localPath = join(this.dir, key);
    await rename(from.localPath, localPath);
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.size;
      this.entries.delete(key);
    }
    const entry = { ...from, localPath };
    this.entries.set(key, entry);
    this.bytes += entry.size;
    await this.evict(key);
    return entry;
  }

  isRunning(key: string): boolean {
    return this.inFlight.has(key);
  }

  /** Concurrent callers with one key share one run of `produce` (a Template runs once per key at a time). */
  once<T>(key: string, produce: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key) as Promise<T> | undefined;
    if (running) return running;
    const p = produce().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  /** Least recently used first, until the total fits; never the entry just added. */
  private async evict(keep: string): Promise<void> {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      if (key === keep) continue;
      this.entries.delete(key);
      this.bytes -= entry.size;
      await rm(entry.localPath, { force: true });
    }
  }
}
