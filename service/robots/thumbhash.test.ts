// ThumbHash placeholders in file records: present for images, omitted over 40 megapixels, for other
// types and when the image cannot be read.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio, thumbHashToAverageRGBA } from 'thumbhash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/service-fixture';
import { describeUpload } from './file-record';
import { imageThumbhash, thumbhashFits } from './thumbhash';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('thumbhash-');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('thumbhash', () => {
  it('encodes what the image looks like: its colour, aspect ratio and alpha', async () => {
    const file = join(dir, 'red.png');
    await writeFile(file, await sharp({ create: { width: 400, height: 100, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } }).png().toBuffer());
    const record = await describeUpload({ localPath: file, name: 'red.png' });
    expect(record).toMatchObject({ has_alpha: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const hash = Buffer.from(record.thumbhash!, 'base64');
    expect(thumbHashToApproximateAspectRatio(hash)).toBeGreaterThan(3);
    const avg = thumbHashToAverageRGBA(hash);
    expect(avg.r).toBeGreaterThan(0.8);
    expect(avg.g).toBeLessThan(0.2);
    expect(avg.a).toBeGreaterThan(0.3);
    expect(avg.a).toBeLessThan(0.7);
  });

  it('is omitted over 40 megapixels, for non-images and for unreadable images', async () => {
    expect(thumbhashFits(8000, 5000)).toBe(true);
    expect(thumbhashFits(8000, 5001)).toBe(false);
    expect(thumbhashFits(undefined, 10)).toBe(false);
    const small = join(dir, 'small.jpg');
    await writeFile(small, await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).jpeg().toBuffer());
    expect(await imageThumbhash(small, 'image/jpeg', { width: 8000, height: 6000 })).toBeUndefined();
    const text = join(dir, 'notes.txt');
    await writeFile(text, 'hello');
    const textRecord = await describeUpload({ localPath: text, name: 'notes.txt' });
    expect(textRecord.thumbhash).toBeUndefined();
    expect(textRecord.has_alpha).toBeUndefined();
    const broken = join(dir, 'broken.jpg');
    await writeFile(broken, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
    expect(await imageThumbhash(broken, 'image/jpeg', { width: 10, height: 10 })).toBeUndefined();
    expect((await describeUpload({ localPath: broken, name: 'broken.jpg' })).thumbhash).toBeUndefined();
  });
});
