import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, stat, utimes, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDragCache, dragCachePath, pruneDragCache } from './drag-cache';

// A real HTTP server that counts what it served.
let server: Server;
let base = '';
let served = 0;
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'drag-cache-'));
  server = createServer((req, res) => {
    served++;
    setTimeout(() => res.writeHead(200, { 'content-type': 'image/webp' }).end(Buffer.alloc(4096, 7)), 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('drag cache', () => {
  it('fetches a result once when the mouse-down and the dragstart ask at the same time, and reuses it after', async () => {
    const cache = createDragCache(path.join(dir, 'cache'));
    const url = `${base}/results/a/beach.webp`;
    const [a, b] = await Promise.all([cache.copyOf(url, 'beach.webp', 4096), cache.copyOf(url, 'beach.webp', 4096)]);
    expect(a).toBe(b);
    expect(path.basename(a)).toBe('beach.webp');
    expect((await readFile(a)).length).toBe(4096);
    expect(await cache.copyOf(url, 'beach.webp', 4096)).toBe(a);
    expect(served).toBe(1);
    // A copy of the wrong size (cut short) is fetched again.
    await writeFile(a, 'short');
    await cache.copyOf(url, 'beach.webp', 4096);
    expect((await stat(a)).size).toBe(4096);
    expect(served).toBe(2);
  });

  it('keeps a name safe on disk, and prunes only old entries', async () => {
    const cacheDir = path.join(dir, 'prune');
    expect(path.basename(dragCachePath(cacheDir, `${base}/x`, '../../etc/passwd'))).toBe('passwd');
    const old = path.dirname(dragCachePath(cacheDir, `${base}/old`, 'old.jpg'));
    const fresh = path.dirname(dragCachePath(cacheDir, `${base}/new`, 'new.jpg'));
    await mkdir(old, { recursive: true });
    await mkdir(fresh, { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await utimes(old, twoDaysAgo, twoDaysAgo);
    await pruneDragCache(cacheDir, 86_400_000);
    expect(await stat(old).catch(() => null)).toBeNull();
    expect((await stat(fresh)).isDirectory()).toBe(true);
  });
});
