// The media robots through the vendor's own Node SDK (@transloadit/node) against the local service over
// real HTTP: one Assembly runs all nine, and its HLS renditions, stored by relative_path behind an HTTP
// server on 127.0.0.1, are played by ffprobe from their URL.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { Transloadit } from '@transloadit/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, tempDir, type Fixture } from '../../testing/service-fixture';
import { writeAudio, writeImage, writeVideo } from '../test-files';

const exec = promisify(execFile);

/** A static server over `root` (what a bucket behind a CDN is to a player). */
async function serve(root: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(root)) return res.writeHead(403).end();
    readFile(path).then((body) => res.writeHead(200).end(body), () => res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the vendor Node SDK drives the media robots', () => {
  let fx: Fixture;
  let dir: string;
  beforeAll(async () => {
    fx = await startFixture({ requireSignature: true });
    dir = await tempDir('sdk-media-');
  });
  afterAll(async () => {
    await fx.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('concats, merges, splits, packages, speaks and lays out through @transloadit/node', async () => {
    const clip = await writeVideo(join(dir, 'clip.mp4'), 2, ['-g', '10']);
    const intro = await writeVideo(join(dir, 'intro.mp4'), 1, ['-s', '160x120']);
    const tone = await writeAudio(join(dir, 'tone.wav'), 2);
    const cover = await writeImage(join(dir, 'cover.png'), { width: 64, height: 48 });
    await writeFile(join(dir, 'line.txt'), 'One line to read.');
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    const status = await client.createAssembly({
      files: { clip, intro, tone, cover, line: join(dir, 'line.txt') },
      params: {
        steps: {
          ':original': { robot: '/upload/handle' },
          concat: { robot: '/video/concat', use: { steps: [{ name: ':original', fields: 'clip', as: 'video_2' }, { name: ':original', fields: 'intro', as: 'video_1' }] } },
          audio_concat: { robot: '/audio/concat', use: { steps: [{ name: ':original', fields: 'tone' }] } },
          slideshow: { robot: '/video/merge', use: { steps: [{ name: ':original', fields: 'cover', as: 'image' }, { name: ':original', fields: 'tone', as: 'audio' }], bundle_steps: true } },
          mix: { robot: '/audio/merge', use: { steps: [{ name: ':original', fields: ['tone', 'clip'] }], bundle_steps: true }, duration: 'shortest' },
          sheet: { robot: '/image/merge', use: { steps: [{ name: ':original', fields: 'cover' }] }, direction: 'vertical' },
          parts: { robot: '/video/split', use: { steps: [{ name: ':original', fields: 'clip' }] }, segments: [{ from: 0, to: 1 }, { from: 1, to: 2 }] },
          sound_parts: { robot: '/audio/split', use: { steps: [{ name: ':original', fields: 'tone' }] }, segments: [{ from: 0.5, to: 1.5 }] },
          hls: { robot: '/video/adaptive', use: { steps: [{ name: ':original', fields: 'clip' }] }, technique: 'hls', segment_duration: 1 },
          said: { robot: '/text/speak', use: { steps: [{ name: ':original', fields: 'line' }] }, target_language: 'en-GB' },
          greeting: { robot: '/text/speak', prompt: 'Welcome.' },
        },
      } as never,
      waitForCompletion: true,
    });
    expect(status.ok, JSON.stringify(status.message)).toBe('ASSEMBLY_COMPLETED');
    const results = status.results ?? {};
    const meta = (step: string, i = 0) => (results[step]?.[i]?.meta ?? {}) as Record<string, unknown>;
    // intro (video_1, 160×120) first: the result has its size.
    expect(meta('concat')).toMatchObject({ width: 160, height: 120 });
    expect(meta('concat').duration as number).toBeCloseTo(3, 0);
    expect(meta('audio_concat').duration as number).toBeCloseTo(2, 0);
    expect(meta('slideshow')).toMatchObject({ width: 64, height: 48 });
    expect(meta('mix').duration as number).toBeCloseTo(2, 0);
    expect(meta('sheet')).toMatchObject({ width: 64, height: 48 });
    expect(results.parts?.map((r) => r.name)).toEqual(['clip_1.mp4', 'clip_2.mp4']);
    expect(meta('sound_parts').duration as number).toBeCloseTo(1, 0);
    expect(results.said?.[0]).toMatchObject({ name: 'line.mp3', mime: 'audio/mpeg' });
    expect(results.greeting?.[0]).toMatchObject({ name: 'speech.mp3' });

    // The HLS files stored where relative_path says, then played over HTTP.
    const site = join(dir, 'site');
    for (const file of results.hls ?? []) {
      // The vendor's storage path: `${file.meta.relative_path}/${file.name}`.
      const target = join(site, String((file.meta as Record<string, unknown>).relative_path), String(file.name));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, Buffer.from(await (await fetch(String(file.ssl_url))).arrayBuffer()));
    }
    const { url, server } = await serve(site);
    try {
      const { stdout } = await exec('ffprobe', ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', `${url}/playlist.m3u8`]);
      const played = JSON.parse(stdout) as { format: { duration: string }; streams: { codec_type: string }[] };
      expect(played.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
      expect(Number(played.format.duration)).toBeCloseTo(2, 0);
    } finally {
      server.close();
    }
    // Ten ffmpeg and espeak-ng jobs in one Assembly: minutes on a loaded 2-core machine.
  }, 240_000);
});
