// File records over real HTTP: the record fields and meta keys of uploads and results (spec "File
// record" and "File metadata"), read from real files by the real service.
import sharp from 'sharp';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exifToolRunning } from '../robots/exiftool';
import { makeTempDir, writePdf } from '../robots/test-files';
import { buildForm, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';

type Rec = Record<string, unknown> & { meta: Record<string, unknown> };

describe('file records', () => {
  let fx: Fixture;
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    fx = await startFixture();
    ({ dir, cleanup } = await makeTempDir('records-'));
  });
  afterAll(async () => {
    await fx.stop();
    await cleanup();
  });

  it('reports a zoned EXIF date in UTC, camera tags, PDF pages, a thumbhash only under 40 MP, and the timing fields', async () => {
    const photo = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#3a7' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Canon', Model: 'EOS R5' }, IFD2: { DateTimeOriginal: '2024:06:01 12:00:00', OffsetTimeOriginal: '+02:00', ISOSpeedRatings: '400', FNumber: '4/1' } })
      .toBuffer();
    // 8000 × 5700 = 45.6 megapixels, one flat colour (small and quick to make).
    const huge = await sharp({ create: { width: 8000, height: 5700, channels: 3, background: '#246' } }).png({ compressionLevel: 1 }).toBuffer();
    const pdf = await readFile(await writePdf(join(dir, 'two.pdf'), 2));
    const params = {
      auth: { key: fx.service.authKey },
      steps: { ':original': { robot: '/upload/handle' }, small: { use: ':original', robot: '/image/resize', width: 40, height: 40, result: true } },
    };
    const files = [
      { field: 'f', name: 'zoned.jpg', data: photo, type: 'image/jpeg' },
      { field: 'f', name: 'huge.png', data: huge, type: 'image/png' },
      { field: 'f', name: 'two.pdf', data: pdf, type: 'application/pdf' },
    ];
    const created = await postAssembly(fx.service.url, buildForm({ params, files }));
    expect(created.status).toBe(200);
    const done = await waitForEnd(String(created.body.assembly_ssl_url), 60_000);
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    const uploads = done.uploads as Rec[];
    const byName = (n: string) => uploads.find((u) => u.name === n)!;

    const zoned = byName('zoned.jpg');
    expect(zoned.meta).toMatchObject({ date_recorded: '2024/06/01 10:00:00 GMT', device_vendor: 'Canon', device_name: 'EOS R5', iso: 400, f_number: 4 });
    expect(zoned.meta.date_file_modified).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} GMT$/);
    expect(zoned.thumbhash).toEqual(expect.any(String));
    expect(zoned).toMatchObject({ has_alpha: false, as: null, queue: null, queue_time: 0, cost: null, is_temp_url: false });
    expect(zoned.exec_time).toEqual(expect.any(Number));
    expect(zoned.sha256).toMatch(/^[0-9a-f]{64}$/);

    const big = byName('huge.png');
    expect(big.meta).toMatchObject({ width: 8000, height: 5700 });
    expect(big).not.toHaveProperty('thumbhash');

    expect(byName('two.pdf').meta).toMatchObject({ page_count: 2, producer: 'Hand Written', author: 'Ada' });

    const results = (done.results as Record<string, Rec[]>).small!;
    expect(results.length).toBe(3 - 1); // the PDF is not an image: the resize step skips it
    for (const r of results) {
      expect(r).toMatchObject({ queue: 'live', cost: null, is_temp_url: false });
      expect(r.exec_time as number).toBeGreaterThan(0);
      expect(r.queue_time as number).toBeGreaterThanOrEqual(0);
    }
  });

  it('ends the shared ExifTool when the service stops', async () => {
    const other = await startFixture();
    expect(exifToolRunning()).toBe(true); // the first service's uploads started it
    await other.stop();
    expect(exifToolRunning()).toBe(true); // the first service still runs
    await fx.stop();
    expect(exifToolRunning()).toBe(false);
    fx = await startFixture(); // afterAll stops this one
  });
});
