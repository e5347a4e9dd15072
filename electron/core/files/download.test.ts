import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidateName, downloadToDir, safeFileName } from './download';

let dir = '';
let server: Server;
let base = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-dl-'));
  server = createServer((req, res) => {
    if (req.url === '/cut') {
      res.setHeader('content-length', '1000');
      res.write('partial');
      setTimeout(() => res.destroy(), 20);
      return;
    }
    if (req.url === '/missing') {
      res.statusCode = 404;
      res.end('nope');
      return;
    }
    res.end(`body of ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('downloadToDir', () => {
  it('saves under the given name, then under unique names when it exists', async () => {
    const out = path.join(dir, 'a');
    const first = await downloadToDir(`${base}/one`, out, 'photo.jpg');
    const [second, third] = await Promise.all([downloadToDir(`${base}/two`, out, 'photo.jpg'), downloadToDir(`${base}/three`, out, 'photo.jpg')]);
    expect(path.basename(first)).toBe('photo.jpg');
    expect([path.basename(second), path.basename(third)].sort()).toEqual(['photo (1).jpg', 'photo (2).jpg']);
    expect(await readFile(first, 'utf8')).toBe('body of /one');
    expect((await readdir(out)).sort()).toEqual(['photo (1).jpg', 'photo (2).jpg', 'photo.jpg']);
  });

  it('never writes outside the folder, whatever the name says', async () => {
    const out = path.join(dir, 'b');
    const saved = await downloadToDir(`${base}/x`, out, '../../etc/passwd');
    expect(path.dirname(saved)).toBe(out);
    expect(path.basename(saved)).toBe('passwd');
  });

  it('leaves nothing behind when the transfer breaks or the URL fails', async () => {
    const out = path.join(dir, 'c');
    await expect(downloadToDir(`${base}/cut`, out, 'big.bin')).rejects.toThrow();
    await expect(downloadToDir(`${base}/missing`, out, 'gone.bin')).rejects.toThrow(/HTTP 404/);
    expect(await readdir(out)).toEqual([]);
  });

  it('cleans names', () => {
    expect(safeFileName('a:b*c?.jpg')).toBe('a_b_c_.jpg');
    expect(safeFileName('...')).toBe('download');
    expect(candidateName('x.tar.gz', 2)).toBe('x.tar (2).gz');
  });
});
