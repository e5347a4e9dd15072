// A resized camera photo keeps its metadata, and its record says so: the keys taken from the upload's
// record (no second ExifTool read) are exactly what ExifTool reads from the written file.
import { join } from 'node:path';
import sharp from 'sharp';
import { ExifTool } from 'exiftool-vendored';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeSteps, type ExecuteContext } from './execute-steps';
import { endExifTool } from './exiftool';
import { extractMeta } from './extract-meta';
import { describeUpload, type StoredFile } from './file-record';
import { makeTempDir, writeVideo } from './test-files';

let dir: string;
let cleanup: () => Promise<void>;
let photo: StoredFile;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('metadata-copy-'));
  const path = join(dir, 'lisbon.jpg');
  await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 40, g: 90, b: 160 }, noise: { type: 'gaussian', mean: 110, sigma: 30 } } })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'Fujifilm', Model: 'X-T5', Software: 'Camera 1.2', Artist: 'Ana', Copyright: '© Ana', ImageDescription: 'Tram 28' },
      IFD2: { DateTimeOriginal: '2025:05:04 18:30:00', OffsetTimeOriginal: '+01:00', ISOSpeedRatings: '200', FNumber: '28/10', ExposureTime: '1/250', FocalLength: '23/1', LensModel: 'XF23mm' },
    })
    .jpeg({ quality: 90 })
    .toFile(path);
  // GPS, IPTC and XMP as a camera app or a DAM writes them.
  const writer = new ExifTool({ maxProcs: 1 });
  try {
    await writer.write(path, { GPSLatitude: 38.7116, GPSLatitudeRef: 'N', GPSLongitude: -9.1398, GPSLongitudeRef: 'W', City: 'Lisbon', 'Country-PrimaryLocationName': 'Portugal', Keywords: ['tram', 'evening'], Title: 'Tram 28 at dusk' }, { writeArgs: ['-overwrite_original'] });
  } finally {
    await writer.end();
  }
  photo = await describeUpload({ localPath: path, name: 'lisbon.jpg' });
});
afterAll(async () => {
  await endExifTool();
  await cleanup();
});

describe('a resized JPEG keeps its metadata', () => {
  it('its record has what ExifTool reads from the written file: camera, place, keywords, dates; size and orientation from its pixels', async () => {
    expect(photo.meta).toMatchObject({ city: 'Lisbon', device_vendor: 'Fujifilm', orientation: 6 });
    const results: StoredFile[] = [];
    const outcome = await executeSteps({
      assemblyId: 'c'.repeat(32),
      steps: { small: { robot: '/image/resize', use: ':original', width: 600, height: 600 } },
      uploads: [photo],
      fields: {},
      workDir: join(dir, 'work'),
      signal: new AbortController().signal,
      onResult: (_step, file) => results.push(file),
    });
    expect(outcome).toEqual({ ok: true });
    const small = results[0]!;
    expect(small.meta).toEqual(await extractMeta(small.localPath, 'image/jpeg'));
    expect(small.meta).toMatchObject({ width: 450, height: 600, city: 'Lisbon', country: 'Portugal', keywords: ['tram', 'evening'], device_name: 'X-T5', latitude: 38.7116, longitude: -9.1398 });
    expect(small.meta.date_recorded).toBe(photo.meta.date_recorded);
  });

  it('/image/optimize keeps it too, re-encoded or as the original bytes, and a frame drawn from pixels has none', async () => {
    const run = async (steps: ExecuteContext['steps'], uploads: StoredFile[]) => {
      const results: StoredFile[] = [];
      const outcome = await executeSteps({ assemblyId: 'd'.repeat(32), steps, uploads, fields: {}, workDir: join(dir, `work-${Math.random().toString(16).slice(2)}`), signal: new AbortController().signal, onResult: (_s, f) => results.push(f) });
      expect(outcome).toEqual({ ok: true });
      return results;
    };
    // Quality 90 noise re-encodes smaller at 85; a quality-60 copy of it does not, so its own bytes are kept.
    const small = join(dir, 'small.jpg');
    await sharp(photo.localPath).keepMetadata().jpeg({ quality: 60 }).toFile(small);
    const low = await describeUpload({ localPath: small, name: 'small.jpg' });
    const [optimized, kept] = await run({ opt: { robot: '/image/optimize', use: ':original' } }, [photo, low]);
    expect(optimized!.size).toBeLessThan(photo.size);
    expect(kept!.md5hash).toBe(low.md5hash);
    for (const r of [optimized!, kept!]) {
      expect(r.meta).toEqual(await extractMeta(r.localPath, 'image/jpeg'));
      expect(r.meta).toMatchObject({ city: 'Lisbon', keywords: ['tram', 'evening'] });
      expect(r.thumbhash).toEqual(expect.any(String));
    }
    const clip = await writeVideo(join(dir, 'clip.mp4'));
    const [thumb] = await run({ thumbs: { robot: '/video/thumbs', use: ':original', count: 1, width: 160, height: 120 } }, [await describeUpload({ localPath: clip, name: 'clip.mp4' })]);
    expect(thumb!.meta).toEqual({ ...(await extractMeta(thumb!.localPath, thumb!.mime)), thumb_index: 0, thumb_offset: expect.any(Number) });
    expect(thumb!.meta).toMatchObject({ width: 160, height: 120, thumb_index: 0 });
  });
});
