// @tus/file-store keeps each upload's info in `<id>.json` and read it again on every PATCH and HEAD. This
// configstore writes through to those files (a restart reads them as before) and answers reads from
// memory, for the most recent MAX_ENTRIES uploads.

import { FileConfigstore, type Configstore } from '@tus/file-store';
import type { Upload } from '@tus/server';

const MAX_ENTRIES = 10_000;

export class CachedConfigstore implements Configstore<Upload> {
  private readonly file: FileConfigstore<Upload>;
  private readonly cache = new Map<string, string>();

  constructor(directory: string) {
    this.file = new FileConfigstore<Upload>(directory);
  }

  private remember(key: string, json: string): void {
    this.cache.delete(key);
    this.cache.set(key, json);
    if (this.cache.size > MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
  }

  /** The info of an upload this store holds in memory, without waiting; undefined when it would have to read it. */
  peek(key: string): Upload | undefined {
    const hit = this.cache.get(key);
    return hit === undefined ? undefined : (JSON.parse(hit) as Upload);
  }

  async get(key: string): Promise<Upload | undefined> {
    const hit = this.cache.get(key);
    if (hit !== undefined) return JSON.parse(hit) as Upload;
    const stored = await this.file.get(key);
    if (stored !== undefined) this.remember(key, JSON.stringify(stored));
    return stored;
  }

  async set(key: string, value: Upload): Promise<void> {
    await this.file.set(key, value);
    this.remember(key, JSON.stringify(value));
  }

  async delete(key: string): Promise<void> {
    this.cache.delete(key);
    await this.file.delete(key);
  }

  list(): Promise<string[]> {
    return this.file.list ? this.file.list() : Promise.resolve([]);
  }
}
