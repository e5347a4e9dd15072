// tus takes bytes only while an Assembly still waits for them (issue 10, finding 1): the rules as pure
// functions, then each one over real HTTP against the local service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssemblyState } from '../assemblies/assembly-state';
import { buildForm, getJson, jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createRejection, sizeRejection, TusCode, tusCreateAllowance, uploadRejection } from './tus-acceptance';

type View = Parameters<typeof createRejection>[1] & object;
const view = (over: Partial<AssemblyState> = {}): View => ({
  id: 'a'.repeat(32),
  ok: 'ASSEMBLY_UPLOADING',
  error: null,
  expectedTusUploads: 2,
  startedTusUploads: 0,
  finishedTusUploads: 0,
  tusUploads: [],
  maxSize: null,
  ...over,
});
const entry = (uploadId: string, finished: boolean) => ({ uploadId, filename: 'x', fieldname: 'file', size: 1, offset: finished ? 1 : 0, finished, upload_url: '', localPath: '' });

describe('tus acceptance rules', () => {
  it('takes a new upload only while the Assembly is uploading and still missing files', () => {
    expect(createRejection('x', view(), true)).toBeNull();
    expect(createRejection('x', null, false)?.code).toBe('ASSEMBLY_NOT_FOUND');
    expect(createRejection('x', view(), false)?.code).toBe(TusCode.notUploading);
    expect(createRejection('x', view({ ok: 'ASSEMBLY_EXECUTING' }), true)?.code).toBe(TusCode.notUploading);
    expect(createRejection('x', view({ ok: 'ASSEMBLY_CANCELED' }), false)?.message).toMatch(/it is canceled/);
    expect(createRejection('x', view({ ok: null, error: 'MAX_SIZE_EXCEEDED' }), true)?.message).toMatch(/ended with MAX_SIZE_EXCEEDED/);
    expect(createRejection('x', view({ startedTusUploads: 2, finishedTusUploads: 2 }), true)?.code).toBe(TusCode.uploadsComplete);
    // Retried creates are fine up to the allowance.
    expect(createRejection('x', view({ startedTusUploads: tusCreateAllowance(2) - 1, finishedTusUploads: 1 }), true)).toBeNull();
    expect(createRejection('x', view({ startedTusUploads: tusCreateAllowance(2), finishedTusUploads: 1 }), true)?.code).toBe(TusCode.tooManyUploads);
  });

  it('refuses one file bigger than all of auth.max_size', () => {
    expect(sizeRejection(view({ maxSize: 100 }), 100)).toBeNull();
    expect(sizeRejection(view({ maxSize: 100 }), null)).toBeNull();
    expect(sizeRejection(view({ maxSize: null }), 10 ** 12)).toBeNull();
    expect(sizeRejection(view({ maxSize: 100 }), 101)).toMatchObject({ status: 413, code: 'MAX_SIZE_EXCEEDED' });
  });

  it('takes bytes only for an unfinished upload of a waiting Assembly; deletes only unfinished uploads', () => {
    const s = view({ tusUploads: [entry('u1', false), entry('u2', true)] });
    expect(uploadRejection('x', 'u1', 'PATCH', s, true)).toBeNull();
    expect(uploadRejection('x', 'u1', 'DELETE', s, true)).toBeNull();
    expect(uploadRejection('x', 'u1', 'DELETE', { ...s, ok: 'ASSEMBLY_CANCELED' }, false)).toBeNull();
    expect(uploadRejection('x', 'u3', 'PATCH', s, true)).toMatchObject({ status: 404, code: TusCode.uploadNotFound });
    expect(uploadRejection('x', 'u2', 'PATCH', s, true)).toMatchObject({ status: 410, code: TusCode.uploadFinished });
    expect(uploadRejection('x', 'u2', 'DELETE', s, true)).toMatchObject({ status: 400, code: TusCode.uploadFinished });
    expect(uploadRejection('x', 'u1', 'PATCH', { ...s, ok: 'ASSEMBLY_COMPLETED' }, false)).toMatchObject({ status: 410, code: TusCode.notUploading });
    expect(uploadRejection('x', 'u1', 'PATCH', null, false)).toMatchObject({ status: 404, code: 'ASSEMBLY_NOT_FOUND' });
  });
});

describe('tus acceptance over HTTP', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

  async function newAssembly(expected: number, maxSize?: number): Promise<{ id: string; url: string; tusUrl: string }> {
    const created = await postAssembly(
      fx.service.url,
      buildForm({ params: { auth: { key: fx.service.authKey, ...(maxSize ? { max_size: maxSize } : {}) }, steps: { ':original': { robot: '/upload/handle', result: true } } }, fields: { num_expected_upload_files: String(expected) } }),
    );
    expect(created.body.ok).toBe('ASSEMBLY_UPLOADING');
    return { id: String(created.body.assembly_id), url: String(created.body.assembly_ssl_url), tusUrl: String(created.body.tus_url) };
  }

  async function create(a: { url: string; tusUrl: string }, size: number, filename = 'f.jpg'): Promise<Response> {
    return fetch(a.tusUrl, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size), 'Upload-Metadata': `assembly_url ${b64(a.url)},filename ${b64(filename)}` },
    });
  }

  const patch = (uploadUrl: string, offset: number, data: Buffer): Promise<Response> =>
    fetch(uploadUrl, { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, body: data });

  async function expectRefused(res: Response, status: number, code: string): Promise<void> {
    expect(res.status).toBe(status);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ error: code, http_code: status });
    expect(String(body.message)).not.toBe('');
  }

  it('refuses creates and PATCHes once the Assembly has completed', async () => {
    const a = await newAssembly(1);
    const data = await jpeg(20, 20);
    const first = await create(a, data.length);
    const spare = await create(a, data.length, 'retry.jpg'); // a client's retried create: allowed while files are missing
    expect([first.status, spare.status]).toEqual([201, 201]);
    expect((await patch(String(first.headers.get('location')), 0, data)).status).toBe(204);
    expect((await waitForEnd(a.url)).ok).toBe('ASSEMBLY_COMPLETED');

    await expectRefused(await create(a, data.length, 'late.jpg'), 400, 'ASSEMBLY_NOT_UPLOADING');
    await expectRefused(await patch(String(spare.headers.get('location')), 0, data), 410, 'ASSEMBLY_NOT_UPLOADING');
    // HEAD stays open: a client may still learn where its upload stands.
    const head = await fetch(String(first.headers.get('location')), { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
    expect(head.headers.get('upload-offset')).toBe(String(data.length));
    const status = (await getJson(a.url)).body;
    expect(status).toMatchObject({ ok: 'ASSEMBLY_COMPLETED', started_tus_uploads: 2, finished_tus_uploads: 1 });
    expect(status.uploads).toHaveLength(1);
  });

  it('refuses creates and PATCHes for a canceled Assembly, and takes nothing more for it', async () => {
    const a = await newAssembly(1);
    const data = Buffer.concat([await jpeg(50, 50), Buffer.alloc(4096, 1)]);
    const created = await create(a, data.length);
    const uploadUrl = String(created.headers.get('location'));
    expect((await patch(uploadUrl, 0, data.subarray(0, 1000))).status).toBe(204);
    expect((await fetch(a.url, { method: 'DELETE' })).status).toBe(200);

    await expectRefused(await patch(uploadUrl, 1000, data.subarray(1000)), 410, 'ASSEMBLY_NOT_UPLOADING');
    await expectRefused(await create(a, data.length), 400, 'ASSEMBLY_NOT_UPLOADING');
    const head = await fetch(uploadUrl, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
    expect(head.headers.get('upload-offset')).toBe('1000');
    const status = (await getJson(a.url)).body;
    expect(status).toMatchObject({ ok: 'ASSEMBLY_CANCELED', started_tus_uploads: 1, finished_tus_uploads: 0, uploads: [] });
  });

  it('refuses a create once every expected file has arrived, before execution has even started', async () => {
    const a = await newAssembly(1);
    // Big enough that reading it (md5, metadata) keeps the Assembly in ASSEMBLY_UPLOADING for a while.
    const data = Buffer.alloc(48 * 1024 * 1024, 7);
    const created = await create(a, data.length, 'big.bin');
    expect((await patch(String(created.headers.get('location')), 0, data)).status).toBe(204);
    const extra = await create(a, 10, 'extra.jpg');
    expect(extra.status).toBe(400);
    // Normally still uploading (reading the file); on a slow machine execution may have begun already.
    expect([TusCode.uploadsComplete, TusCode.notUploading]).toContain(((await extra.json()) as { error: string }).error);
    const done = await waitForEnd(a.url);
    expect(done).toMatchObject({ ok: 'ASSEMBLY_COMPLETED', started_tus_uploads: 1 });
  });

  it('refuses creates past the retry allowance for an Assembly expecting one file', async () => {
    const a = await newAssembly(1);
    const allowed = tusCreateAllowance(1);
    for (let i = 0; i < allowed; i++) expect((await create(a, 10, `try-${i}.jpg`)).status).toBe(201);
    await expectRefused(await create(a, 10, 'one-too-many.jpg'), 400, TusCode.tooManyUploads);
    expect((await getJson(a.url)).body.started_tus_uploads).toBe(allowed);
  });

  it('never deletes a finished upload: the Assembly keeps serving its bytes', async () => {
    const a = await newAssembly(1);
    const data = await jpeg(30, 30);
    const created = await create(a, data.length);
    const uploadUrl = String(created.headers.get('location'));
    expect((await patch(uploadUrl, 0, data)).status).toBe(204);
    const done = await waitForEnd(a.url);
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');

    await expectRefused(await fetch(uploadUrl, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0' } }), 400, TusCode.uploadFinished);
    const upload = (done.uploads as { ssl_url: string }[])[0]!;
    const served = await fetch(upload.ssl_url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(data)).toBe(true);
  });

  it('refuses an upload bigger than auth.max_size before storing a byte, and ends the Assembly', async () => {
    const a = await newAssembly(1, 1000);
    const tusFilesBefore = await readdir(join(fx.dataDir, 'tus'));
    await expectRefused(await create(a, 5000, 'huge.bin'), 413, 'MAX_SIZE_EXCEEDED');
    expect(await readdir(join(fx.dataDir, 'tus'))).toEqual(tusFilesBefore);
    const status = (await getJson(a.url)).body;
    expect(status).toMatchObject({ error: 'MAX_SIZE_EXCEEDED', started_tus_uploads: 0 });
  });

  it('caps a deferred-length upload at auth.max_size', async () => {
    const a = await newAssembly(1, 1000);
    const created = await fetch(a.tusUrl, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Defer-Length': '1', 'Upload-Metadata': `assembly_url ${b64(a.url)},filename ${b64('stream.bin')}` },
    });
    expect(created.status).toBe(201);
    await expectRefused(await patch(String(created.headers.get('location')), 0, Buffer.alloc(5000, 1)), 413, 'MAX_SIZE_EXCEEDED');
    const head = await fetch(String(created.headers.get('location')), { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
    expect(Number(head.headers.get('upload-offset'))).toBe(0);
  });

  it('lets a client give up an unfinished upload (DELETE), as Uppy does when a file is removed', async () => {
    const a = await newAssembly(2);
    const created = await create(a, 100);
    const del = await fetch(String(created.headers.get('location')), { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0' } });
    expect(del.status).toBe(204);
  });

  it('answers bytes for an upload the Assembly never created with TUS_UPLOAD_NOT_FOUND', async () => {
    const a = await newAssembly(1);
    const forged = `${a.tusUrl}${a.id}_${'f'.repeat(32)}`;
    await expectRefused(await patch(forged, 0, Buffer.from('x')), 404, TusCode.uploadNotFound);
    await expectRefused(await patch(`${a.tusUrl}not-an-upload-id`, 0, Buffer.from('x')), 404, TusCode.uploadNotFound);
    await expectRefused(await fetch(forged, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0' } }), 404, TusCode.uploadNotFound);
  });
});
