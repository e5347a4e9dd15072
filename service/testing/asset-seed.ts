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

/** Stores each item in order (the same path again makes a new version); the workspace is the service's, `local`. */
export async function seedAssets(dataDir: string, items: Iterable<SeedAsset>, workspace = 'local'): Promise<number> {
  await mkdir(dataDir, { recursive: true });
  const scratch = await mkdtemp(path.join(dataDir, 'seed-'));
  const store = openAssetStore(dataDir);
  let count = 0;
  try {
    for (const item of items) {
      const file = path.join(scratch, String(count));
      await writeFile(file, item.bytes);
      const content = {
        localPath: file,
        size: item.bytes.length,
        mime: item.mime,
        md5hash: createHash('md5').update(item.bytes).digest('hex'),
        sha256: createHash('sha256').update(item.bytes).digest('hex'),
        ...(item.width ? { width: item.width } : {}),
        ...(item.height ? { height: item.height } : {}),
        ...(item.thumbhash ? { thumbhash: item.thumbhash } : {}),
      };
      const stored = await store.store(workspace, item.path, content, 'overwrite', Date.now() + count);
      if (!stored.ok) throw new Error(`seed ${item.path}: ${stored.code}`);
      count += 1;
    }
  } finally {
    store.close();
    await rm(scratch, { recursive: true, force: true });
  }
  return count;
}
