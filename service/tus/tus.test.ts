// tus uploads with tus-js-client (Node) into Assemblies, followed over SSE and by polling.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { appendFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForm, getJson, jpeg, postAssembly, readSse, startFixture, tempDir, waitForEnd, type Fixture, type SseEvent } from '../testing/service-fixture';

const STEPS = {
  ':original': { robot: '/upload/handle' },
  small: { use: ':original', robot: '/image/resize', width: 64, height: 64 },
};

function tusUpload(endpoint: string, data: Buffer | { path: string; size: number }, metadata: Record<string, string>, chunkSize?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const source = Buffer.isBuffer(data) ? data : createReadStream(data.path);
    const upload = new Upload(source, {
      endpoint,
      metadata,
      ...(Buffer.isBuffer(data) ? {} : { uploadSize: data.size }),
      ...(chunkSize ? { chunkSize } : {}),
      retryDelays: [],
      onError: reject,
      onSuccess: () => resolve(upload.url ?? ''),
    });
    upload.start();
  });
}

describe('tus uploads into Assemblies', () => {
  let fx: Fixture;
  let key: string;
  const dirs: string[] = [];
  beforeAll(async () => {
    fx = await startFixture();
    key = fx.service.authKey;
  });
  afterAll(async () => {
    await fx.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('answers OPTIONS with the spec headers', async () => {
    const res = await fetch(`${fx.service.url}/resumable/files/`, { method: 'OPTIONS', headers: { 'Tus-Resumable': '1.0.0' } });
    expect(res.status).toBe(204);
    // The spec's OPTIONS row, concatenation included (tus-concat.test.ts).
    expect(res.headers.get('tus-extension')).toBe('creation,creation-with-upload,termination,concatenation,creation-defer-length');
    expect(res.headers.get('tus-resumable')).toBe('1.0.0');
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('tus-max-size')).toMatch(/^[1-9]\d*$/);
  });

  it('lets a browser preflight the headers Uppy sends (X-Request-ID)', async () => {
    const res = await fetch(`${fx.service.url}/resumable/files/`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'tus-resumable,upload-length,upload-metadata,x-request-id' },
    });
    expect(res.status).toBe(204);
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['tus-resumable', 'upload-length', 'upload-metadata', 'x-request-id']));
  });

  it("lets a browser preflight Uppy's Assembly requests (POST, DELETE) with the headers it sends", async () => {
    for (const [path, method] of [['/assemblies', 'POST'], [`/assemblies/${'a'.repeat(32)}`, 'DELETE']] as const) {
      const res = await fetch(`${fx.service.url}${path}`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'transloadit-client,x-request-id' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect((res.headers.get('access-control-allow-methods') ?? '').split(/\s*,\s*/)).toContain(method);
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['transloadit-client', 'x-request-id']));
    }
  });

  it('follows a tus Assembly over SSE from UPLOADING to COMPLETED (num_expected_upload_files)', async () => {
    const created = await postAssembly(
      fx.service.url,
      buildForm({ params: { auth: { key }, steps: STEPS, emit_execution_progress: true }, fields: { num_expected_upload_files: '2' } }),
    );
    expect(created.body.ok).toBe('ASSEMBLY_UPLOADING');
    expect(created.body.expected_tus_uploads).toBe(2);
    const events: SseEvent[] = [];
    const sse = readSse(String(created.body.update_stream_url), (e) => events.push(e));
    expect(await sse.opened).toBe(200);

    const images = [await jpeg(320, 240), await jpeg(100, 400, '#2040c0')];
    const urls = await Promise.all(
      images.map((data, i) =>
        tusUpload(String(created.body.tus_url), data, { assembly_url: String(created.body.assembly_url), fieldname: 'file', filename: `img${i}.jpg`, album: 'holiday' }, 1000),
      ),
    );
    for (const url of urls) expect(url).toMatch(new RegExp(`/resumable/files/${String(created.body.assembly_id)}_[0-9a-f]{32}$`));

    const all = await sse.done;
    const names = all.map((e) => (e.event === 'message' ? e.data : e.event));
    expect(names.filter((n) => n === 'assembly_upload_finished')).toHaveLength(2);
    expect(names.indexOf('assembly_uploading_finished')).toBeGreaterThan(names.lastIndexOf('assembly_upload_finished'));
    expect(names).toContain('assembly_upload_meta_data_extracted');
    expect(names.filter((n) => n === 'assembly_result_finished')).toHaveLength(2);
    expect(names).toContain('assembly_execution_progress');
    expect(names.at(-1)).toBe('assembly_finished');

    const uploadEvent = JSON.parse(all.find((e) => e.event === 'assembly_upload_finished')!.data) as Record<string, unknown>;
    expect(uploadEvent).toMatchObject({ is_tus_file: true, field: 'file', user_meta: { album: 'holiday' } });
    expect(urls).toContain(uploadEvent.tus_upload_url);
    const [step, result] = JSON.parse(all.find((e) => e.event === 'assembly_result_finished')!.data) as [string, Record<string, unknown>];
    expect(step).toBe('small');
    expect((await fetch(String(result.ssl_url))).headers.get('content-type')).toBe('image/jpeg');

    const status = (await getJson(String(created.body.assembly_ssl_url))).body;
    expect(status).toMatchObject({ ok: 'ASSEMBLY_COMPLETED', expected_tus_uploads: 2, started_tus_uploads: 2, finished_tus_uploads: 2 });
    const tusUploads = status.tus_uploads as Record<string, unknown>[];
    expect(tusUploads.every((t) => t.finished === true && t.offset === t.size)).toBe(true);
    expect((status.uploads as Record<string, unknown>[]).map((u) => u.meta)).toEqual(
      expect.arrayContaining([expect.objectContaining({ width: 320, height: 240 }), expect.objectContaining({ width: 100, height: 400 })]),
    );
    // The creating request's body counts too (max_size includes request-body overhead).
    expect(status.bytes_received).toBe(Number(created.body.bytes_received) + images[0]!.length + images[1]!.length);
  });

  it('follows a tus Assembly by polling (tus_num_expected_upload_files, assembly_ssl_url metadata, file stream)', async () => {
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps: STEPS }, fields: { tus_num_expected_upload_files: '1' } }));
    expect(created.body.ok).toBe('ASSEMBLY_UPLOADING');
    const dir = await tempDir('tus-src-');
    dirs.push(dir);
    const path = join(dir, 'photo.jpg');
    const data = await jpeg(500, 500);
    await writeFile(path, data);
    expect((await getJson(String(created.body.assembly_ssl_url))).body.ok).toBe('ASSEMBLY_UPLOADING');
    await tusUpload(String(created.body.tus_url), { path, size: data.length }, { assembly_url: String(created.body.assembly_ssl_url), fieldname: 'upload', filename: 'photo.jpg' }, 4096);
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    const small = (done.results as Record<string, Record<string, unknown>[]>).small!;
    expect(small[0]!.meta).toMatchObject({ width: 64, height: 64 });
    expect((done.uploads as Record<string, unknown>[])[0]).toMatchObject({ name: 'photo.jpg', field: 'upload', is_tus_file: true, size: data.length });
  });

  it('rejects tus uploads for unknown or finished Assemblies and without assembly_url', async () => {
    const data = await jpeg(10, 10);
    const unknown = tusUpload(`${fx.service.url}/resumable/files/`, data, { assembly_url: `${fx.service.url}/assemblies/${'0'.repeat(32)}`, filename: 'x.jpg' });
    await expect(unknown).rejects.toThrow(/404/);
    await expect(tusUpload(`${fx.service.url}/resumable/files/`, data, { filename: 'x.jpg' })).rejects.toThrow(/400/);
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps: STEPS } }));
    await waitForEnd(String(created.body.assembly_ssl_url));
    await expect(tusUpload(String(created.body.tus_url), data, { assembly_url: String(created.body.assembly_url), filename: 'late.jpg' })).rejects.toThrow(/400/);
  });

  it('resumes an interrupted upload from its offset (HEAD + PATCH) and keeps the bytes intact', async () => {
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps: { ':original': { robot: '/upload/handle', result: true } } }, fields: { num_expected_upload_files: '1' } }));
    const data = Buffer.concat([await jpeg(900, 900), Buffer.alloc(512 * 1024, 3)]);
    const metadata = { assembly_url: String(created.body.assembly_url), fieldname: 'file', filename: 'resume.jpg' };
    const uploadUrl = await new Promise<string>((resolve, reject) => {
      const first: Upload = new Upload(data, {
        endpoint: String(created.body.tus_url),
        metadata,
        chunkSize: 64 * 1024,
        retryDelays: [],
        onError: reject,
        onChunkComplete: (_chunk, sent) => {
          if (sent >= 200 * 1024 && first.url) {
            const url = first.url;
            void first.abort().then(() => resolve(url));
          }
        },
      });
      first.start();
    });
    const midway = (await getJson(String(created.body.assembly_ssl_url))).body;
    expect(midway.ok).toBe('ASSEMBLY_UPLOADING');
    const head = await fetch(uploadUrl, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(200 * 1024);
    expect(offset).toBeLessThan(data.length);

    let resumedFrom = -1;
    await new Promise<void>((resolve, reject) => {
      const second = new Upload(data, {
        endpoint: String(created.body.tus_url),
        uploadUrl,
        metadata,
        chunkSize: 64 * 1024,
        retryDelays: [],
        onError: reject,
        onProgress: (sent) => {
          if (resumedFrom < 0) resumedFrom = sent;
        },
        onSuccess: () => resolve(),
      });
      second.start();
    });
    expect(resumedFrom).toBeGreaterThanOrEqual(offset);
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    const upload = (done.uploads as Record<string, unknown>[])[0]!;
    expect(upload.size).toBe(data.length);
    expect(upload.md5hash).toBe(createHash('md5').update(data).digest('hex'));
    const served = Buffer.from(await (await fetch(String(upload.ssl_url))).arrayBuffer());
    expect(served.equals(data)).toBe(true);
    expect((done.results as Record<string, unknown[]>)[':original']).toHaveLength(1);
  });

  it('finishes an upload whose every byte reached the disk though the PATCH carrying them was cut (a client quitting): the resume finds it complete and the Assembly completes', async () => {
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps: { ':original': { robot: '/upload/handle', result: true } } }, fields: { tus_num_expected_upload_files: '1' } }));
    const data = Buffer.alloc(48 * 1024, 'every byte, no answer ');
    const metadata = { assembly_url: String(created.body.assembly_url), fieldname: 'file', filename: 'cut.bin' };
    const encoded = Object.entries(metadata)
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
    const made = await fetch(String(created.body.tus_url), { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(data.length), 'Upload-Metadata': encoded } });
    expect(made.status).toBe(201);
    const uploadUrl = made.headers.get('location')!;
    // What a PATCH cut after its last byte leaves: the bytes on disk, no answer, the upload not marked finished.
    await appendFile(join(fx.dataDir, 'tus', uploadUrl.split('/').pop()!), data);
    expect((await getJson(String(created.body.assembly_ssl_url))).body.ok).toBe('ASSEMBLY_UPLOADING');

    // The client comes back (tus-js-client: HEAD, offset = size, nothing left to send).
    await new Promise<void>((resolve, reject) => {
      const again = new Upload(data, { endpoint: String(created.body.tus_url), uploadUrl, metadata, retryDelays: [], onError: reject, onSuccess: () => resolve() });
      again.start();
    });
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    const upload = (done.uploads as Record<string, unknown>[])[0]!;
    expect([upload.name, upload.size, upload.md5hash]).toEqual(['cut.bin', data.length, createHash('md5').update(data).digest('hex')]);
  });

  it('works with a standard EventSource client (named events and unnamed messages)', async () => {
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps: STEPS }, fields: { num_expected_upload_files: '1' } }));
    const source = new EventSource(String(created.body.update_stream_url));
    const seen: string[] = [];
    const finished = new Promise<void>((resolve, reject) => {
      source.addEventListener('assembly_upload_finished', (e) => seen.push(`upload:${(JSON.parse(e.data) as { name: string }).name}`));
      source.addEventListener('assembly_result_finished', (e) => seen.push(`result:${(JSON.parse(e.data) as [string])[0]}`));
      source.addEventListener('assembly_error', (e) => reject(new Error(e.data)));
      source.onmessage = (e) => {
        seen.push(e.data);
        if (e.data === 'assembly_finished') resolve();
      };
    });
    await new Promise<void>((resolve) => (source.onopen = () => resolve()));
    await tusUpload(String(created.body.tus_url), await jpeg(120, 80), { assembly_url: String(created.body.assembly_url), fieldname: 'file', filename: 'es.jpg' });
    await finished;
    source.close();
    expect(seen).toEqual(['upload:es.jpg', 'assembly_uploading_finished', 'assembly_upload_meta_data_extracted', 'result:small', 'assembly_finished']);
  });
});
