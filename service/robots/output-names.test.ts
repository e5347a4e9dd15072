// Every robot that writes files keeps them inside its step folder under a safe base name, whatever the
// input's name: path tricks, ffmpeg's %d patterns, names over 255 bytes (issue 10, finding 1).
import { mkdir, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeSteps } from './execute-steps';
import { describeUpload, type StoredFile } from './file-record';
import { makeTempDir, writeAudio, writeImage, writeVideo } from './test-files';

let root: string;
let cleanup: () => Promise<void>;
const uploads: StoredFile[] = [];
const VIDEO_NAME = '../../../../../../video %d %03d.mp4';
const AUDIO_NAME = `../../${'ü'.repeat(130)}.wav`; // 265 bytes after the path part
const IMAGE_NAME = '..\\..\\.hidden:100%?.png';
const LONG_VIDEO_NAME = `${'ø'.repeat(130)}.mp4`; // 264 bytes

beforeAll(async () => {
  ({ dir: root, cleanup } = await makeTempDir('output-names-'));
  const src = join(root, 'src');
  await mkdir(src);
  // Stored under plain names, as uploads are (by id); only the record carries the hostile name.
  uploads.push(await describeUpload({ localPath: await writeVideo(join(src, 'v.mp4'), 1), name: VIDEO_NAME, field: 'file' }));
  uploads.push(await describeUpload({ localPath: await writeAudio(join(src, 'a.wav'), 1), name: AUDIO_NAME, field: 'file' }));
  uploads.push(await describeUpload({ localPath: join(src, 'v.mp4'), name: LONG_VIDEO_NAME, field: 'file' }));
  uploads.push(await describeUpload({ localPath: await writeImage(join(src, 'i.png'), { width: 20, height: 10 }), name: IMAGE_NAME, field: 'file' }));
}, 60_000);
afterAll(() => cleanup());

async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

describe('robot output names', () => {
  it('video, audio, image and archive robots write only inside the step folders, under safe names', async () => {
    const workDir = join(root, 'data', 'assemblies', 'a'.repeat(32), 'results');
    const results: { step: string; file: StoredFile }[] = [];
    const before = await filesBelow(root);
    const outcome = await executeSteps({
      assemblyId: 'a'.repeat(32),
      steps: {
        ':original': { robot: '/upload/handle' },
        encoded: { use: ':original', robot: '/video/encode', width: 64, height: 48 },
        thumbs: { use: ':original', robot: '/video/thumbs', count: 2, width: 32 },
        mp3: { use: ':original', robot: '/audio/encode' },
        wave: { use: ':original', robot: '/audio/waveform', width: 40, height: 20 },
        peaks: { use: ':original', robot: '/audio/waveform', format: 'json', width: 10 },
        small: { use: ':original', robot: '/image/resize', width: 8 },
        optimized: { use: ':original', robot: '/image/optimize' },
        zipped: { use: ':original', robot: '/file/compress', format: 'zip', file_layout: 'simple', archive_name: '../../../../../../archive' },
      },
      uploads,
      fields: {},
      workDir,
      signal: new AbortController().signal,
      onResult: (step, file) => results.push({ step, file }),
    });
    expect(outcome).toEqual({ ok: true });

    const written = (await filesBelow(root)).filter((p) => !before.includes(p));
    const outside = written.filter((p) => !join(root, p).startsWith(`${workDir}/`));
    expect(outside).toEqual([]);
    for (const r of results) {
      expect(r.file.localPath.startsWith(`${workDir}/`)).toBe(true);
      const onDisk = r.file.localPath.slice(r.file.localPath.lastIndexOf('/') + 1);
      expect(Buffer.byteLength(onDisk)).toBeLessThanOrEqual(255);
      expect(onDisk.startsWith('.')).toBe(false);
    }
    // No scratch files are left behind, and ffmpeg's patterns stayed literal (one file per output).
    expect(written.filter((p) => p.split('/').at(-1)!.startsWith('.'))).toEqual([]);
    const byStep = (step: string, original = VIDEO_NAME) => results.filter((r) => r.step === step && r.file.original_name === original).map((r) => r.file);
    expect(byStep('encoded').map((f) => f.name)).toEqual(['../../../../../../video %d %03d.mp4']);
    expect(byStep('encoded')[0]!.localPath.endsWith('/video %d %03d.mp4')).toBe(true);
    expect(byStep('thumbs').map((f) => f.localPath.split('/').at(-1))).toEqual(['video %d %03d_0.jpg', 'video %d %03d_1.jpg']);
    // Cut to 255 bytes, numbered thumbnails keep their numbers and stay two files.
    const longThumbs = byStep('thumbs', LONG_VIDEO_NAME).map((f) => f.localPath.split('/').at(-1)!);
    expect(longThumbs).toHaveLength(2);
    expect(longThumbs[0]).toMatch(/^ø+_0\.jpg$/u);
    expect(longThumbs[1]).toMatch(/^ø+_1\.jpg$/u);
    expect(longThumbs.every((n) => Buffer.byteLength(n) <= 255)).toBe(true);
    expect(byStep('encoded', LONG_VIDEO_NAME)[0]!.localPath.split('/').at(-1)).toMatch(/^ø+\.mp4$/u);
    expect(byStep('mp3', AUDIO_NAME)[0]!.localPath.split('/').at(-1)).toMatch(/^ü+\.mp3$/u);
    expect(byStep('wave', AUDIO_NAME)[0]!.localPath.split('/').at(-1)).toMatch(/^ü+\.png$/u);
    expect(byStep('peaks', AUDIO_NAME)[0]!.localPath.split('/').at(-1)).toMatch(/^ü+\.json$/u);
    expect(byStep('small', IMAGE_NAME)[0]!.localPath.split('/').at(-1)).toBe('hidden:100%?.png');
    expect(byStep('optimized', IMAGE_NAME)[0]!.name).toBe(IMAGE_NAME);
    expect(results.find((r) => r.step === 'zipped')!.file.localPath.split('/').at(-1)).toBe('archive.zip');
  }, 60_000);

  it('fails the step with FILE_PATH_OUTSIDE_ASSEMBLY, writing nothing, when an output folder would leave the step folder', async () => {
    const workDir = join(root, 'forged', 'results');
    const forged = { ...uploads.find((u) => u.name === IMAGE_NAME)!, id: '../../../escaped' };
    const before = await filesBelow(root);
    const outcome = await executeSteps({
      assemblyId: 'b'.repeat(32),
      steps: { ':original': { robot: '/upload/handle' }, small: { use: ':original', robot: '/image/resize', width: 8 } },
      uploads: [forged],
      fields: {},
      workDir,
      signal: new AbortController().signal,
      onResult: () => undefined,
    });
    expect(outcome).toMatchObject({ ok: false, code: 'FILE_PATH_OUTSIDE_ASSEMBLY', step: 'small' });
    expect((await filesBelow(root)).filter((p) => !before.includes(p))).toEqual([]);
  });
});
