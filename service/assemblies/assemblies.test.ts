// Assemblies over real HTTP: multipart uploads processed by the real robots, results served, states.
import { createHash, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortedUpload, buildForm, getJson, jpeg, png, postAssembly, readSse, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';

const newId = (): string => randomUUID().replace(/-/g, '');

describe('Assemblies', () => {
  let fx: Fixture;
  let key: string;
  beforeAll(async () => {
    fx = await startFixture();
    key = fx.service.authKey;
  });
  afterAll(() => fx.stop());

  it('answers GET / with SERVER_ROOT and unknown routes with SERVER_404', async () => {
    expect((await getJson(`${fx.service.url}/`)).body.ok).toBe('SERVER_ROOT');
    const missing = await getJson(`${fx.service.url}/nothing/here`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'SERVER_404', message: 'unknown method / url' });
    const noAssembly = await getJson(`${fx.service.url}/assemblies/${newId()}`);
    expect(noAssembly.status).toBe(404);
    expect(noAssembly.body.error).toBe('ASSEMBLY_NOT_FOUND');
  });

  it('runs a multipart Assembly with JPEG and PNG files to completion and serves the results', async () => {
    const files = [
      { field: 'photo', name: 'wide.jpg', data: await jpeg(800, 400), type: 'image/jpeg' },
      { field: 'photo', name: 'alpha.png', data: await png(300, 600), type: 'image/png' },
    ];
    const params = {
      auth: { key },
      steps: {
        ':original': { robot: '/upload/handle' },
        thumb: { use: ':original', robot: '/image/resize', width: 200, height: 200, resize_strategy: 'fit' },
      },
      fields: { project: 'from-params', keep: 'yes' },
    };
    const created = await postAssembly(fx.service.url, buildForm({ params, files, fields: { project: 'from-form' } }), '/assemblies', { 'Transloadit-Client': 'test-client:1.0' });
    expect(created.status).toBe(200);
    expect(created.body.ok).toBe('ASSEMBLY_EXECUTING');
    expect(created.body.assembly_id).toMatch(/^[0-9a-f]{32}$/);
    expect(created.body.fields).toEqual({ project: 'from-form', keep: 'yes' });
    const uploads = created.body.uploads as Record<string, unknown>[];
    expect(uploads.map((u) => u.name).sort()).toEqual(['alpha.png', 'wide.jpg']);
    const wide = uploads.find((u) => u.name === 'wide.jpg')!;
    expect(wide).toMatchObject({ basename: 'wide', ext: 'jpg', mime: 'image/jpeg', type: 'image', field: 'photo', is_tus_file: false, tus_upload_url: null });
    expect(wide.meta).toMatchObject({ width: 800, height: 400 });
    expect(wide.md5hash).toMatch(/^[0-9a-f]{32}$/);

    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    expect(done.message).toBe('The Assembly was successfully completed.');
    expect(done.transloadit_client).toBe('test-client:1.0');
    expect(done.start_date).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} GMT$/);
    expect(typeof done.execution_duration).toBe('number');
    const thumbs = (done.results as Record<string, Record<string, unknown>[]>).thumb!;
    expect(thumbs).toHaveLength(2);
    const wideThumb = thumbs.find((t) => t.original_id === wide.id)!;
    expect(wideThumb.meta).toMatchObject({ width: 200, height: 100 });

    const res = await fetch(String(wideThumb.ssl_url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.length).toBe(wideThumb.size);
    const served = await sharp(bytes).metadata();
    expect([served.width, served.height]).toEqual([200, 100]);

    const range = await fetch(String(wideThumb.ssl_url), { headers: { Range: 'bytes=0-9' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 0-9/${bytes.length}`);
    expect(Buffer.from(await range.arrayBuffer())).toEqual(bytes.subarray(0, 10));

    const original = await fetch(String(wide.ssl_url));
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await original.arrayBuffer())).toEqual(Buffer.from(files[0]!.data));
  });

  it('lists the uploads of a multipart request in the order they were sent, though a small part is hashed before a large one', async () => {
    const big = Buffer.alloc(24 * 1024 * 1024, 7);
    const files = [
      { field: 'file', name: 'first-large.bin', data: big },
      { field: 'file', name: 'second-tiny.txt', data: Buffer.from('two') },
      { field: 'file', name: 'third-tiny.txt', data: Buffer.from('three') },
    ];
    const params = { auth: { key }, steps: { ':original': { robot: '/upload/handle' }, stored: { use: ':original', robot: '/transloadit/store', path: 'order/${file.name}' } } };
    const { body } = await postAssembly(fx.service.url, buildForm({ params, files }));
    expect(body.error, JSON.stringify(body)).toBeUndefined();
    const done = await waitForEnd(String(body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    const names = (list: unknown) => (list as { name: string }[]).map((f) => f.name);
    expect(names(done.uploads)).toEqual(['first-large.bin', 'second-tiny.txt', 'third-tiny.txt']);
    expect(names((done.results as Record<string, unknown>).stored)).toEqual(['first-large.bin', 'second-tiny.txt', 'third-tiny.txt']);
  });

  it('keeps the params string with secrets and the Auth Key masked, as the vendor shows it', async () => {
    const raw = `{"auth":{"key":"${key}","secret":"do-not-show"},"steps":{":original":{"robot":"/upload/handle"}}}`;
    const r = await postAssembly(fx.service.url, buildForm({ params: raw }));
    expect(r.body.params).toBe(raw.replace('do-not-show', '****').replace(key, '****'));
    expect(JSON.stringify(r.body)).not.toContain(key);
  });

  it('accepts a client-chosen id once, then answers DO_NOT_REUSE_ASSEMBLY_IDS', async () => {
    const id = newId();
    const form = () => buildForm({ params: { auth: { key }, steps: { ':original': { robot: '/upload/handle' } } } });
    const first = await postAssembly(fx.service.url, form(), `/assemblies/${id}`);
    expect(first.body.assembly_id).toBe(id);
    expect(first.body.assembly_ssl_url).toBe(`${fx.service.url}/assemblies/${id}`);
    const again = await postAssembly(fx.service.url, form(), `/assemblies/${id}`);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('DO_NOT_REUSE_ASSEMBLY_IDS');
  });

  it('refuses a second request with a chosen id while the first is still being received, and the first completes whole', async () => {
    const id = newId();
    const boundary = 'xxSLOWxx';
    const data = Buffer.alloc(256 * 1024, 9);
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n` +
      JSON.stringify({ auth: { key }, steps: { ':original': { robot: '/upload/handle' } } }) +
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const first = request(`${fx.service.url}/assemblies/${id}`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + data.length + tail.length) },
    });
    const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
      first.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>));
      });
      first.on('error', reject);
    });
    first.write(head);
    await new Promise<void>((resolve) => first.write(data.subarray(0, 1024), () => resolve()));
    await new Promise((r) => setTimeout(r, 100));
    // The late duplicate: refused at once, and it leaves the first request's files alone.
    const second = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps: { ':original': { robot: '/upload/handle' } } }, files: [{ field: 'file', name: 'dup.bin', data: Buffer.from('dup') }] }), `/assemblies/${id}`);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('DO_NOT_REUSE_ASSEMBLY_IDS');
    first.end(Buffer.concat([data.subarray(1024), Buffer.from(tail)]));
    const created = await answer;
    expect(created.assembly_id).toBe(id);
    const end = await waitForEnd(String(created.assembly_ssl_url));
    expect(end.ok).toBe('ASSEMBLY_COMPLETED');
    const uploads = end.uploads as Array<{ name: string; size: number; md5hash: string }>;
    expect(uploads.map((u) => [u.name, u.size, u.md5hash])).toEqual([['slow.bin', data.length, createHash('md5').update(data).digest('hex')]]);
  });

  it('answers instruction errors with their codes and HTTP 400', async () => {
    const post = (steps: unknown) => postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps } }));
    const unknownRobot = await post({ x: { robot: '/no/such/robot' } });
    expect(unknownRobot.status).toBe(400);
    expect(unknownRobot.body.error).toBe('ASSEMBLY_STEP_UNKNOWN_ROBOT');
    expect((await post({ a: { robot: '/image/resize', use: 'missing', width: 10 } })).body.error).toBe('ASSEMBLY_STEP_UNKNOWN_USE');
    expect((await post({ a: { robot: '/image/resize', use: 'b', width: 10 }, b: { robot: '/image/resize', use: 'a', width: 10 } })).body.error).toBe('ASSEMBLY_INFINITE');
    expect((await post({})).body.error).toBe('ASSEMBLY_EMPTY_STEPS');
    expect((await postAssembly(fx.service.url, buildForm({ params: { auth: { key } } }))).body.error).toBe('ASSEMBLY_NO_STEPS');
  });

  it('rejects an invalid expected-upload count', async () => {
    for (const field of ['num_expected_upload_files', 'tus_num_expected_upload_files']) {
      const r = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps: { ':original': { robot: '/upload/handle' } } }, fields: { [field]: '-1' } }));
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('ASSEMBLY_INVALID_NUM_EXPECTED_UPLOAD_FILES_PARAM');
    }
  });

  it('cancels a running Assembly: DELETE answers ASSEMBLY_CANCELED, GET and the update stream agree', async () => {
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps: { ':original': { robot: '/upload/handle' } } }, fields: { num_expected_upload_files: '3' } }));
    expect(created.body.ok).toBe('ASSEMBLY_UPLOADING');
    const sse = readSse(String(created.body.update_stream_url));
    expect(await sse.opened).toBe(200);
    const del = await fetch(String(created.body.assembly_ssl_url), { method: 'DELETE' });
    const body = (await del.json()) as Record<string, unknown>;
    expect(del.status).toBe(200);
    expect(body).toMatchObject({ ok: 'ASSEMBLY_CANCELED', message: 'The Assembly was canceled.', assembly_id: created.body.assembly_id });
    expect((await sse.done).map((e) => e.data)).toEqual(['assembly_finished']);
    expect((await getJson(String(created.body.assembly_ssl_url))).body.ok).toBe('ASSEMBLY_CANCELED');
  });

  it('cancels an executing Assembly: it stays canceled and gains no results afterwards', async () => {
    const big = await jpeg(6000, 4000);
    const steps: Record<string, unknown> = { ':original': { robot: '/upload/handle' } };
    for (let i = 0; i < 6; i++) steps[`s${i}`] = { use: ':original', robot: '/image/resize', width: 3000 - i * 100, format: 'png' };
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps }, files: [{ field: 'f', name: 'big.jpg', data: big, type: 'image/jpeg' }] }));
    expect(created.body.ok).toBe('ASSEMBLY_EXECUTING');
    const canceled = (await (await fetch(String(created.body.assembly_ssl_url), { method: 'DELETE' })).json()) as Record<string, unknown>;
    expect(canceled.ok).toBe('ASSEMBLY_CANCELED');
    const count = (r: unknown): number => Object.values((r ?? {}) as Record<string, unknown[]>).reduce((n, l) => n + l.length, 0);
    await new Promise((r) => setTimeout(r, 1500));
    const later = (await getJson(String(created.body.assembly_ssl_url))).body;
    expect(later.ok).toBe('ASSEMBLY_CANCELED');
    expect(count(later.results)).toBe(count(canceled.results));
    expect(count(later.results)).toBeLessThan(6);
  });

  it('marks a multipart request whose connection drops as REQUEST_ABORTED', async () => {
    const id = newId();
    const status = await abortedUpload(fx.service.url, id, key);
    expect(status.ok).toBe('REQUEST_ABORTED');
    expect(status.message).toBe('The upload connection was closed or timed out before receiving all data.');
  });

  it('reports a failed Assembly with its error on GET (HTTP 200) and on the update stream', async () => {
    // A zero-byte "image" cannot be resized: the robot fails and the Assembly carries the error.
    const created = await postAssembly(
      fx.service.url,
      buildForm({
        params: { auth: { key }, steps: { ':original': { robot: '/upload/handle' }, r: { use: ':original', robot: '/image/resize', width: 10 } } },
        files: [{ field: 'f', name: 'broken.jpg', data: Buffer.from('not really a jpeg'), type: 'image/jpeg' }],
      }),
    );
    const end = await waitForEnd(String(created.body.assembly_ssl_url));
    const res = await fetch(String(created.body.assembly_ssl_url));
    expect(res.status).toBe(200);
    expect(typeof end.error).toBe('string');
    expect(String(end.message).length).toBeGreaterThan(0);
    const late = await readSse(String(created.body.update_stream_url)).done;
    expect(late).toHaveLength(1);
    expect(late[0]!.event).toBe('assembly_error');
    expect(JSON.parse(late[0]!.data).error).toBe(end.error);
  });

  it('says at each file why it produced no result: an empty file and a text file through /image/resize', async () => {
    const files = [
      { field: 'f', name: 'photo.jpg', data: await jpeg(200, 100), type: 'image/jpeg' },
      { field: 'f', name: 'empty.jpg', data: Buffer.alloc(0), type: 'image/jpeg' },
      { field: 'f', name: 'notes.txt', data: Buffer.from('just words'), type: 'text/plain' },
    ];
    const steps = { ':original': { robot: '/upload/handle' }, resized: { use: ':original', robot: '/image/resize', width: 50 } };
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps }, files }));
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    expect((done.results as Record<string, unknown[]>).resized).toHaveLength(1);
    const uploads = done.uploads as { id: string; name: string }[];
    const idOf = (name: string) => uploads.find((u) => u.name === name)!.id;
    expect(done.warnings).toEqual([
      expect.objectContaining({ level: 'warning', step: 'resized', original_id: idOf('empty.jpg'), name: 'empty.jpg', code: 'INVALID_INPUT_ERROR', reason: 'Empty file (0 bytes): nothing to resize' }),
      expect.objectContaining({ level: 'warning', step: 'resized', original_id: idOf('notes.txt'), name: 'notes.txt', code: 'INVALID_INPUT_ERROR', reason: 'Not an image: /image/resize skips text/plain' }),
    ]);
    expect((done.warnings as { msg: string }[])[0]!.msg).toBe('Step "resized" skipped "empty.jpg": Empty file (0 bytes): nothing to resize');
  });

  it('notes at a file that a filter passed it over', async () => {
    const steps = {
      ':original': { robot: '/upload/handle' },
      images: { robot: '/file/filter', use: ':original', accepts: [['${file.mime}', 'regex', 'image']] },
      resized: { robot: '/image/resize', use: 'images', width: 50 },
    };
    const files = [
      { field: 'f', name: 'photo.jpg', data: await jpeg(100, 100), type: 'image/jpeg' },
      { field: 'f', name: 'notes.txt', data: Buffer.from('words'), type: 'text/plain' },
    ];
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps }, files }));
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    const notes = (done.uploads as { id: string; name: string }[]).find((u) => u.name === 'notes.txt')!;
    expect(done.warnings).toEqual([
      { level: 'notice', msg: 'Step "images" passed over "notes.txt": Declined by the filter', step: 'images', original_id: notes.id, name: 'notes.txt', code: 'FILE_FILTER_DECLINED_FILE', reason: 'Declined by the filter' },
    ]);
  });

  it('names the step and the file an Assembly failed on', async () => {
    const steps = {
      ':original': { robot: '/upload/handle' },
      small_only: { robot: '/file/filter', use: ':original', accepts: [['${file.size}', '<', 10]], error_on_decline: true, error_msg: 'Too big.' },
    };
    const files = [{ field: 'f', name: 'photo.jpg', data: await jpeg(100, 100), type: 'image/jpeg' }];
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps }, files }));
    const end = await waitForEnd(String(created.body.assembly_ssl_url));
    const upload = (end.uploads as { id: string }[])[0]!;
    expect(end).toMatchObject({ ok: null, error: 'FILE_FILTER_DECLINED_FILE', message: 'Too big.', http_code: 200, step: 'small_only', original_id: upload.id, name: 'photo.jpg' });
  });

  it('fails an Assembly whose only file is empty with INVALID_INPUT_ERROR, naming the step and the reason', async () => {
    const steps = { ':original': { robot: '/upload/handle' }, resized: { use: ':original', robot: '/image/resize', width: 50 } };
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps }, files: [{ field: 'f', name: 'empty.jpg', data: Buffer.alloc(0), type: 'image/jpeg' }] }));
    const end = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(end).toMatchObject({ error: 'INVALID_INPUT_ERROR', step: 'resized', reason: 'Empty file (0 bytes): nothing to resize' });
    expect(end.message).toBe('Step "resized" (/image/resize) could use none of its 1 input file(s). "empty.jpg": Empty file (0 bytes): nothing to resize.');
    expect(end.warnings).toEqual([expect.objectContaining({ name: 'empty.jpg', reason: 'Empty file (0 bytes): nothing to resize' })]);
  });
});
