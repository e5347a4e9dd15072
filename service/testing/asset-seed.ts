// Fills a stopped local service's asset store (its data dir) directly: for tests and benches that need
// stored assets without running an Assembly per asset. Start the service on the same data dir afterwards.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openAssetStore } from '../assets/asset-store';

export interface SeedAsset {
  path: string;
  bytes: Buffer;
  mime: string | null;
  width?: number;
  height?: number;
  thumbhash?: string;
}

const digestCache = new WeakMap<Buffer, { md5hash: string; sha256: string }>();
const digests = (bytes: Buffer): { md5hash: string; sha256: string } => {
  let d = digestCache.get(bytes);
  if (!d) {
    d = { md5hash: createHash('md5').update(bytes).digest('hex'), sha256: createHash('sha256').update(bytes).digest('hex') };
    digestCache.set(bytes, d);
  }
  return d;
};

/**
 * Stores each item (the same path again makes a new version, in order); the workspace is the service's,
 * `local`. `concurrency` > 1 stores that many at once: only for items of distinct paths (a bench's
 * library), where order does not matter.
 */
export async function seedAssets(dataDir: string, items: Iterable<SeedAsset>, options: { workspace?: string; concurrency?: number } = {}): Promise<number> {
  const workspace = options.workspace ?? 'local';
  await mkdir(dataDir, { recursive: true });
  const scratch = await mkdtemp(path.join(dataDir, 'seed-'));
  const store = openAssetStore(dataDir);
  let count = 0;
  // The same bytes (a bench's few variants over 100,000 assets) are written once.
  const written = new Map<Buffer, Promise<string>>();
  const fileOf = (bytes: Buffer): Promise<string> => {
    let file = written.get(bytes);
    if (!file) {
      const target = path.join(scratch, String(written.size));
      file = writeFile(target, bytes).then(() => target);
      written.set(bytes, file);
    }
    return file;
  };
  const put = async (item: SeedAsset, n: number) => {
    const content = {
      localPath: await fileOf(item.bytes),
      size: item.bytes.length,
      mime: item.mime,
      ...digests(item.bytes),
      ...(item.width ? { width: item.width } : {}),
      ...(item.height ? { height: item.height } : {}),
      ...(item.thumbhash ? { thumbhash: item.thumbhash } : {}),
    };
    const stored = await store.store(workspace, item.path, content, 'overwrite', Date.now() + n);
    if (!stored.ok) throw new Error(`seed ${item.path}: ${stored.code}`);
  };
  try {
    const running = new Set<Promise<void>>();
    for (const item of items) {
      const job = put(item, count).finally(() => running.delete(job));
      running.add(job);
      count += 1;
      if (running.size >= (options.concurrency ?? 1)) await Promise.race(running);
    }
    await Promise.all(running);
  } finally {
    store.close();
    await rm(scratch, { recursive: true, force: true });
  }
  return count;
}
