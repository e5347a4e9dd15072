import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANCELED_CODE, executeSteps, type ExecuteContext } from './execute-steps';
import { describeUpload, type StoredFile } from './file-record';
import { makeTempDir, writeAudio, writeVideo } from './test-files';
import { VIDEO_ENCODE_PRESETS } from '../instructions/robot-params';
import { PeakCollector } from './audio-waveform';
import { VIDEO_PRESET_NAMES } from './video-encode';
import { thumbOffsets } from './video-thumbs';

const writeText = async (path: string, text: string) => {
  await writeFile(path, text);
  return path;
};

let dir: string;
let cleanup: () => Promise<void>;
let video: StoredFile;
let longVideo: StoredFile;
let tone: StoredFile;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('media-'));
  video = await describeUpload({ localPath: await writeVideo(join(dir, 'clip.mp4'), 2), name: 'clip.mp4', field: 'file' });
  longVideo = await describeUpload({ localPath: await writeVideo(join(dir, 'long.mp4'), 20), name: 'long.mp4', field: 'file' });
  tone = await describeUpload({ localPath: await writeAudio(join(dir, 'tone.wav'), 2), name: 'tone.wav', field: 'file' });
}, 60_000);
afterAll(() => cleanup());

async function run(steps: ExecuteContext['steps'], uploads: StoredFile[], signal = new AbortController().signal) {
  const results: StoredFile[] = [];
  // Each step's own percentage as it is reported while the step runs (strictly between 0 and 100).
  const moving = new Map<string, number[]>();
  const outcome = await executeSteps({
    assemblyId: '1'.repeat(32), steps, uploads, fields: {}, signal,
    workDir: join(dir, `w-${Math.random().toString(16).slice(2)}`),
    onResult: (_s, f) => results.push(f),
    onProgress: (_p, _per, perStep) => {
      for (const s of perStep) if (s.state === 'executing' && s.progress > 0 && s.progress < 100 && moving.get(s.step)?.at(-1) !== s.progress) moving.set(s.step, [...(moving.get(s.step) ?? []), s.progress]);
    },
  });
  return { outcome, results, moving };
}

describe('thumbOffsets', () => {
  it('spreads count evenly inside the video and reads seconds and percentages', () => {
    expect(thumbOffsets(10, 4, undefined)).toEqual([2, 4, 6, 8]);
    expect(thumbOffsets(10, 8, [1, '50%', 99])).toEqual([1, 5, 9.9]);
  });
});

describe('/video/thumbs', () => {
  it('grabs count frames as jpg at the source size, with thumb_index and thumb_offset', async () => {
    const { outcome, results } = await run({ thumbs: { robot: '/video/thumbs', use: ':original', count: 3 } }, [video]);
    expect(outcome).toEqual({ ok: true });
    expect(results).toHaveLength(3);
    expect(results.map((f) => f.meta.thumb_index)).toEqual([0, 1, 2]);
    expect(results.map((f) => f.meta.thumb_offset)).toEqual([0.5, 1, 1.5]);
    for (const f of results) {
      expect(f).toMatchObject({ mime: 'image/jpeg', type: 'image', ext: 'jpg', original_id: video.id, meta: { width: 320, height: 240 } });
    }
    expect(new Set(results.map((f) => f.name)).size).toBe(3);
  });

  it('reports its progress frame by frame', async () => {
    const { outcome, moving } = await run({ thumbs: { robot: '/video/thumbs', use: ':original', count: 4, width: 32 } }, [video]);
    expect(outcome).toEqual({ ok: true });
    expect(moving.get('thumbs')).toEqual([25, 50, 75]);
  });

  it('sizes thumbs into a padded box and writes png', async () => {
    const { results } = await run({ thumbs: { robot: '/video/thumbs', use: ':original', offsets: ['50%'], width: 200, height: 200, format: 'png' } }, [video]);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ mime: 'image/png', meta: { width: 200, height: 200 } });
    expect((await sharp(results[0]!.localPath).metadata()).format).toBe('png');
  });

  it('fails with INVALID_INPUT_ERROR when given only audio', async () => {
    const { outcome } = await run({ thumbs: { robot: '/video/thumbs', use: ':original' } }, [tone]);
    expect(outcome).toMatchObject({ ok: false, code: 'INVALID_INPUT_ERROR', step: 'thumbs' });
  });

  it('cancellation stops ffmpeg work promptly', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 150);
    const { outcome, results } = await run({ thumbs: { robot: '/video/thumbs', use: ':original', count: 200 } }, [longVideo], controller.signal);
    expect(outcome).toMatchObject({ ok: false, code: CANCELED_CODE });
    expect(results).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('/audio/encode', () => {
  it('encodes to mp3 by default with real audio metadata', async () => {
    const { outcome, results } = await run({ mp3: { robot: '/audio/encode', use: ':original' } }, [tone]);
    expect(outcome).toEqual({ ok: true });
    expect(results[0]).toMatchObject({ name: 'tone.mp3', mime: 'audio/mpeg', type: 'audio', meta: { audio_codec: 'mp3', audio_channels: 1 } });
    expect(results[0]!.meta.duration as number).toBeGreaterThan(1.9);
  });

  it('takes the audio track of a video, with preset, bitrate and sample rate', async () => {
    const { outcome, results } = await run({ ogg: { robot: '/audio/encode', use: ':original', preset: 'ogg', sample_rate: 22050 } }, [video]);
    expect(outcome).toEqual({ ok: true });
    expect(results[0]).toMatchObject({ name: 'clip.ogg', mime: 'audio/ogg', meta: { audio_codec: 'vorbis', audio_samplerate: 22050, num_video_streams: 0 } });
    const flac = (await run({ f: { robot: '/audio/encode', use: ':original', preset: 'flac' } }, [tone])).results[0]!;
    expect(flac).toMatchObject({ name: 'tone.flac', mime: 'audio/flac', meta: { audio_codec: 'flac' } });
  });
});

describe('/video/encode', () => {
  it('runs exactly the presets validation accepts', () => {
    expect([...VIDEO_PRESET_NAMES].sort()).toEqual([...VIDEO_ENCODE_PRESETS].sort());
  });

  it('encodes H.264/AAC mp4 at the source size by default', async () => {
    const { outcome, results } = await run({ mp4: { robot: '/video/encode', use: ':original' } }, [video]);
    expect(outcome).toEqual({ ok: true });
    expect(results[0]).toMatchObject({
      name: 'clip.mp4', mime: 'video/mp4', type: 'video', original_id: video.id,
      meta: { width: 320, height: 240, video_codec: 'h264', audio_codec: 'aac' },
    });
    expect(results[0]!.localPath).not.toBe(video.localPath);
    expect(results[0]!.meta.duration as number).toBeGreaterThan(1.8);
  });

  it('pads into a box by default and fits or fillcrops on request', async () => {
    const padded = (await run({ v: { robot: '/video/encode', use: ':original', width: 200, height: 200 } }, [video])).results[0]!;
    expect(padded.meta).toMatchObject({ width: 200, height: 200 });
    const fit = (await run({ v: { robot: '/video/encode', use: ':original', width: 200, height: 200, resize_strategy: 'fit' } }, [video])).results[0]!;
    expect(fit.meta).toMatchObject({ width: 200, height: 150 });
    const crop = (await run({ v: { robot: '/video/encode', use: ':original', width: 100, height: 100, resize_strategy: 'fillcrop' } }, [video])).results[0]!;
    expect(crop.meta).toMatchObject({ width: 100, height: 100 });
  });

  it('webm preset gives VP9/Opus, iphone preset its box, gif an animated image', async () => {
    const webm = (await run({ v: { robot: '/video/encode', use: ':original', preset: 'webm', width: 160 } }, [video])).results[0]!;
    expect(webm).toMatchObject({ name: 'clip.webm', mime: 'video/webm', meta: { video_codec: 'vp9', audio_codec: 'opus', width: 160, height: 120 } });
    const iphone = (await run({ v: { robot: '/video/encode', use: ':original', preset: 'iphone' } }, [video])).results[0]!;
    expect(iphone.meta).toMatchObject({ width: 480, height: 320 });
    const gif = (await run({ v: { robot: '/video/encode', use: ':original', preset: 'gif', width: 80, resize_strategy: 'fit' } }, [video])).results[0]!;
    expect(gif).toMatchObject({ name: 'clip.gif', mime: 'image/gif', meta: { width: 80, height: 60 } });
    expect(gif.meta.frame_count as number).toBeGreaterThan(10);
  });

  it('rejects an unknown preset and the ffmpeg passthrough before running', async () => {
    expect((await run({ v: { robot: '/video/encode', use: ':original', preset: 'flash' } }, [video])).outcome).toMatchObject({ ok: false, code: 'VIDEO_ENCODE_VALIDATION' });
    expect((await run({ v: { robot: '/video/encode', use: ':original', ffmpeg: { vf: 'x' } } }, [video])).outcome).toMatchObject({ ok: false, code: 'VIDEO_ENCODE_VALIDATION' });
  });
});

describe('/audio/waveform', () => {
  it('collects peaks across chunks that split samples, extra samples joining the last pixel', () => {
    const pcm = Buffer.alloc(12);
    [1000, -2000, 3000, -4000, 5120, -6400].forEach((v, i) => pcm.writeInt16LE(v, i * 2));
    const c = new PeakCollector(2, 4);
    c.push(pcm.subarray(0, 3)); // one and a half samples
    c.push(pcm.subarray(3));
    expect(c.samplesPerPixel).toBe(2);
    expect(c.data()).toEqual([Math.round(-2000 / 256), Math.round(1000 / 256), -25, 20]);
  });

  it('draws a PNG of the requested size', async () => {
    const { outcome, results } = await run({ w: { robot: '/audio/waveform', use: ':original', width: 300, height: 80, background_color: '#FFFFFF' } }, [tone]);
    expect(outcome).toEqual({ ok: true });
    expect(results[0]).toMatchObject({ name: 'tone.png', mime: 'image/png', meta: { width: 300, height: 80 } });
    // Drawn on white: the middle row crosses the wave (dark), the top corner is background (white).
    const { data, info } = await sharp(results[0]!.localPath).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    expect(at(0, 0)).toBe(255);
    expect(at(150, 40)).toBeLessThan(100);
  });

  it('gives JSON peaks of a real sine wave', async () => {
    const { results } = await run({ w: { robot: '/audio/waveform', use: ':original', format: 'json', width: 100 } }, [video]);
    const out = results[0]!;
    expect(out).toMatchObject({ name: 'clip.json', mime: 'application/json', type: 'document' });
    const json = JSON.parse(await readFile(out.localPath, 'utf8')) as { length: number; bits: number; data: number[]; samples_per_pixel: number };
    expect(json).toMatchObject({ length: 100, bits: 8 });
    expect(json.data).toHaveLength(200);
    // 2 s at 8 kHz over 100 pixels (the AAC track runs a few ms longer).
    expect(json.samples_per_pixel).toBeGreaterThanOrEqual(160);
    expect(json.samples_per_pixel).toBeLessThan(170);
    // ffmpeg's sine source has amplitude 1/8: about ±16 in 8 bits, symmetric.
    const maxes = json.data.filter((_, i) => i % 2 === 1);
    const mins = json.data.filter((_, i) => i % 2 === 0);
    expect(Math.max(...maxes)).toBeGreaterThan(10);
    expect(Math.min(...mins)).toBeLessThan(-10);
  });

  it('reports JSON peaks moving as the audio is decoded', async () => {
    const { outcome, moving } = await run({ w: { robot: '/audio/waveform', use: ':original', format: 'json', width: 100 } }, [longVideo]);
    expect(outcome).toEqual({ ok: true });
    // 20 s at 8 kHz arrive from ffmpeg in several chunks: each one moves the step.
    const values = moving.get('w') ?? [];
    expect(values.length, JSON.stringify(values)).toBeGreaterThanOrEqual(2);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });

  it('refuses styles it cannot draw', async () => {
    expect((await run({ w: { robot: '/audio/waveform', use: ':original', style: 'spectrogram' } }, [tone])).outcome).toMatchObject({ ok: false, code: 'AUDIO_WAVEFORM_VALIDATION' });
  });
});

describe('/file/read', () => {
  it('reads text into meta.content and skips files of 500 KB or more', async () => {
    const note = await describeUpload({ localPath: await writeText(join(dir, 'note.txt'), 'héllo wörld'), name: 'note.txt', field: 'file' });
    const big = await describeUpload({ localPath: await writeText(join(dir, 'big.txt'), 'x'.repeat(600 * 1024)), name: 'big.txt', field: 'file' });
    const warnings: string[] = [];
    const results: StoredFile[] = [];
    const outcome = await executeSteps({
      assemblyId: '2'.repeat(32), steps: { read: { robot: '/file/read', use: ':original' } }, uploads: [note, big], fields: {},
      workDir: join(dir, 'read'), signal: new AbortController().signal,
      onResult: (_s, f) => results.push(f), onWarning: (_s, m) => warnings.push(m),
    });
    expect(outcome).toEqual({ ok: true });
    expect(results.map((f) => [f.original_name, f.meta.content])).toEqual([['note.txt', 'héllo wörld']]);
    expect(warnings.join(' ')).toContain('big.txt');
  });
});
