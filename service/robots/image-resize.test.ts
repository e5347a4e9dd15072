import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio, thumbHashToAverageRGBA } from 'thumbhash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeSteps, type ExecuteContext } from './execute-steps';
import { describeUpload, type StoredFile } from './file-record';
import { keepsWholePicture } from './image-resize';
import { imageThumbhash } from './thumbhash';
import { PRESETS } from '../../shared/api/presets';
import { writeHeic } from './heic-file';
import { canReadHeic } from './image-formats';
import { imageUpload, makeTempDir, textUpload } from './test-files';

let dir: string;
let cleanup: () => Promise<void>;
let wide: StoredFile;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  wide = await imageUpload(dir, 'wide.png', { width: 2000, height: 1000 });
});
afterAll(() => cleanup());

async function resize(params: Record<string, unknown>, uploads: StoredFile[] = [wide]) {
  const results: StoredFile[] = [];
  const warnings: string[] = [];
  const ctx: ExecuteContext = {
    assemblyId: 'f'.repeat(32),
    steps: { ':original': { robot: '/upload/handle' }, resized: { robot: '/image/resize', use: ':original', ...params } },
    uploads,
    fields: {},
    workDir: join(dir, `work-${Math.random().toString(16).slice(2)}`),
    signal: new AbortController().signal,
    onResult: (_step, file) => results.push(file),
    onWarning: (_step, msg) => warnings.push(msg),
  };
  const outcome = await executeSteps(ctx);
  return { outcome, results, warnings };
}

const pixel = async (path: string, x: number, y: number) => {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + info.channels)];
};

describe('/image/resize', () => {
  it('fits 2000×1000 into a 1024 box as 1024×512 and describes the new file', async () => {
    const { outcome, results } = await resize({ width: 1024, height: 1024 });
    expect(outcome).toEqual({ ok: true });
    expect(results).toHaveLength(1);
    const r = results[0]!;
    const real = await sharp(r.localPath).metadata();
    expect([real.width, real.height]).toEqual([1024, 512]);
    expect(r.meta).toMatchObject({ width: 1024, height: 512, aspect_ratio: 2 });
    expect(r.id).toMatch(/^[0-9a-f]{32}$/);
    expect(r.id).not.toBe(wide.id);
    expect(r.name).toBe('wide.png');
    expect(r.mime).toBe('image/png');
    expect(r.type).toBe('image');
    expect(r.original_id).toBe(wide.id);
    expect(r.original_name).toBe('wide.png');
    expect(r.original_md5hash).toBe(wide.md5hash);
    expect(r.size).toBe((await readFile(r.localPath)).length);
    expect(r.md5hash).toMatch(/^[0-9a-f]{32}$/);
    expect(r.md5hash).not.toBe(wide.md5hash);
  });

  it("a resize that keeps the whole picture carries its input's ThumbHash, which shows the output; a crop gets its own", async () => {
    const { results: [fit] } = await resize({ width: 1024, height: 1024 });
    expect(fit!.thumbhash).toBe(wide.thumbhash);
    // The placeholder shows what the file shows: its proportions and its average colour.
    const own = (await imageThumbhash(fit!.localPath, fit!.mime, fit!.meta))!;
    const decoded = (h: string) => Buffer.from(h, 'base64');
    expect(thumbHashToApproximateAspectRatio(decoded(fit!.thumbhash!))).toBeCloseTo(thumbHashToApproximateAspectRatio(decoded(own)), 1);
    const [a, b] = [thumbHashToAverageRGBA(decoded(fit!.thumbhash!)), thumbHashToAverageRGBA(decoded(own))];
    for (const k of ['r', 'g', 'b'] as const) expect(Math.abs(a[k] - b[k])).toBeLessThan(0.02);

    const { results: [square] } = await resize({ width: 300, height: 300, resize_strategy: 'fillcrop' });
    expect(square!.thumbhash).not.toBe(wide.thumbhash);
    expect(square!.thumbhash).toBe(await imageThumbhash(square!.localPath, square!.mime, square!.meta));
  });

  it('keepsWholePicture: only fit and min_fit of an opaque, still, unrotated or auto-oriented picture', () => {
    const base = { strategy: 'fit', crop: false, rotation: undefined, orientation: undefined, hasAlpha: false, animated: false };
    expect(keepsWholePicture(base)).toBe(true);
    expect(keepsWholePicture({ ...base, strategy: 'min_fit' })).toBe(true);
    expect(keepsWholePicture({ ...base, orientation: 6 })).toBe(true);
    for (const strategy of ['fillcrop', 'crop', 'pad', 'stretch']) expect(keepsWholePicture({ ...base, strategy }), strategy).toBe(false);
    expect(keepsWholePicture({ ...base, crop: true })).toBe(false);
    expect(keepsWholePicture({ ...base, rotation: 90 })).toBe(false);
    expect(keepsWholePicture({ ...base, rotation: false, orientation: 6 })).toBe(false);
    expect(keepsWholePicture({ ...base, rotation: false, orientation: 1 })).toBe(true);
    expect(keepsWholePicture({ ...base, hasAlpha: true })).toBe(false);
    expect(keepsWholePicture({ ...base, animated: true })).toBe(false);
  });

  it('parses width given as a string', async () => {
    const { results } = await resize({ width: '500' });
    expect(results[0]!.meta).toMatchObject({ width: 500, height: 250 });
  });

  it('fillcrop gives exactly the box', async () => {
    const { results } = await resize({ width: 256, height: 256, resize_strategy: 'fillcrop' });
    expect(results[0]!.meta).toMatchObject({ width: 256, height: 256 });
  });

  it('pad keeps the 256×256 box and fills the rest with the background', async () => {
    const { results } = await resize({ width: 256, height: 256, resize_strategy: 'pad', background: '#0000FF' });
    const out = results[0]!;
    expect(out.meta).toMatchObject({ width: 256, height: 256 });
    // 2000×1000 scaled to 256×128 sits in the middle: the top row is padding, the centre is the image.
    expect((await pixel(out.localPath, 128, 2)).slice(0, 3)).toEqual([0, 0, 255]);
    expect((await pixel(out.localPath, 128, 128)).slice(0, 3)).toEqual([200, 30, 30]);
  });

  it('stretch ignores the aspect ratio and min_fit covers the box', async () => {
    expect((await resize({ width: 300, height: 300, resize_strategy: 'stretch' })).results[0]!.meta).toMatchObject({ width: 300, height: 300 });
    expect((await resize({ width: 300, height: 300, resize_strategy: 'min_fit' })).results[0]!.meta).toMatchObject({ width: 600, height: 300 });
  });

  it('crop cuts the box out without scaling', async () => {
    const { results } = await resize({ width: 100, height: 50, resize_strategy: 'crop', gravity: 'top-left' });
    expect(results[0]!.meta).toMatchObject({ width: 100, height: 50 });
  });

  it('crop coordinates are cut before resizing', async () => {
    const { results } = await resize({ crop: { x1: 0, y1: 0, x2: 400, y2: 400 }, width: 200 });
    expect(results[0]!.meta).toMatchObject({ width: 200, height: 200 });
  });

  it('zoom false never enlarges; zoom true (default) does', async () => {
    const small = await imageUpload(dir, 'small.png', { width: 100, height: 50 });
    expect((await resize({ width: 400, height: 400, zoom: false }, [small])).results[0]!.meta).toMatchObject({ width: 100, height: 50 });
    expect((await resize({ width: 400, height: 400 }, [small])).results[0]!.meta).toMatchObject({ width: 400, height: 200 });
  });

  it('converts the format, naming the file <basename>.<ext> with the new mime', async () => {
    const { results } = await resize({ width: 100, format: 'webp' });
    expect(results[0]).toMatchObject({ name: 'wide.webp', ext: 'webp', basename: 'wide', mime: 'image/webp' });
    const jpg = await imageUpload(dir, 'photo.jpg', { width: 300, height: 200, format: 'jpeg' });
    const png = (await resize({ width: 150, format: 'png' }, [jpg])).results[0]!;
    expect(png).toMatchObject({ name: 'photo.png', mime: 'image/png' });
    expect((await sharp(png.localPath).metadata()).format).toBe('png');
  });

  it('flattens transparency onto the background when writing jpg', async () => {
    const clear = await imageUpload(dir, 'clear.png', { width: 50, height: 50, alpha: 0 });
    const out = (await resize({ width: 50, format: 'jpg', background: '#00FF00' }, [clear])).results[0]!;
    expect(out.mime).toBe('image/jpeg');
    const [r, g, b] = await pixel(out.localPath, 25, 25);
    expect(r).toBeLessThan(10);
    expect(g).toBeGreaterThan(245);
    expect(b).toBeLessThan(10);
  });

  it('keeps every frame of an animated gif', async () => {
    const frames = await Promise.all([0, 1, 2].map((i) => sharp({ create: { width: 200, height: 100, channels: 3, background: { r: i * 100, g: 0, b: 0 } } }).png().toBuffer()));
    const path = join(dir, 'anim.gif');
    await sharp(frames, { join: { animated: true } }).gif().toFile(path);
    const anim = await describeUpload({ localPath: path, name: 'anim.gif', field: 'file' });
    expect(anim.meta).toMatchObject({ width: 200, height: 100, frame_count: 3 });
    const out = (await resize({ width: 50 }, [anim])).results[0]!;
    expect(out).toMatchObject({ name: 'anim.gif', mime: 'image/gif', meta: { width: 50, height: 25, frame_count: 3 } });
    const still = (await resize({ width: 50, format: 'png' }, [anim])).results[0]!;
    expect(still.meta).toMatchObject({ width: 50, height: 25, frame_count: 1 });
  });

  it('applies EXIF orientation before resizing', async () => {
    const path = join(dir, 'turned.jpg');
    await sharp({ create: { width: 400, height: 100, channels: 3, background: '#888' } }).jpeg().withMetadata({ orientation: 6 }).toFile(path);
    const turned = await describeUpload({ localPath: path, name: 'turned.jpg', field: 'file' });
    const out = (await resize({ width: 50 }, [turned])).results[0]!;
    expect(out.meta).toMatchObject({ width: 50, height: 200 });
    expect((await sharp(out.localPath).metadata()).orientation ?? 1).toBe(1);
  });

  it('rotation turns the image by a multiple of 90 degrees', async () => {
    const { results } = await resize({ rotation: 90 });
    expect(results[0]!.meta).toMatchObject({ width: 1000, height: 2000 });
  });

  it('lower quality gives a smaller jpg', async () => {
    const photo = await imageUpload(dir, 'noise.png', { width: 400, height: 400 });
    // A gradient compresses differently by quality; a flat colour would not show the difference.
    await sharp(Buffer.from(Array.from({ length: 400 * 400 * 3 }, (_, i) => (i * 37) % 256)), { raw: { width: 400, height: 400, channels: 3 } })
      .png()
      .toFile(photo.localPath);
    const low = (await resize({ width: 400, format: 'jpg', quality: 10 }, [photo])).results[0]!;
    const high = (await resize({ width: 400, format: 'jpg', quality: 95 }, [photo])).results[0]!;
    expect(low.size).toBeLessThan(high.size);
  });

  it('skips a non-image input with a warning when another input is an image', async () => {
    const text = await textUpload(dir, 'notes.txt', 'hello');
    const { outcome, results, warnings } = await resize({ width: 100 }, [text, wide]);
    expect(outcome).toEqual({ ok: true });
    expect(results.map((r) => r.original_name)).toEqual(['wide.png']);
    expect(warnings.join(' ')).toContain('notes.txt');
  });

  it('fails with INVALID_INPUT_ERROR when no input is an image', async () => {
    const text = await textUpload(dir, 'only.txt', 'hello');
    const { outcome } = await resize({ width: 100 }, [text]);
    expect(outcome).toMatchObject({ ok: false, code: 'INVALID_INPUT_ERROR', step: 'resized' });
    if (!outcome.ok) expect(outcome.message).toContain('only.txt');
  });

  it('takes width from a field through ${fields.x} and rejects a bad interpolated value', async () => {
    const run = async (fields: Record<string, unknown>) => {
      const results: StoredFile[] = [];
      const outcome = await executeSteps({
        assemblyId: 'a'.repeat(32),
        steps: { resized: { robot: '/image/resize', use: ':original', width: '${fields.w}' } },
        uploads: [wide],
        fields,
        workDir: join(dir, `fields-${Math.random().toString(16).slice(2)}`),
        signal: new AbortController().signal,
        onResult: (_s, f) => results.push(f),
      });
      return { outcome, results };
    };
    expect((await run({ w: '320' })).results[0]!.meta).toMatchObject({ width: 320, height: 160 });
    expect((await run({ w: 'huge' })).outcome).toMatchObject({ ok: false, code: 'IMAGE_RESIZE_VALIDATION' });
    // A field value that looks like a variable is data, not a second round of interpolation.
    expect((await run({ w: '${fields.w}' })).outcome).toMatchObject({ ok: false, code: 'IMAGE_RESIZE_VALIDATION' });
  });
});

describe('HEIC photos', () => {
  it('are read where the image library decodes HEIC, else the file says HEIC is not supported here (never a plugin error)', async () => {
    const heic = await describeUpload({ localPath: await writeHeic(join(dir, 'IMG_1234.HEIC')), name: 'IMG_1234.HEIC', field: 'file' });
    expect(heic.mime).toBe('image/heic');
    const { outcome, results, warnings } = await resize({ width: 32 }, [heic, wide]);
    if (canReadHeic()) {
      expect(results.map((r) => r.meta?.width)).toEqual([32, 32]);
      return;
    }
    // The other photo is resized; the HEIC is left out with the reason at the file.
    expect(outcome.ok).toBe(true);
    expect(results).toHaveLength(1);
    expect(warnings).toEqual(['Step "resized" skipped "IMG_1234.HEIC": HEIC is not supported on this service: its image library cannot decode HEIC (HEVC) photos. Convert them to JPEG first, or use a deployment that reads HEIC.']);
    const alone = await resize({ width: 32 }, [heic]);
    expect(alone.outcome).toMatchObject({ ok: false, code: 'INVALID_INPUT_ERROR' });
    expect((alone.outcome as { message: string }).message).toMatch(/HEIC is not supported on this service/);
  });
});

describe('the "Resize images to 1024 px" preset', () => {
  it('fits large photos inside 1024 px and never enlarges a small one', async () => {
    const preset = PRESETS.find((p) => p.id === 'resize-1024')!;
    const { images: _filter, resized } = preset.steps as Record<string, Record<string, unknown>>;
    const { robot: _robot, use: _use, ...params } = resized!;
    const small = await imageUpload(dir, 'small.jpg', { width: 100, height: 68, format: 'jpeg' });
    const { results } = await resize(params, [small, wide]);
    expect(results.map((r) => [r.meta?.width, r.meta?.height])).toEqual([
      [100, 68],
      [1024, 512],
    ]);
  });
});
