// /text/translate and /image/generate through a real OpenAI-compatible model server on loopback, and the
// model robots nothing here can run (/image/bgremove…) refused at creation with a code that says so. The
// server reads what it is sent: it "translates" word by word from a small dictionary into the language
// its instruction names, and draws images of the size and colour asked for.

import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateInstructions } from '../instructions/validate-instructions';
import { requestSize } from './image-generate';
import { textPieces } from './text-translate';
import { readBody, startModelServers, type ModelServers } from './test-model-server';
import { makeTempDir, textUpload } from './test-files';

const GERMAN: Record<string, string> = { hello: 'hallo', world: 'Welt', good: 'gut', morning: 'Morgen', the: 'die', cat: 'Katze' };

/** What the server was asked: each chat request's instruction and text, each image request's body. */
const asked: { system: string; user: string }[] = [];
const imageRequests: Record<string, unknown>[] = [];

const answer: RequestListener = (req, res) => {
  void readBody(req).then(async (raw) => {
    const json = (status: number, body: unknown) => void res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    const body = JSON.parse(raw.toString() || '{}') as Record<string, unknown>;
    if (req.url === '/v1/chat/completions') {
      const [system, user] = (body.messages as { content: string }[]).map((m) => m.content) as [string, string];
      asked.push({ system, user });
      const into = /into ([A-Z][a-z]+) \(/.exec(system)?.[1];
      const words = into === 'German' ? user.replace(/[A-Za-z]+/g, (w) => GERMAN[w.toLowerCase()] ?? w) : user;
      return json(200, { choices: [{ message: { role: 'assistant', content: `\n${words}\n` } }] });
    }
    if (req.url === '/v1/images/generations') {
      imageRequests.push(body);
      const [w, h] = String(body.size).split('x').map(Number) as [number, number];
      const colour = /red/.test(String(body.prompt)) ? '#e00000' : '#0000e0';
      const png = await sharp({ create: { width: w, height: h, channels: 3, background: colour } }).png().toBuffer();
      return json(200, { created: 1, data: Array.from({ length: Number(body.n) }, () => ({ b64_json: png.toString('base64') })) });
    }
    json(404, { error: { message: 'not found' } });
  });
};

let dir: string;
let cleanup: () => Promise<void>;
let models: ModelServers;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('translate-generate-'));
  models = await startModelServers(answer, { workDir: dir, assemblyId: '4'.repeat(32), apiKey: null });
});
afterAll(async () => {
  models?.close();
  await cleanup();
});

const run: ModelServers['run'] = (...args) => models.run(...args);

describe('/text/translate', () => {
  it('translates each text file into target_language, keeping its name, paragraphs and line breaks', async () => {
    asked.length = 0;
    const notes = await textUpload(dir, 'notes.md', '# Hello world\n\nGood morning, the cat.\n');
    const plain = await textUpload(dir, 'plain.txt', 'hello');
    const { outcome, results } = await run({ t: { robot: '/text/translate', use: ':original', target_language: 'de', source_language: 'en' } }, [notes, plain]);
    expect(outcome).toEqual({ ok: true });
    expect(results.map((r) => r.name).sort()).toEqual(['notes.md', 'plain.txt']);
    const md = results.find((r) => r.name === 'notes.md')!;
    expect(await readFile(md.localPath, 'utf8')).toBe('# hallo Welt\n\ngut Morgen, die Katze.\n');
    expect(md.meta).toMatchObject({ target_language: 'de', source_language: 'en', model: 'local-model' });
    expect(asked[0]!.system).toContain('from English (en) into German (de)');
  });

  it('refuses files that are not text, as the hosted robot does', async () => {
    const { dir: d2, cleanup: c2 } = await makeTempDir('translate-bin-');
    try {
      const png = join(d2, 'x.png');
      await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).png().toFile(png);
      const { describeUpload } = await import('./file-record');
      const { outcome } = await run({ t: { robot: '/text/translate', use: ':original', target_language: 'de' } }, [await describeUpload({ localPath: png, name: 'x.png', field: 'file' })]);
      expect(outcome).toMatchObject({ ok: false, code: 'INVALID_INPUT_ERROR' });
      expect((outcome as { message: string }).message).toContain('text files (text/*)');
    } finally {
      await c2();
    }
  });

  it('cuts long text into pieces of whole paragraphs that join back into the text (any text, any size)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom('\n', '\n\n', '\n \n', 'word ')), { maxLength: 60 }), fc.integer({ min: 8, max: 500 }), (parts, max) => {
        const text = parts.join('');
        const pieces = textPieces(text, max);
        expect(pieces.join('')).toBe(text);
        for (const p of pieces) expect(p.length).toBeLessThanOrEqual(max);
      }),
    );
    expect(textPieces('a\n\nb', 3)).toEqual(['a\n\n', 'b']);
  });
});

describe('/image/generate', () => {
  it('makes num_outputs images of the size asked for from prompt alone, in the step\'s format', async () => {
    imageRequests.length = 0;
    const { outcome, results } = await run({ g: { robot: '/image/generate', prompt: 'a red square', width: 128, height: 64, num_outputs: 2, format: 'jpg', style: 'flat' } }, []);
    expect(outcome).toEqual({ ok: true });
    expect(results.map((r) => r.name)).toEqual(['generated-1.jpg', 'generated-2.jpg']);
    for (const r of results) {
      expect(r).toMatchObject({ mime: 'image/jpeg', meta: { width: 128, height: 64, prompt: 'a red square', model: 'local-model' } });
      const { channels } = await sharp(r.localPath).stats();
      expect(channels[0]!.mean).toBeGreaterThan(200);
    }
    expect(imageRequests[0]).toMatchObject({ model: 'local-model', n: 2, size: '128x64', response_format: 'b64_json', prompt: 'a red square\nStyle: flat.' });
  });

  it('sizes by aspect_ratio when no width and height are given', () => {
    expect(requestSize({ aspect_ratio: '16:9' })).toBe('1024x576');
    expect(requestSize({ aspect_ratio: '2:3' })).toBe('704x1024');
    expect(requestSize({})).toBe('1024x1024');
  });

  it('a server without /images/generations is IMAGE_GENERATE_NOT_OFFERED; svg and inpainting are refused at creation', async () => {
    const { outcome } = await run({ g: { robot: '/image/generate', prompt: 'a blue square' } }, [], models.chatOnlyPort);
    expect(outcome).toMatchObject({ ok: false, code: 'IMAGE_GENERATE_NOT_OFFERED' });
    expect((outcome as { message: string }).message).toContain('/images/generations answered HTTP 404');
    expect(validateInstructions({ g: { robot: '/image/generate', prompt: 'x', format: 'svg' } })).toMatchObject({ code: 'IMAGE_GENERATE_VALIDATION', parameter: 'format' });
    expect(validateInstructions({ g: { robot: '/image/generate', prompt: 'x', use: ':original' } })).toMatchObject({ code: 'IMAGE_GENERATE_VALIDATION', parameter: 'use' });
    expect(validateInstructions({ g: { robot: '/image/generate' } })).toMatchObject({ code: 'IMAGE_GENERATE_VALIDATION' });
  });
});

describe('model robots without a model server, or with none the API offers', () => {
  it('are refused at creation with a code that says a model server is needed, naming the setting', async () => {
    for (const robot of ['/text/translate', '/image/describe', '/speech/transcribe']) {
      const problem = validateInstructions({ s: { robot, use: ':original' } }, { modelServer: false });
      expect(problem).toMatchObject({ code: `${robot.slice(1).replace('/', '_').toUpperCase()}_NOT_CONFIGURED`, step: 's', parameter: 'robot' });
      expect(problem!.message).toContain('--chat-endpoint');
      expect(problem!.message).toContain('Workspaces → Chat model');
    }
    expect(validateInstructions({ s: { robot: '/image/generate', prompt: 'x' } }, { modelServer: false })).toMatchObject({ code: 'IMAGE_GENERATE_NOT_CONFIGURED' });
    // A Template may be saved before the server is set: without a context these pass.
    expect(validateInstructions({ s: { robot: '/text/translate', use: ':original', target_language: 'fr' } })).toBeNull();
    for (const robot of ['/image/bgremove', '/image/upscale', '/image/facedetect', '/video/generate']) {
      const problem = validateInstructions({ s: { robot, use: ':original' } }, { modelServer: true });
      expect(problem).toMatchObject({ code: `${robot.slice(1).replace('/', '_').toUpperCase()}_MODEL_NOT_OFFERED`, step: 's', parameter: 'robot' });
      expect(problem!.message).toContain('OpenAI-compatible');
    }
    const { outcome } = await run({ t: { robot: '/text/translate', use: ':original' } }, [await textUpload(dir, 'a.txt', 'hello')], null);
    expect(outcome).toMatchObject({ ok: false, code: 'TEXT_TRANSLATE_NOT_CONFIGURED', step: 't' });
  });
});

describe('the vendor Node SDK drives the model robots on the local service', () => {
  it('translates and generates through @transloadit/node; /image/bgremove is refused at creation over HTTP', async () => {
    const { startFixture } = await import('../testing/service-fixture');
    const fx = await startFixture({ chat: { endpoint: `http://127.0.0.1:${models.port}/v1`, model: 'local-model', apiKey: null, timeoutMs: 20_000 } });
    const bare = await startFixture();
    try {
      const { Transloadit } = await import('@transloadit/node');
      const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
      const hello = await textUpload(dir, 'hello.txt', 'hello world');
      const result = await client.createAssembly({
        files: { doc: hello.localPath },
        params: {
          steps: {
            ':original': { robot: '/upload/handle' },
            german: { robot: '/text/translate', use: ':original', target_language: 'de' },
            picture: { robot: '/image/generate', prompt: 'a blue circle', width: 96, height: 96 },
          },
        } as never,
        waitForCompletion: true,
      });
      expect(result.ok, JSON.stringify(result.message)).toBe('ASSEMBLY_COMPLETED');
      expect(await (await fetch(result.results!.german![0]!.ssl_url!)).text()).toBe('hallo Welt');
      expect(result.results!.picture!.map((r) => [r.name, r.meta?.width, r.meta?.height])).toEqual([['generated.png', 96, 96]]);
      const refused = async (svc: typeof fx, steps: Record<string, unknown>) => {
        const c = new Transloadit({ authKey: svc.service.authKey, authSecret: svc.service.authSecret, endpoint: svc.service.url });
        return c.createAssembly({ files: { doc: hello.localPath }, params: { steps } as never }).then(() => null, (e: { code?: string; message: string }) => e);
      };
      const bg = await refused(fx, { ':original': { robot: '/upload/handle' }, cut: { robot: '/image/bgremove', use: ':original' } });
      expect(bg?.code).toBe('IMAGE_BGREMOVE_MODEL_NOT_OFFERED');
      const none = await refused(bare, { ':original': { robot: '/upload/handle' }, german: { robot: '/text/translate', use: ':original', target_language: 'de' } });
      expect(none?.code).toBe('TEXT_TRANSLATE_NOT_CONFIGURED');
      expect(none?.message).toContain('--chat-endpoint');
    } finally {
      await Promise.all([fx.stop(), bare.stop()]);
    }
  }, 60_000);
});
