// Every tus error answer is the service's JSON error with a code, also those @tus/server makes itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForm, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';
import { uploadMetadata } from '../testing/tus-test-data';
import { tusErrorBody } from './tus-errors';

describe('tusErrorBody', () => {
  it('maps the library texts to codes and keeps our own JSON errors', () => {
    expect(JSON.parse(tusErrorBody(412, 'Tus-Resumable Required\n'))).toEqual({ error: 'TUS_RESUMABLE_REQUIRED', message: 'Tus-Resumable Required', http_code: 412 });
    expect(JSON.parse(tusErrorBody(400, 'Invalid upload-length\n')).error).toBe('TUS_INVALID_HEADER');
    expect(JSON.parse(tusErrorBody(409, 'Upload-Offset conflict\n')).error).toBe('TUS_OFFSET_CONFLICT');
    expect(JSON.parse(tusErrorBody(413, "upload's size exceeded\n")).error).toBe('MAX_SIZE_EXCEEDED');
    expect(JSON.parse(tusErrorBody(418, 'something new')).error).toBe('TUS_REQUEST_INVALID');
    expect(JSON.parse(tusErrorBody(400, '')).message).toBe('The upload request failed (HTTP 400).');
    const ours = JSON.stringify({ error: 'ASSEMBLY_NOT_UPLOADING', message: 'm', http_code: 410 });
    expect(tusErrorBody(410, ours)).toBe(ours);
  });
});

describe('tus error answers over HTTP', () => {
  let fx: Fixture;
  let tusUrl: string;
  beforeAll(async () => {
    fx = await startFixture();
    tusUrl = `${fx.service.url}/resumable/files/`;
  });
  afterAll(async () => {
    await fx.stop();
  });

  async function expectJsonError(res: Response, status: number, code: string): Promise<void> {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ error: code, http_code: status, message: expect.any(String) });
  }

  it('answers protocol mistakes with a JSON error code', async () => {
    await expectJsonError(await fetch(tusUrl, { method: 'POST', headers: { 'Upload-Length': '10' } }), 412, 'TUS_RESUMABLE_REQUIRED');
    await expectJsonError(await fetch(tusUrl, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '-5' } }), 400, 'TUS_INVALID_HEADER');
    await expectJsonError(await fetch(tusUrl, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0' } }), 400, 'TUS_INVALID_LENGTH');
    // Metadata that is not "key base64" pairs has its own code (issue 25: it was TUS_INVALID_HEADER).
    await expectJsonError(await fetch(tusUrl, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '1', 'Upload-Metadata': 'a b c d' } }), 400, 'TUS_INVALID_METADATA');
    // A partial upload that names no Assembly: refused as a request, never a 5xx (tus-concat.test.ts).
    await expectJsonError(await fetch(tusUrl, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Concat': 'partial', 'Upload-Length': '1' } }), 400, 'ASSEMBLY_URL_MISSING');
    await expectJsonError(await fetch(`${tusUrl}${'a'.repeat(32)}_${'b'.repeat(32)}`, { method: 'PUT', headers: { 'Tus-Resumable': '1.0.0' } }), 404, 'SERVER_404');
  });

  it('refuses a name (or any value) in Upload-Metadata that is not UTF-8 text with TUS_INVALID_METADATA, keeping nothing; the same name in UTF-8 is recorded byte for byte', async () => {
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps: { ':original': { robot: '/upload/handle' } } }, fields: { tus_num_expected_upload_files: '1' } }));
    const assemblyUrl = String(created.body.assembly_ssl_url);
    const b64 = (b: Buffer) => b.toString('base64');
    // "café.jpg" in ISO-8859-1: the library would record "caf\uFFFD.jpg".
    const latin1 = `assembly_url ${b64(Buffer.from(assemblyUrl))},filename ${b64(Buffer.from('café.jpg', 'latin1'))}`;
    const body = Buffer.from('abc');
    const create = (metadata: string, extra: Record<string, string> = {}) =>
      fetch(tusUrl, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(body.length), 'Content-Type': 'application/offset+octet-stream', 'Upload-Metadata': metadata, ...extra }, body });
    for (const [metadata, extra] of [
      [latin1, {}],
      [latin1, { 'Upload-Concat': 'partial' }],
      [`${uploadMetadata({ assembly_url: assemblyUrl, filename: 'ok.jpg' })},caption ${b64(Buffer.from([0xff, 0xfe]))}`, {}],
    ] as const) {
      const res = await create(metadata, extra);
      await expectJsonError(res.clone(), 400, 'TUS_INVALID_METADATA');
      expect(((await res.json()) as { message: string }).message).toMatch(/^Upload-Metadata's (filename|caption) is not UTF-8 text/);
    }
    // The same name sent as tus clients send it: accepted, and the record holds it as sent.
    const ok = await create(uploadMetadata({ assembly_url: assemblyUrl, filename: 'café.jpg' }));
    expect(ok.status).toBe(201);
    const done = await waitForEnd(assemblyUrl);
    const uploads = done.uploads as { name: string; size: number }[];
    expect(uploads.map((u) => [Buffer.from(u.name).toString('hex'), u.size])).toEqual([[Buffer.from('café.jpg').toString('hex'), 3]]);
    expect(done).toMatchObject({ started_tus_uploads: 1, finished_tus_uploads: 1 });
  });

  it('answers a Tus-Resumable it does not speak with 412 and Tus-Version, on HEAD, PATCH and POST (tus 1.0.0)', async () => {
    const id = `${'a'.repeat(32)}_${'b'.repeat(32)}`;
    for (const [method, url] of [
      ['HEAD', `${tusUrl}${id}`],
      ['PATCH', `${tusUrl}${id}`],
      ['POST', tusUrl],
    ] as const) {
      const res = await fetch(url, { method, headers: { 'Tus-Resumable': '0.2.2', 'Upload-Length': '1', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' } });
      expect(res.status, method).toBe(412);
      expect(res.headers.get('tus-version'), method).toBe('1.0.0');
      if (method !== 'HEAD') expect(((await res.json()) as { error: string }).error).toBe('TUS_VERSION_UNSUPPORTED');
    }
  });
});
