import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { rootCertificates } from 'node:tls';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiter, createMediaPreviewer, posterOffset } from './media-previews';
import { createTestCa } from '../../../service/testing/test-ca';
import { previewFile, previewUrl } from './thumbnails';

let dir = '';
let server: Server;
let serve: RequestListener;
let base = '';
const ranges: string[] = [];

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);

/** Decodes a preview and measures how much it varies: a blank image has (almost) no spread. */
const decode = async (dataUrl: string | null) => {
  expect(dataUrl).toMatch(/^data:image\/(jpeg|png);base64,/);
  const image = sharp(Buffer.from(dataUrl!.split(',')[1]!, 'base64'));
  const [meta, stats] = await Promise.all([image.metadata(), image.stats()]);
  return { format: meta.format, width: meta.width, height: meta.height, spread: Math.max(...stats.channels.map((c) => c.stdev)), alpha: stats.channels[3] };
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-media-'));
  // Made here with ffmpeg: a 2 s 320×240 test pattern video, a 3 s 440 Hz tone, a 12 s video with sound.
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=10', '-pix_fmt', 'yuv420p', path.join(dir, 'clip.mp4'));
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', path.join(dir, 'tone.wav'));
  ffmpeg('-f', 'lavfi', '-i', 'testsrc2=duration=12:size=640x360:rate=10', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=12', '-shortest', '-pix_fmt', 'yuv420p', path.join(dir, 'talk.mp4'));
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=330:duration=2', '-c:a', 'aac', path.join(dir, 'podcast.mp4'));
  await writeFile(path.join(dir, 'corrupt.mp4'), Buffer.alloc(64 * 1024, 7));
  await writeFile(path.join(dir, 'empty.mp3'), '');
  serve = (req, res) => {
    const file = path.join(dir, (req.url ?? '/').slice(1));
    if (req.headers.range) ranges.push(req.headers.range);
    stat(file).then(
      (info) => {
        // Ranges, as the local service's file server answers them: ffmpeg seeks over HTTP with them.
        const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
        const start = m ? Number(m[1]) : 0;
        const end = m && m[2] ? Number(m[2]) : info.size - 1;
        res.statusCode = m ? 206 : 200;
        res.setHeader('accept-ranges', 'bytes');
        res.setHeader('content-type', file.endsWith('.wav') ? 'audio/wav' : 'video/mp4');
        res.setHeader('content-length', end - start + 1);
        if (m) res.setHeader('content-range', `bytes ${start}-${end}/${info.size}`);
        createReadStream(file, { start, end }).pipe(res);
      },
      () => {
        res.statusCode = 404;
        res.end('missing');
      },
    );
  };
  server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('video and audio previews', () => {
  it('gives a video a poster frame that fits the thumbnail, with its duration', async () => {
    const previewer = createMediaPreviewer();
    const preview = await previewFile(path.join(dir, 'clip.mp4'), 96, previewer);
    expect(preview.kind).toBe('video');
    expect(preview.duration).toBeCloseTo(2, 0);
    const image = await decode(preview.dataUrl);
    expect([image.format, image.width, image.height]).toEqual(['jpeg', 96, 72]);
    expect(image.spread).toBeGreaterThan(20); // the test pattern's colour bars, not a black frame
  });

  it('gives an audio file a waveform with its duration', async () => {
    const preview = await previewFile(path.join(dir, 'tone.wav'), 128, createMediaPreviewer());
    expect([preview.kind, Math.round(preview.duration ?? 0)]).toEqual(['audio', 3]);
    const image = await decode(preview.dataUrl);
    expect([image.format, image.width, image.height]).toEqual(['png', 128, 77]);
    // Drawn wave on a transparent background: some pixels opaque, some clear.
    expect(image.alpha!.max).toBeGreaterThan(200);
    expect(image.alpha!.min).toBe(0);
  });

  it('draws a waveform for a "video" file that only has sound', async () => {
    const preview = await previewFile(path.join(dir, 'podcast.mp4'), 64, createMediaPreviewer());
    expect(preview.kind).toBe('video');
    expect((await decode(preview.dataUrl)).format).toBe('png');
  });

  it('falls back to the type icon for a corrupt or empty file, and when ffmpeg is missing', async () => {
    const previewer = createMediaPreviewer();
    expect(await previewFile(path.join(dir, 'corrupt.mp4'), 96, previewer)).toEqual({ kind: 'video', duration: null, dataUrl: null });
    expect(await previewFile(path.join(dir, 'empty.mp3'), 96, previewer)).toEqual({ kind: 'audio', duration: null, dataUrl: null });
    const without = createMediaPreviewer({ ffmpeg: path.join(dir, 'no-ffmpeg'), ffprobe: path.join(dir, 'no-ffprobe') });
    expect(await previewFile(path.join(dir, 'clip.mp4'), 96, without)).toEqual({ kind: 'video', duration: null, dataUrl: null });
    expect(without.runs).toBe(1); // it stops trying after the first miss
    expect(await previewFile(path.join(dir, 'tone.wav'), 96, without)).toMatchObject({ dataUrl: null });
    expect(without.runs).toBe(1);
  });

  it('gives up on a file after the time limit', async () => {
    const slow = createMediaPreviewer({ timeoutMs: 1 });
    const started = Date.now();
    expect((await previewFile(path.join(dir, 'talk.mp4'), 96, slow)).dataUrl).toBeNull();
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('runs ffmpeg once per file version: the cache answers again, a changed file is read again', async () => {
    const previewer = createMediaPreviewer();
    const file = path.join(dir, 'clip.mp4');
    const first = await previewFile(file, 96, previewer);
    const runs = previewer.runs;
    expect(runs).toBe(2); // ffprobe, then one frame
    expect(await previewFile(file, 96, previewer)).toEqual(first);
    expect(previewer.runs).toBe(runs);
    const later = new Date(Date.now() + 60_000);
    await utimes(file, later, later);
    await previewFile(file, 96, previewer);
    expect(previewer.runs).toBe(runs * 2);
  });

  it('previews video and audio results over HTTP (ffmpeg seeks with range requests)', async () => {
    const previewer = createMediaPreviewer();
    ranges.length = 0;
    const video = await previewUrl(`${base}/talk.mp4`, 160, { mime: 'video/mp4', duration: 12 }, { previewer });
    expect(video.kind).toBe('video');
    expect(video.duration).toBeCloseTo(12, 0);
    const image = await decode(video.dataUrl);
    expect([image.width, image.height]).toEqual([160, 90]);
    expect(image.spread).toBeGreaterThan(20);
    expect(ranges.length).toBeGreaterThan(0);

    const audio = await previewUrl(`${base}/tone.wav`, 96, { mime: 'audio/wav' }, { previewer });
    expect(audio.kind).toBe('audio');
    expect((await decode(audio.dataUrl)).format).toBe('png');
    // A missing result: no preview, the icon, and no error for the page to show.
    expect(await previewUrl(`${base}/gone.mp4`, 96, { mime: 'video/mp4', duration: 4 }, { previewer })).toEqual({ kind: 'video', duration: 4, dataUrl: null });
  });

  it('reads an https result only from a server the workspace trusts: its CA file, never an unverified one', async () => {
    const ca = await createTestCa('Media preview test CA');
    const tls = createHttpsServer(await ca.issue({ ips: ['127.0.0.1'] }), serve);
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/clip.mp4`;
      // A company deployment's certificate: without its CA, ffmpeg must refuse it (its own default is to not check).
      const untrusted = await previewUrl(url, 96, { mime: 'video/mp4', duration: 2 }, { previewer: createMediaPreviewer() });
      expect(untrusted.dataUrl).toBeNull();
      // With the workspace's CA list (the system's plus its CA file), as core's fetch trusts it.
      const trusted = await previewUrl(url, 96, { mime: 'video/mp4', duration: 2 }, { previewer: createMediaPreviewer(), ca: [...rootCertificates, ca.caPem] });
      expect((await decode(trusted.dataUrl)).width).toBe(96);
    } finally {
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });
});

describe('preview helpers', () => {
  it('takes the poster 10 % in, at most a minute, from the start when the length is unknown', () => {
    expect(posterOffset(12)).toBeCloseTo(1.2);
    expect(posterOffset(7200)).toBe(60);
    expect(posterOffset(null)).toBe(0);
    expect(posterOffset(Number.NaN)).toBe(0);
  });

  it('lets at most N tasks run at once, the newest waiting one first', async () => {
    const gate = createLimiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        gate(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 5));
          order.push(i);
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 5, 4, 3, 2]);
  });
});
