// A resized camera photo keeps its metadata, and its record says so: the keys taken from the upload's
// record (no second ExifTool read) are exactly what ExifTool reads from the written file.
import { join } from 'node:path';
import sharp from 'sharp';
import { ExifTool } from 'exiftool-vendored';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeSteps } from './execute-steps';
import { endExifTool } from './exiftool';
import { extractMeta } from './extract-meta';
import { describeUpload, type StoredFile } from './file-record';
import { makeTempDir } from './test-files';

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
});
