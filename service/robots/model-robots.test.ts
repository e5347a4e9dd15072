// /image/describe and /speech/transcribe through a real OpenAI-compatible model server on loopback. The
// server here reads what it is sent (the image's pixels, the WAV's header and length), so a result proves
// the file's own bytes reached it; without a server, or a server without the capability, the step says so.

import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRobotParams } from '../instructions/robot-params';
import { describeUpload, type StoredFile } from './file-record';
import { readLabels } from './model-robots';
import { readBody, startModelServers, type ModelServers } from './test-model-server';
import { makeTempDir, writeAudio, writeVideo } from './test-files';

/** What the model server was asked for transcription: the form's fields and the audio's format. */
const heard: { model: string; language: string; format: string; riff: boolean; sampleRate: number; channels: number; authorization?: string }[] = [];

const answer: RequestListener = (req, res) => {
  void readBody(req).then(async (raw) => {
    const json = (status: number, body: unknown) => void res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/v1/chat/completions') {
      const body = JSON.parse(raw.toString()) as { messages: { content: unknown }[] };
      const parts = body.messages.at(-1)!.content as { type: string; image_url?: { url: string } }[];
      const dataUrl = parts.find((p) => p.type === 'image_url')!.image_url!.url;
      // The dominant channel of the picture that arrived is its label.
      const { channels } = await sharp(Buffer.from(dataUrl.split(',')[1]!, 'base64')).stats();
      const means = channels.slice(0, 3).map((c) => c.mean);
      const label = ['red', 'green', 'blue'][means.indexOf(Math.max(...means))]!;
      return json(200, { choices: [{ message: { role: 'assistant', content: JSON.stringify({ labels: [{ name: label, confidence: 0.93 }, { name: 'square', confidence: 61 }] }) } }] });
    }
    if (req.url === '/v1/audio/transcriptions') {
      const form = await new Response(raw, { headers: { 'Content-Type': req.headers['content-type']! } }).formData();
      const audio = Buffer.from(await (form.get('file') as Blob).arrayBuffer());
      const sampleRate = audio.readUInt32LE(24);
      const channels = audio.readUInt16LE(22);
      const seconds = (audio.length - 44) / (sampleRate * channels * 2);
      const format = String(form.get('response_format'));
      heard.push({ model: String(form.get('model')), language: String(form.get('language')), format, riff: audio.subarray(0, 4).toString() === 'RIFF', sampleRate, channels, authorization: req.headers.authorization });
      const text = `a tone of ${seconds.toFixed(1)} seconds`;
      if (format === 'text') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(text);
      if (format === 'srt') return void res.writeHead(200).end(`1\n00:00:00,000 --> 00:00:0${Math.round(seconds)},000\n${text}\n`);
      if (format === 'vtt') return void res.writeHead(200).end(`WEBVTT\n\n00:00:00.000 --> 00:00:0${Math.round(seconds)}.000\n${text}\n`);
      return json(200, format === 'verbose_json' ? { text, language: form.get('language'), segments: [{ start: 0, end: seconds, text }] } : { text });
    }
    json(404, { error: { message: 'not found' } });
  });
};

let dir: string;
let cleanup: () => Promise<void>;
let models: ModelServers;
let tone: StoredFile;
let video: StoredFile;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('model-robots-'));
  models = await startModelServers(answer, { workDir: dir, assemblyId: '3'.repeat(32), apiKey: 'sk-local' });
  tone = await describeUpload({ localPath: await writeAudio(join(dir, 'tone.wav'), 2), name: 'tone.wav', field: 'file' });
  video = await describeUpload({ localPath: await writeVideo(join(dir, 'talk.mp4'), 1), name: 'talk.mp4', field: 'file' });
}, 60_000);
afterAll(async () => {
  models?.close();
  await cleanup();
});

const run: ModelServers['run'] = (...args) => models.run(...args);

const image = async (name: string, color: string) => {
  const path = join(dir, name);
  await sharp({ create: { width: 32, height: 32, channels: 3, background: color } }).png().toFile(path);
  return describeUpload({ localPath: path, name, field: 'file' });
};

describe('/image/describe', () => {
  it('labels each image from its own pixels, as JSON with confidence, a flat list, text or meta', async () => {
    const [red, blue] = [await image('red.png', '#e00000'), await image('blue.png', '#0000e0')];
    const full = await run({ d: { robot: '/image/describe', use: ':original' } }, [red, blue]);
    expect(full.outcome).toEqual({ ok: true });
    const byName = Object.fromEntries(await Promise.all(full.results.map(async (r) => [r.name, JSON.parse(await readFile(r.localPath, 'utf8'))])));
    expect(byName).toEqual({ 'red.json': [{ name: 'red', confidence: 93 }, { name: 'square', confidence: 61 }], 'blue.json': [{ name: 'blue', confidence: 93 }, { name: 'square', confidence: 61 }] });
    const list = await run({ d: { robot: '/image/describe', use: ':original', granularity: 'list' } }, [red]);
    expect(JSON.parse(await readFile(list.results[0]!.localPath, 'utf8'))).toEqual(['red', 'square']);
    const meta = await run({ d: { robot: '/image/describe', use: ':original', format: 'meta', granularity: 'list' } }, [blue]);
    expect(meta.results[0]).toMatchObject({ name: 'blue.png', mime: 'image/png', meta: { descriptions: ['blue', 'square'] } });
    const text = await run({ d: { robot: '/image/describe', use: ':original', format: 'text' } }, [red]);
    expect(await readFile(text.results[0]!.localPath, 'utf8')).toBe('red\nsquare');
  });

  it('reads labels in the shapes models give them', () => {
    expect(readLabels(['cat', { name: 'dog', confidence: 0.5 }, { name: 'sky', confidence: 87 }])).toEqual([{ name: 'cat', confidence: 100 }, { name: 'dog', confidence: 50 }, { name: 'sky', confidence: 87 }]);
    expect(readLabels({ descriptions: [] })).toEqual([]);
    expect(readLabels('a cat')).toBeNull();
  });

  it('without a model server says so with IMAGE_DESCRIBE_NOT_CONFIGURED', async () => {
    const { outcome } = await run({ d: { robot: '/image/describe', use: ':original' } }, [await image('g.png', '#00e000')], null);
    expect(outcome).toMatchObject({ ok: false, code: 'IMAGE_DESCRIBE_NOT_CONFIGURED', step: 'd' });
    expect((outcome as { message: string }).message).toContain('--chat-endpoint');
  });
});

describe('/speech/transcribe', () => {
  it('sends 16 kHz mono WAV of the audio (of a video too) and keeps the transcript in every format', async () => {
    heard.length = 0;
    const json = await run({ t: { robot: '/speech/transcribe', use: ':original', source_language: 'de-DE' } }, [tone]);
    expect(json.outcome).toEqual({ ok: true });
    expect(JSON.parse(await readFile(json.results[0]!.localPath, 'utf8'))).toMatchObject({ text: 'a tone of 2.0 seconds', segments: [{ start: 0 }] });
    expect(heard[0]).toEqual({ model: 'local-model', language: 'de', format: 'verbose_json', riff: true, sampleRate: 16000, channels: 1, authorization: 'Bearer sk-local' });
    const srt = await run({ t: { robot: '/speech/transcribe', use: ':original', format: 'srt' } }, [video]);
    expect(srt.results[0]).toMatchObject({ name: 'talk.srt' });
    expect(await readFile(srt.results[0]!.localPath, 'utf8')).toContain('a tone of 1.0 seconds');
    const vtt = await run({ t: { robot: '/speech/transcribe', use: ':original', format: 'webvtt' } }, [tone]);
    expect(vtt.results[0]!.name).toBe('tone.vtt');
    expect(await readFile(vtt.results[0]!.localPath, 'utf8')).toMatch(/^WEBVTT/);
    const meta = await run({ t: { robot: '/speech/transcribe', use: ':original', format: 'meta' } }, [tone]);
    expect(meta.results[0]).toMatchObject({ name: 'tone.wav', meta: { transcription: { text: 'a tone of 2.0 seconds' } } });
  });

  it('a server without transcription is SPEECH_TRANSCRIBE_NOT_OFFERED, none is _NOT_CONFIGURED, translation is refused at creation', async () => {
    const none = await run({ t: { robot: '/speech/transcribe', use: ':original' } }, [tone], models.chatOnlyPort);
    expect(none.outcome).toMatchObject({ ok: false, code: 'SPEECH_TRANSCRIBE_NOT_OFFERED' });
    expect((none.outcome as { message: string }).message).toContain('/audio/transcriptions answered HTTP 404');
    expect((await run({ t: { robot: '/speech/transcribe', use: ':original' } }, [tone], null)).outcome).toMatchObject({ ok: false, code: 'SPEECH_TRANSCRIBE_NOT_CONFIGURED' });
    expect(validateRobotParams('t', '/speech/transcribe', { source_language: 'en-US', target_language: 'fr-FR' })).toMatchObject({ code: 'SPEECH_TRANSCRIBE_VALIDATION', parameter: 'target_language' });
    expect(validateRobotParams('t', '/speech/transcribe', { source_language: 'en-US', target_language: 'en-GB' })).toBeNull();
  });
});

describe('the vendor Node SDK drives the model robots on the local service', () => {
  it('describes an image and transcribes audio through @transloadit/node', async () => {
    const { startFixture } = await import('../testing/service-fixture');
    const fx = await startFixture({ chat: { endpoint: `http://127.0.0.1:${models.port}/v1`, model: 'local-model', apiKey: null, timeoutMs: 20_000 } });
    try {
      const { Transloadit } = await import('@transloadit/node');
      const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
      const green = await image('sdk-green.png', '#00c000');
      const result = await client.createAssembly({
        files: { photo: green.localPath, sound: tone.localPath },
        params: {
          steps: {
            ':original': { robot: '/upload/handle' },
            labels: { robot: '/image/describe', use: ':original', granularity: 'list' },
            words: { robot: '/speech/transcribe', use: ':original', format: 'text' },
          },
        } as never,
        waitForCompletion: true,
      });
      expect(result.ok, JSON.stringify(result.message)).toBe('ASSEMBLY_COMPLETED');
      expect((result.results?.labels ?? []).map((r) => r.name)).toEqual(['sdk-green.json']);
      expect((result.results?.words ?? []).map((r) => r.name)).toEqual(['tone.txt']);
      const labels = await (await fetch(result.results!.labels![0]!.ssl_url!)).json();
      expect(labels).toEqual(['green', 'square']);
    } finally {
      await fx.stop();
    }
  });
});
