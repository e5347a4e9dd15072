// The CDN result cache: keys, a byte bound with least-recently-used eviction, one run per key at a time.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CdnCache, cdnCacheKey } from './cdn-cache';

const dirs: string[] = [];
afterEach(async () => Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))));

async function setup(maxBytes: number) {
  const dir = await mkdtemp(join(tmpdir(), 'cdn-cache-'));
  dirs.push(dir);
  const cache = new CdnCache(join(dir, 'cache'), maxBytes);
  const put = async (key: string, bytes: number) => {
    const localPath = join(dir, `${key}.tmp`);
    await writeFile(localPath, Buffer.alloc(bytes, key));
    return cache.put(key, { localPath, name: `${key}.png`, mime: 'image/png', size: bytes, sha256: key });
  };
  return { cache, put };
}

describe('CDN cache', () => {
  it('keys by Template revision, input bytes and parameters, not by parameter order', () => {
    const base = { templateId: 't', templateRevision: 'r1', inputVersion: 'abc', params: [['w', '100'], ['h', '50']] as const };
    expect(cdnCacheKey(base)).toBe(cdnCacheKey({ ...base, params: [['h', '50'], ['w', '100']] }));
    expect(cdnCacheKey(base)).not.toBe(cdnCacheKey({ ...base, templateRevision: 'r2' }));
    expect(cdnCacheKey(base)).not.toBe(cdnCacheKey({ ...base, inputVersion: 'abd' }));
    expect(cdnCacheKey(base)).not.toBe(cdnCacheKey({ ...base, params: [['w', '101'], ['h', '50']] }));
  });

  it('stays within its bytes, evicting the least recently used result first', async () => {
    const { cache, put } = await setup(250);
    await put('a', 100);
    await put('b', 100);
    expect(cache.get('a')).not.toBeNull(); // a is now more recent than b
    await put('c', 100);
    expect(cache.get('b')).toBeNull();
    expect((await readFile(cache.get('a')!.localPath)).length).toBe(100);
    expect(cache.get('c')).not.toBeNull();
    expect(cache.totalBytes).toBe(200);
    expect(await put('huge', 300)).toBeNull(); // larger than the whole cache: not kept
    expect(cache.size).toBe(2);
  });

  it('runs one producer for concurrent callers of one key', async () => {
    const { cache } = await setup(1000);
    let runs = 0;
    const produce = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 20));
      return runs;
    };
    const results = await Promise.all([cache.once('k', produce), cache.once('k', produce), cache.once('k', produce)]);
    expect(results).toEqual([1, 1, 1]);
    expect(cache.isRunning('k')).toBe(false);
    expect(await cache.once('k', produce)).toBe(2);
  });
});
