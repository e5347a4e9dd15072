import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestBytes, IN_MEMORY_MAX_PIXELS, rendersInMemory, writeEncodedImage, writeRenderedImage } from './image-output';
import { imageThumbhash } from './thumbhash';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'image-output-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const noisy = (channels: 3 | 4, width = 640, height = 480): Sharp =>
  sharp({ create: { width, height, channels, background: { r: 200, g: 80, b: 40, alpha: 0.5 }, noise: { type: 'gaussian', mean: 120, sigma: 40 } } });

describe('rendersInMemory', () => {
  const plain = {};
  it('renders in memory only when the file would carry nothing of the input but pixels', () => {
    expect(rendersInMemory(plain, { strip: false, animated: false, expectedPixels: 1024 * 768 })).toBe(true);
    expect(rendersInMemory({ exif: Buffer.from('Exif') }, { strip: false, animated: false, expectedPixels: 100 })).toBe(false);
    expect(rendersInMemory({ icc: Buffer.from('icc') }, { strip: false, animated: false, expectedPixels: 100 })).toBe(false);
    // strip drops what the input carries: nothing is lost by rendering in memory.
    expect(rendersInMemory({ exif: Buffer.from('Exif'), icc: Buffer.from('icc') }, { strip: true, animated: false, expectedPixels: 100 })).toBe(true);
    expect(rendersInMemory({ density: 300 }, { strip: true, animated: false, expectedPixels: 100 })).toBe(false);
    expect(rendersInMemory({ depth: 'ushort' }, { strip: true, animated: false, expectedPixels: 100 })).toBe(false);
    expect(rendersInMemory({ hasAlpha: true }, { strip: true, animated: false, expectedPixels: 100 })).toBe(false);
  });

  it('leaves animations, unbounded and very large outputs to the file pipeline', () => {
    expect(rendersInMemory(plain, { strip: false, animated: true, expectedPixels: 100 })).toBe(false);
    expect(rendersInMemory(plain, { strip: false, animated: false, expectedPixels: null })).toBe(false);
    expect(rendersInMemory(plain, { strip: false, animated: false, expectedPixels: IN_MEMORY_MAX_PIXELS + 1 })).toBe(false);
  });
});

describe('writeRenderedImage', () => {
  it('writes the same picture the file pipeline writes, and knows its digests, mime and ThumbHash', async () => {
    const input = await noisy(3).jpeg({ quality: 90 }).toBuffer();
    const pipeline = (): Sharp => sharp(input).resize(320, 240, { fit: 'inside' });
    const direct = path.join(dir, 'direct.png');
    const rendered = path.join(dir, 'rendered.png');
    await pipeline().png().toFile(direct);
    const known = await writeRenderedImage(pipeline(), (img) => img.png(), rendered, 'rendered.png');

    const [a, b] = await Promise.all([direct, rendered].map((p) => sharp(p).raw().toBuffer({ resolveWithObject: true })));
    expect(b!.info).toEqual(a!.info);
    expect(b!.data.equals(a!.data)).toBe(true);
    const bytes = await readFile(rendered);
    expect(known.digests).toEqual(digestBytes(bytes));
    expect(known.size).toBe(bytes.length);
    expect(known.mime).toBe('image/png');
    // Lossless output: the ThumbHash from the pixels is the one decoding the file gives.
    expect(known.thumbhash).toBe(await imageThumbhash(rendered, 'image/png', { width: 320, height: 240 }));
  });

  it('writes a JPEG byte for byte as the file pipeline does', async () => {
    const input = await noisy(3).png().toBuffer();
    const encodeAs = (img: Sharp): Sharp => img.jpeg({ quality: 92 });
    const direct = path.join(dir, 'direct.jpg');
    const rendered = path.join(dir, 'rendered.jpg');
    await encodeAs(sharp(input).resize(200)).toFile(direct);
    const known = await writeRenderedImage(sharp(input).resize(200), encodeAs, rendered, 'rendered.jpg');
    expect((await readFile(rendered)).equals(await readFile(direct))).toBe(true);
    expect(known.mime).toBe('image/jpeg');
    expect(typeof known.thumbhash).toBe('string');

    // Given the ThumbHash the picture already has, it is one pass to the same bytes, and that ThumbHash.
    const onePass = path.join(dir, 'one-pass.jpg');
    const carried = await writeEncodedImage(encodeAs(sharp(input).resize(200)), onePass, 'one-pass.jpg', { thumbhash: known.thumbhash!, embeddedMetadata: false });
    expect((await readFile(onePass)).equals(await readFile(direct))).toBe(true);
    expect(carried).toEqual(known);
  });
});
