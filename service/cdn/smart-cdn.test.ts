// The Smart CDN runs its Template: over real HTTP, a signed URL for a stored asset gives the resized
// image (checked with sharp), a video's thumbnail, cache hits with one run for concurrent requests, and
// each failure with its code.
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { writeVideo } from '../robots/test-files';
import { buildForm, jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';
import { SMART_CDN_MAX_STEPS } from '../../shared/api/smart-cdn-rules';
import { runCdnTemplate } from './run-cdn-template';
import { cdnStringToSign } from './verify-cdn-url';

let fx: Fixture;
let key = { key: '', secret: '' };
let resizeId = '';

async function signed(method: string, path: string, extra: Record<string, unknown>) {
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: new Date(Date.now() + 60_000).toISOString() }, ...extra });
  const res = await fetch(new URL(path, fx.service.url), { method, body: new URLSearchParams({ params, signature: signParams(params, fx.service.authSecret) }) });
  return (await res.json()) as Record<string, unknown>;
}

/** Keeps files as stored assets under `folder/`. */
async function storeAssets(folder: string, files: { name: string; data: Buffer; type: string }[]): Promise<void> {
  const steps = { ':original': { robot: '/upload/handle' }, kept: { robot: '/transloadit/store', use: ':original', path: `${folder}/\${file.name}` } };
  const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, files: files.map((f) => ({ field: 'file', ...f })) }));
  const done = await waitForEnd(String(created.body.assembly_ssl_url), 30_000);
  expect(done.ok).toBe('ASSEMBLY_COMPLETED');
}

const createTemplate = async (name: string, steps: Record<string, unknown>): Promise<string> =>
  String((await signed('POST', '/templates', { name, template: JSON.stringify({ steps }) })).id);

/** A URL signed as the SDKs sign it (service-facts §2), for the local service's `/file/local`. */
function cdnUrl(template: string, input: string, params: Record<string, string> = {}): string {
  const path = `/file/local/${encodeURIComponent(template)}/${encodeURIComponent(input)}`;
  const q = new URLSearchParams({ ...params, auth_key: key.key, exp: String(Date.now() + 600_000) });
  const sig = `sha256:${createHmac('sha256', key.secret).update(cdnStringToSign({ workspace: 'local', template, input, params: q })).digest('hex')}`;
  q.sort();
  q.set('sig', sig);
  return `${fx.service.url}${path}?${q.toString()}`;
}

const get = async (url: string, init: RequestInit = {}) => {
  const res = await fetch(url, init);
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body.toString()) as { error: string; message: string; step?: string } };
};

beforeAll(async () => {
  fx = await startFixture({ jobSlots: 2 });
  const cdn = await signed('POST', '/auth_keys', { is_allowed_for_smartcdn: true, description: 'CDN' });
  key = { key: (cdn.auth_key as { auth_key: string }).auth_key, secret: String(cdn.auth_secret) };
  const clip = join(fx.dataDir, 'clip.mp4');
  await writeVideo(clip, 1);
  await storeAssets('photos', [
    { name: 'sunset 2.jpg', data: await jpeg(400, 300), type: 'image/jpeg' },
    { name: 'notes.txt', data: Buffer.from('not an image'), type: 'text/plain' },
    { name: 'clip.mp4', data: await readFile(clip), type: 'video/mp4' },
  ]);
  resizeId = await createTemplate('cdn-resize', {
    ':original': { robot: '/upload/handle' },
    resized: { robot: '/image/resize', use: ':original', width: '${fields.w}', resize_strategy: 'fit', format: 'png' },
  });
}, 60_000);
afterAll(() => fx.stop());

describe('Smart CDN: the Template runs on the input', () => {
  it('resizes a stored asset to the width the URL asks, then serves it from the cache', async () => {
    const url = cdnUrl('cdn-resize', 'photos/sunset 2.jpg', { w: '120' });
    const first = await get(url);
    expect(first.status, first.body.toString()).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect((await sharp(first.body).metadata()).width).toBe(120);
    const again = await get(url);
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.body.equals(first.body)).toBe(true);
    expect(Number(/max-age=(\d+)/.exec(again.headers.get('cache-control') ?? '')?.[1])).toBeLessThanOrEqual(600);
    // Revalidation, ranges and HEAD, as for any served file.
    expect((await get(url, { headers: { 'If-None-Match': first.headers.get('etag')! } })).status).toBe(304);
    const part = await get(url, { headers: { Range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(part.body.equals(first.body.subarray(0, 8))).toBe(true);
    const head = await fetch(url, { method: 'HEAD' });
    expect(Number(head.headers.get('content-length'))).toBe(first.body.length);
    // Another width is another result; the same width by the Template's name or id is the same one.
    const narrow = await get(cdnUrl('cdn-resize', 'photos/sunset 2.jpg', { w: '48' }));
    expect((await sharp(narrow.body).metadata()).width).toBe(48);
    expect(narrow.headers.get('x-cache')).toBe('MISS');
    expect((await get(cdnUrl(resizeId, '/photos/sunset 2.jpg', { w: '120' }))).headers.get('etag')).toBe(first.headers.get('etag'));
  });

  it('runs the Template once for concurrent identical requests, and again after the Template changes', async () => {
    const url = cdnUrl('cdn-resize', 'photos/sunset 2.jpg', { w: '77' });
    const all = await Promise.all(Array.from({ length: 4 }, () => get(url)));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(all.filter((r) => r.headers.get('x-cache') === 'MISS')).toHaveLength(1);
    await signed('PUT', `/templates/${resizeId}`, {
      template: JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, resized: { robot: '/image/resize', use: ':original', width: '${fields.w}', resize_strategy: 'fit', format: 'webp' } } }),
    });
    const edited = await get(url);
    expect(edited.headers.get('x-cache')).toBe('MISS');
    expect(edited.headers.get('content-type')).toBe('image/webp');
  });

  it('gives the input path as ${fields.input}, for Templates that import it from storage themselves', async () => {
    await createTemplate('cdn-import', {
      imported: { robot: '/transloadit/import', paths: '${fields.input}' },
      resized: { robot: '/image/resize', use: 'imported', height: '${fields.h}', resize_strategy: 'fit' },
    });
    const r = await get(cdnUrl('cdn-import', 'photos/sunset 2.jpg', { h: '60' }));
    expect(r.status, r.body.toString()).toBe(200);
    expect(await sharp(r.body).metadata()).toMatchObject({ height: 60, width: 80, format: 'jpeg' });
  });

  it('serves a video thumbnail', async () => {
    await createTemplate('cdn-poster', { ':original': { robot: '/upload/handle' }, poster: { robot: '/video/thumbs', use: ':original', count: 1, width: '${fields.w}', format: 'jpg' } });
    const r = await get(cdnUrl('cdn-poster', 'photos/clip.mp4', { w: '160' }));
    expect(r.status, r.body.toString()).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(r.body).metadata()).width).toBe(160);
  }, 30_000);

  it('says why the Template gave nothing, each with its code', async () => {
    const badWidth = await get(cdnUrl('cdn-resize', 'photos/sunset 2.jpg', { w: 'wide' }));
    expect(badWidth.status).toBe(422);
    expect(badWidth.json().error).toBe('IMAGE_RESIZE_VALIDATION');
    expect(badWidth.json().step).toBe('resized');
    expect(badWidth.json().message).toMatch(/failed at step "resized".*width/);
    const notImage = await get(cdnUrl('cdn-resize', 'photos/notes.txt', { w: '50' }));
    expect(notImage.status).toBe(422);
    expect(notImage.json().error).toBe('INVALID_INPUT_ERROR');
    expect((await get(cdnUrl('builtin/image-thumbnail@0.0.1', 'photos/notes.txt'))).json().error).toBe('CDN_NO_RESULT');
    const missing = await get(cdnUrl('cdn-resize', 'photos/nope.jpg', { w: '50' }));
    expect(missing.status).toBe(404);
    expect(missing.json().error).toBe('FILE_NOT_FOUND');
  });

  it('serves what a /file/serve step passes on, kept by caches for its cache_duration', async () => {
    await createTemplate('cdn-serve', {
      ':original': { robot: '/upload/handle' },
      small: { robot: '/image/resize', use: ':original', width: '${fields.w}', resize_strategy: 'fit', format: 'webp' },
      served: { robot: '/file/serve', use: 'small', cache_duration: 60 },
    });
    const r = await get(cdnUrl('cdn-serve', 'photos/sunset 2.jpg', { w: '90' }));
    expect(r.status, r.body.toString()).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(r.body).metadata()).width).toBe(90);
    expect(r.headers.get('cache-control')).toBe('public, max-age=60');
    // Response headers of the Template's own are not something the local CDN sends: refused on save.
    const withHeaders = await signed('POST', '/templates', { name: 'cdn-serve-headers', template: JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, served: { robot: '/file/serve', use: ':original', headers: { 'X-A': 'b' } } } }) });
    expect(withHeaders.error).toBe('FILE_SERVE_VALIDATION');
  });

  it('refuses a Template that would export, before anything runs: no SFTP connection, no stored asset', async () => {
    // A real listener as the SFTP host: it counts every connection the run would make.
    let connections = 0;
    const sftp = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => sftp.listen(0, '127.0.0.1', r));
    try {
      await createTemplate('cdn-export', {
        ':original': { robot: '/upload/handle' },
        kept: { robot: '/transloadit/store', use: ':original', path: 'cdn-leak/${file.name}' },
        exported: { robot: '/sftp/store', use: ':original', host: '127.0.0.1', port: (sftp.address() as AddressInfo).port, user: 'u', password: 'p', path: 'out/${file.name}' },
      });
      const r = await get(cdnUrl('cdn-export', 'photos/sunset 2.jpg'));
      expect(r.status).toBe(422);
      expect(r.json()).toMatchObject({ error: 'CDN_TEMPLATE_ROBOT_NOT_ALLOWED', step: 'kept' });
      expect(r.json().message).toMatch(/cannot run on the Smart CDN \(smart-cdn-robot-not-allowed\): Step "kept" uses \/transloadit\/store/);
      // Nothing was stored: the path the Template would have written serves nothing.
      expect((await get(cdnUrl('builtin/store-originals@0.0.1', 'cdn-leak/sunset 2.jpg'))).json().error).toBe('FILE_NOT_FOUND');
      await createTemplate('cdn-chat', { ':original': { robot: '/upload/handle' }, described: { robot: '/ai/chat', use: ':original', messages: 'Describe this' } });
      expect((await get(cdnUrl('cdn-chat', 'photos/sunset 2.jpg'))).json()).toMatchObject({ error: 'CDN_TEMPLATE_ROBOT_NOT_ALLOWED', step: 'described' });
      // The /sftp/store step alone is refused the same way, and no connection was ever made.
      await createTemplate('cdn-sftp', { ':original': { robot: '/upload/handle' }, exported: { robot: '/sftp/store', use: ':original', host: '127.0.0.1', port: (sftp.address() as AddressInfo).port, user: 'u', password: 'p' } });
      const refused = await get(cdnUrl('cdn-sftp', 'photos/sunset 2.jpg'));
      expect(refused.json()).toMatchObject({ error: 'CDN_TEMPLATE_ROBOT_NOT_ALLOWED', step: 'exported' });
      expect(refused.json().message).toContain('/sftp/store');
      expect(connections).toBe(0);
    } finally {
      await new Promise((r) => sftp.close(r));
    }
  });

  it(`serves a Template of ${SMART_CDN_MAX_STEPS} steps and refuses one of ${SMART_CDN_MAX_STEPS + 1}, naming the first step over`, async () => {
    const chain = (n: number) =>
      Object.fromEntries([
        [':original', { robot: '/upload/handle' }],
        ...Array.from({ length: n - 1 }, (_, i) => [`s${i + 1}`, { robot: '/image/resize', use: i === 0 ? ':original' : `s${i}`, width: 200 - i * 10, resize_strategy: 'fit' }]),
      ]);
    await createTemplate('cdn-ten', chain(SMART_CDN_MAX_STEPS));
    const ten = await get(cdnUrl('cdn-ten', 'photos/sunset 2.jpg'));
    expect(ten.status, ten.body.toString()).toBe(200);
    expect((await sharp(ten.body).metadata()).width).toBe(200 - (SMART_CDN_MAX_STEPS - 2) * 10);
    await createTemplate('cdn-eleven', chain(SMART_CDN_MAX_STEPS + 1));
    const eleven = await get(cdnUrl('cdn-eleven', 'photos/sunset 2.jpg'));
    expect(eleven.status).toBe(422);
    expect(eleven.json()).toMatchObject({ error: 'CDN_TEMPLATE_TOO_MANY_STEPS', step: `s${SMART_CDN_MAX_STEPS}` });
    expect(eleven.json().message).toContain(`at most ${SMART_CDN_MAX_STEPS} steps; this one has ${SMART_CDN_MAX_STEPS + 1}`);
  }, 30_000);

  it('stops a run that takes too long, and refuses a Template without steps', async () => {
    const clip = join(fx.dataDir, 'clip.mp4');
    const input = { localPath: clip, name: 'clip.mp4', sha256: 'x', path: '/clip.mp4' };
    const row = (content: unknown) => ({ id: 't', name: 'slow', content, requireSignatureAuth: 0 as const, description: '', createdMs: 0, modifiedMs: 0, lastUsedMs: null });
    const encode = { steps: { ':original': { robot: '/upload/handle' }, webm: { robot: '/video/encode', use: ':original', preset: 'webm' } } };
    const slow = await runCdnTemplate({ template: row(encode), input, fields: {}, workDir: join(fx.dataDir, 'slow-run'), timeoutMs: 50 });
    expect(slow).toMatchObject({ ok: false, code: 'CDN_TEMPLATE_TIMEOUT', httpCode: 504 });
    const empty = await runCdnTemplate({ template: row({ fields: { a: 1 } }), input, fields: {}, workDir: join(fx.dataDir, 'empty-run'), timeoutMs: 5000 });
    expect(empty).toMatchObject({ ok: false, code: 'CDN_TEMPLATE_NO_STEPS', httpCode: 422 });
  });
});
