import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thumbnailFromFile, thumbnailFromUrl } from './thumbnails';

let dir = '';
let server: Server;
let base = '';

const decode = async (dataUrl: string | null) => {
  expect(dataUrl).toMatch(/^data:image\/jpeg;base64,/);
  return sharp(Buffer.from(dataUrl!.split(',')[1]!, 'base64')).metadata();
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-thumb-'));
  await sharp({ create: { width: 800, height: 400, channels: 3, background: '#3366cc' } }).jpeg().toFile(path.join(dir, 'wide.jpg'));
  await sharp({ create: { width: 50, height: 50, channels: 4, background: '#ff000080' } }).png().toFile(path.join(dir, 'small.png'));
  await writeFile(path.join(dir, 'notes.txt'), 'hello');
  await writeFile(path.join(dir, 'broken.jpg'), 'not really a jpeg');
  server = createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    const file = path.join(dir, name);
    stat(file).then(
      (info) => {
        res.setHeader('content-type', name.endsWith('.jpg') ? 'image/jpeg' : 'text/plain');
        res.setHeader('content-length', info.size);
        createReadStream(file).pipe(res);
      },
      () => {
        res.statusCode = 404;
        res.end('missing');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('thumbnails', () => {
  it('makes a small JPEG of a local image, keeping its aspect ratio', async () => {
    const meta = await decode(await thumbnailFromFile(path.join(dir, 'wide.jpg'), 96));
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 96, 48]);
  });

  it('never enlarges a small image and flattens transparency', async () => {
    const meta = await decode(await thumbnailFromFile(path.join(dir, 'small.png'), 96));
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([50, 50, false]);
  });

  it('gives null for non-images and undecodable files', async () => {
    expect(await thumbnailFromFile(path.join(dir, 'notes.txt'), 96)).toBeNull();
    expect(await thumbnailFromFile(path.join(dir, 'broken.jpg'), 96)).toBeNull();
  });

  it('previews a result URL over HTTP, and refuses one over the size limit', async () => {
    const meta = await decode(await thumbnailFromUrl(`${base}/wide.jpg`, 160));
    expect(meta.width).toBe(160);
    expect(await thumbnailFromUrl(`${base}/wide.jpg`, 160, { maxBytes: 100 })).toBeNull();
    expect(await thumbnailFromUrl(`${base}/notes.txt`, 160)).toBeNull();
    await expect(thumbnailFromUrl(`${base}/gone.jpg`, 160)).rejects.toThrow(/HTTP 404/);
  });
});
