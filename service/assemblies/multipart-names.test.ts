// Issue 24: a file part the service cannot read must never be dropped without a word. Each client's
// spelling of a file name over real HTTP, and the refusal (with a code) of a part nobody can read.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { inOneHourIso, startFixture, type Fixture } from '../testing/service-fixture';
import { signedCall } from '../testing/signed-call';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture({ requireSignature: true });
});
afterAll(async () => {
  await fx.stop();
});

const BOUNDARY = '------------------------4f2a9c81d3e0b7a6';

/** A raw multipart body: signed params, then file parts with exactly these Content-Disposition values (UTF-8). */
function body(dispositions: readonly string[]): Buffer {
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: inOneHourIso() }, steps: { ':original': { robot: '/upload/handle' } } });
  const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const parts = dispositions.map((d, i) => `--${BOUNDARY}\r\nContent-Disposition: ${d}\r\nContent-Type: application/octet-stream\r\n\r\ncontent ${i}\r\n`);
  return Buffer.from(field('params', params) + field('signature', signParams(params, fx.service.authSecret, 'sha384')) + parts.join('') + `--${BOUNDARY}--\r\n`, 'utf8');
}

function post(payload: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const url = new URL('/assemblies', fx.service.url);
    const req = request(url, { method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': String(payload.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const uploadNames = (b: Record<string, unknown>) => (b.uploads as Array<{ name: string; field: string }>).map((u) => u.name);
const NAMES = ['plain.txt', 'holiday (1).jpg', "it's *cool*!.txt", 'ü €.txt', 'IMG_1234 (1).jpg', 'holiday (copy).JPG', 'scan(3).pdf', "O'Brien headshot.png", 'bang!.txt'];

describe('every client spelling of a file name arrives, under that name', () => {
  it("the app's earlier spelling: filename* by encodeURIComponent, ( ) ' * ! left raw", async () => {
    const res = await post(body(NAMES.map((n, i) => `form-data; name="file_${i}"; filename="${n}"; filename*=UTF-8''${encodeURIComponent(n)}`)));
    expect(res.status).toBe(200);
    expect(uploadNames(res.body)).toEqual(NAMES);
  });

  it("older form-data's spelling (the name raw, nothing escaped), a quote and a backslash included", async () => {
    const names = [...NAMES, 'say "cheese".jpg', 'back\\slash.txt'];
    const res = await post(body(names.map((n, i) => `form-data; name="file_${i}"; filename="${n}"`)), { 'Transloadit-Client': 'node-sdk:4.12.0' });
    expect(uploadNames(res.body)).toEqual(names);
  });

  it("a browser's form (and Uppy's XHR): %22 for a quote, a backslash raw, even at the end", async () => {
    const spelled = ['say %22cheese%22.jpg', 'trailing\\', 'a\\b.txt', ...NAMES];
    const res = await post(body(spelled.map((n, i) => `form-data; name="file_${i}"; filename="${n}"`)), { 'Sec-Fetch-Mode': 'cors', 'User-Agent': 'Mozilla/5.0' });
    expect(uploadNames(res.body)).toEqual(['say "cheese".jpg', 'trailing\\', 'a\\b.txt', ...NAMES]);
  });

  it("curl's spellings: -F (percent) and --form-escape (backslash pairs)", async () => {
    const res = await post(body([`form-data; name="a"; filename="it's mine.txt"`, `form-data; name="b"; filename="say \\"hi\\" \\\\ bye.txt"`, `form-data; name="c"; filename="say %22hi%22.txt"`]), { 'User-Agent': 'curl/8.5.0' });
    expect(uploadNames(res.body)).toEqual(["it's mine.txt", 'say "hi" \\ bye.txt', 'say "hi".txt']);
  });

  it("form-data 4 (the vendor SDK's multipart writer) and Node's fetch without Sec-Fetch-Mode: %22 %0A are a quote and a line feed", async () => {
    const res = await post(body([`form-data; name="a"; filename="say %22cheese%22.jpg"`, `form-data; name="b"; filename="two%0Alines.txt"`]));
    expect(uploadNames(res.body)).toEqual(['say "cheese".jpg', 'two\nlines.txt']);
  });

  it('keeps the name byte for byte: NFC and NFD are two names', async () => {
    const res = await post(body(['form-data; name="a"; filename="caf\u00e9.txt"', 'form-data; name="b"; filename="cafe\u0301.txt"']));
    const names = uploadNames(res.body);
    expect(names.map((n) => Buffer.from(n).toString('hex'))).toEqual([Buffer.from('caf\u00e9.txt').toString('hex'), Buffer.from('cafe\u0301.txt').toString('hex')]);
  });
});

describe('a file part that cannot be read', () => {
  it('refuses the request with 400 INVALID_FORM_DATA naming the part, and creates no Assembly', async () => {
    const count = async () => ((await signedCall(fx.service, 'GET', '/assemblies', { pagesize: 50, type: 'all' })).body.count as number);
    const before = await count();
    const res = await post(body(['form-data; name="file_0"; filename="fine.txt"', "form-data; name=\"file_1\"; filename*=x-unknown-charset''%E9t%E9.txt"]));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'INVALID_FORM_DATA', message: expect.stringContaining('Part 4 of the multipart body cannot be read: its filename* cannot be decoded') });
    const noDisposition = await post(Buffer.from(body(['form-data; name="file_0"; filename="fine.txt"']).toString('latin1').replace('Content-Disposition: form-data; name="file_0"; filename="fine.txt"\r\n', ''), 'latin1'));
    expect(noDisposition.status).toBe(400);
    expect(noDisposition.body).toMatchObject({ error: 'INVALID_FORM_DATA', message: expect.stringContaining('it has no Content-Disposition header') });
    expect(before).toBeGreaterThan(0);
    expect(await count()).toBe(before);
  });
});
