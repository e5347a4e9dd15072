// Finding 4 of issue 10 over real HTTP: no file byte of an unauthenticated request reaches the disk, an
// unauthenticated body costs at most BODY_LIMITS, and a connection that stops moving is cut.
import { randomUUID } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, request, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { getJson, inOneHourIso, startFixture, type Fixture } from '../testing/service-fixture';
import { sendJson } from './api-error';
import { BODY_LIMITS } from './body-limits';
import { readFormFields } from './form-fields';

const BOUNDARY = 'xxLIMITSxx';
const newId = (): string => randomUUID().replace(/-/g, '');
/** Bytes that appear in no file the service writes on its own: found on disk = an upload was stored. */
const MARKER = Buffer.from('UNAUTHENTICATED-UPLOAD-MARKER-');

const fieldPart = (name: string, value: string): string => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (name: string): string =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const END = `\r\n--${BOUNDARY}--\r\n`;
const payload = (bytes: number): Buffer => Buffer.alloc(bytes, MARKER);
/** What accepted uploads carry (no marker). */
const plain = (bytes: number): Buffer => Buffer.alloc(bytes, 'accepted ');

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

function readAnswer(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
    res.on('error', reject);
  });
}

/** Opens a multipart POST whose body the test writes itself; `answer` settles with the response. */
function openPost(url: string, headers: Record<string, string> = {}): { req: ClientRequest; answer: Promise<Answer> } {
  const req = request(url, { method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers } });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => void readAnswer(res).then(resolve, reject));
    req.on('error', reject);
  });
  return { req, answer };
}

/** Sends a whole multipart body at once (chunked), returning the answer. */
async function post(url: string, body: (string | Buffer)[]): Promise<Answer> {
  const { req, answer } = openPost(url);
  req.on('error', () => undefined); // a refused body may be cut after the answer
  for (const chunk of body) req.write(chunk);
  req.end();
  return answer;
}

/** Every file under `dir` (recursively), with its size. */
async function filesUnder(dir: string): Promise<{ path: string; size: number }[]> {
  const out: { path: string; size: number }[] = [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    out.push({ path, size: (await stat(path)).size });
  }
  return out;
}

/** Files anywhere in the data dir that hold bytes of a refused upload (the marker). */
async function storedUploads(dataDir: string): Promise<string[]> {
  const hits: string[] = [];
  for (const f of await filesUnder(dataDir)) {
    if (f.size > 0 && f.size < 64 * 1024 * 1024 && (await readFile(f.path)).includes(MARKER)) hits.push(f.path);
  }
  return hits;
}

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('multipart bodies are authenticated before any file part is stored', () => {
  let fx: Fixture;
  let signed: (extra?: Record<string, unknown>, secret?: string) => { params: string; signature: string };
  const steps = { ':original': { robot: '/upload/handle' } };
  // A small file-part cap: the default (BODY_LIMITS.files, 10,000) took 20–40 s of writes to reach.
  const maxFileParts = 200;
  beforeAll(async () => {
    fx = await startFixture({ requireSignature: true, maxFileParts });
    signed = (extra = {}, secret = fx.service.authSecret) => {
      const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: inOneHourIso() }, steps, ...extra });
      return { params, signature: signParams(params, secret, 'sha384') };
    };
  });
  afterAll(() => fx.stop());

  it('refuses a file part that comes before params with 400 NO_PARAMS_FIELD and stores nothing', async () => {
    const id = newId();
    const { params, signature } = signed();
    // Correctly signed, but in the wrong order: the file would be on disk before anyone checked the signature.
    const answer = await post(`${fx.service.url}/assemblies/${id}`, [fileHead('early.bin'), payload(1024 * 1024), '\r\n', fieldPart('params', params), fieldPart('signature', signature), END]);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'NO_PARAMS_FIELD', http_code: 400 });
    expect(String(answer.body.message)).toMatch(/before any file part/);
    expect(await storedUploads(fx.dataDir)).toEqual([]);
    expect((await getJson(`${fx.service.url}/assemblies/${id}`)).status).toBe(404);
  });

  it('answers a forged signature while the file is still being sent, with nothing of it written', async () => {
    const { params } = signed();
    const { req, answer } = openPost(`${fx.service.url}/assemblies`);
    req.on('error', () => undefined);
    req.write(fieldPart('params', params) + fieldPart('signature', `sha384:${'0'.repeat(96)}`) + fileHead('forged.bin'));
    req.write(payload(512 * 1024));
    // The body is not finished: the answer must come anyway, and the bytes sent so far must not be stored.
    const early = await Promise.race([answer, wait(3000).then(() => null)]);
    const onDisk = await storedUploads(fx.dataDir);
    req.destroy();
    expect(early?.status).toBe(401);
    expect(early?.body.error).toBe('INVALID_SIGNATURE');
    expect(onDisk).toEqual([]);
  });

  it('refuses params or a signature that arrive after a file part (400 INVALID_FORM_DATA), leaving no folder', async () => {
    const id = newId();
    const { params } = signed();
    const unsignedFixture = await startFixture();
    try {
      // Unsigned is fine for this account, but a signature after the file could not have been checked first.
      const unsigned = JSON.stringify({ auth: { key: unsignedFixture.service.authKey }, steps });
      const answer = await post(`${unsignedFixture.service.url}/assemblies/${id}`, [fieldPart('params', unsigned), fileHead('a.bin'), payload(64 * 1024), '\r\n', fieldPart('signature', signParams(params, 'x', 'sha384')), END]);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('INVALID_FORM_DATA');
      expect(await storedUploads(unsignedFixture.dataDir)).toEqual([]);
    } finally {
      await unsignedFixture.stop();
    }
  });

  it('still takes params, fields, signature, then files (the SDK order) and stores the files', async () => {
    const { params, signature } = signed();
    const answer = await post(`${fx.service.url}/assemblies`, [fieldPart('params', params), fieldPart('project', 'p1'), fieldPart('signature', signature), fileHead('ok.bin'), plain(200 * 1024), END]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.fields).toEqual({ project: 'p1' });
    expect(answer.body.uploads).toEqual([expect.objectContaining({ name: 'ok.bin', size: 200 * 1024 })]);
  });

  it('refuses an unauthenticated body past its byte cap with 413 INVALID_FORM_DATA and stays up', async () => {
    const chunk = 'a'.repeat(512 * 1024);
    const fields = Array.from({ length: Math.ceil((BODY_LIMITS.unauthenticatedBytes * 1.5) / chunk.length) }, (_, i) => fieldPart(`f${i}`, chunk));
    const answer = await post(`${fx.service.url}/assemblies`, [...fields, END]);
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: 'INVALID_FORM_DATA', limit: 'unauthenticatedBytes', http_code: 413 });
    expect((await getJson(`${fx.service.url}/`)).body.ok).toBe('SERVER_ROOT');
  });

  it('refuses a field over its size cap and too many fields with 413 INVALID_FORM_DATA', async () => {
    const big = await post(`${fx.service.url}/assemblies`, [fieldPart('params', `"${'x'.repeat(BODY_LIMITS.fieldBytes + 10)}"`), END]);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: 'INVALID_FORM_DATA', limit: 'fieldBytes' });
    const many = await post(`${fx.service.url}/assemblies`, [...Array.from({ length: BODY_LIMITS.fields + 1 }, (_, i) => fieldPart(`f${i}`, 'v')), END]);
    expect(many.status).toBe(413);
    expect(many.body).toMatchObject({ error: 'INVALID_FORM_DATA', limit: 'fields' });
  });

  it('refuses an authenticated body with more file parts than the cap (413), removing what it wrote', async () => {
    const id = newId();
    const { params, signature } = signed();
    const parts = Array.from({ length: maxFileParts + 1 }, (_, i) => `${fileHead(`f${i}.bin`)}${MARKER.toString()}\r\n`);
    const answer = await post(`${fx.service.url}/assemblies/${id}`, [fieldPart('params', params), fieldPart('signature', signature), ...parts, `--${BOUNDARY}--\r\n`]);
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: 'INVALID_FORM_DATA', limit: 'files' });
    expect(String(answer.body.message)).toContain(`more than ${maxFileParts} file parts`);
    expect(await storedUploads(fx.dataDir)).toEqual([]);
    // Exactly the cap is taken whole.
    const { params: again, signature: againSigned } = signed();
    const atCap = Array.from({ length: maxFileParts }, (_, i) => `${fileHead(`ok${i}.bin`)}accepted\r\n`);
    const taken = await post(`${fx.service.url}/assemblies`, [fieldPart('params', again), fieldPart('signature', againSigned), ...atCap, `--${BOUNDARY}--\r\n`]);
    expect(taken.status, JSON.stringify(taken.body).slice(0, 300)).toBe(200);
    expect(taken.body.uploads).toHaveLength(maxFileParts);
  });

  it('caps the bodies of the account endpoints (Templates, token) the same way', async () => {
    const body = `params=${'a'.repeat(BODY_LIMITS.unauthenticatedBytes + 1024)}`;
    const res = await fetch(`${fx.service.url}/templates`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(413);
    const answer = (await res.json()) as Record<string, unknown>;
    expect(answer.error).toBe('INVALID_FORM_DATA');
    expect(String(answer.message)).toMatch(/before its params could be authenticated/);
  });
});

describe('connection timeouts', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ timeouts: { headersMs: 600, idleMs: 400, keepAliveMs: 200, admitMs: 1000 } });
  });
  afterAll(() => fx.stop());

  /** Resolves with the ms until the server closed the socket, or null if it still was open after `maxMs`. */
  function closedWithin(socket: ReturnType<typeof connect>, maxMs: number): Promise<number | null> {
    const t0 = Date.now();
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), maxMs);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(Date.now() - t0);
      });
      socket.on('error', () => undefined);
      socket.on('data', () => undefined);
    });
  }

  it('cuts a body that stops sending after the idle timeout, and leaves nothing behind', async () => {
    const socket = connect(fx.service.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const head = fieldPart('params', JSON.stringify({ auth: { key: fx.service.authKey }, steps: { ':original': { robot: '/upload/handle' } } })) + fileHead('stalled.bin');
    socket.write(
      `POST /assemblies HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${head.length + 10_000_000}\r\n\r\n${head}`,
    );
    socket.write(payload(64 * 1024));
    const closedAfter = await closedWithin(socket, 4000);
    socket.destroy();
    expect(closedAfter).not.toBeNull();
    expect(closedAfter!).toBeLessThan(3000);
    // The cut request is recorded as REQUEST_ABORTED; its partial upload is removed just after.
    let leftovers: { path: string }[] = [];
    for (let i = 0; i < 20; i++) {
      leftovers = (await filesUnder(join(fx.dataDir, 'assemblies'))).filter((f) => f.path.includes('/uploads/'));
      if (leftovers.length === 0) break;
      await wait(100);
    }
    expect(leftovers).toEqual([]);
  });

  it('cuts a client that trickles its headers past the headers timeout', async () => {
    const socket = connect(fx.service.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const closed = closedWithin(socket, 5000);
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // One header byte every 150 ms keeps the idle timer happy; only the headers timeout can end this.
    const trickle = setInterval(() => socket.writable && socket.write('X'), 150);
    const closedAfter = await closed;
    clearInterval(trickle);
    socket.destroy();
    expect(closedAfter).not.toBeNull();
    expect(closedAfter!).toBeLessThan(4000);
  });

  it('answers 408 to a body that trickles its params too slowly to be authenticated in time', async () => {
    const { req, answer } = openPost(`${fx.service.url}/assemblies`);
    req.on('error', () => undefined);
    req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="params"\r\n\r\n{`);
    // A byte every 100 ms: never idle, but the params never end.
    const trickle = setInterval(() => req.write(' '), 100);
    const early = await Promise.race([answer, wait(4000).then(() => null)]);
    clearInterval(trickle);
    req.destroy();
    expect(early?.status).toBe(408);
    expect(early?.body).toMatchObject({ error: 'INVALID_FORM_DATA', limit: 'unauthenticatedMs' });
  });

  it('ends a field-only body (Templates, credentials, tokens) that is still trickling at its deadline with 408', async () => {
    // readFormFields behind a bare server, with a short deadline (the service uses BODY_LIMITS.unauthenticatedMs).
    const server = createServer((req, res) => {
      void readFormFields(req, 500).then((r) => sendJson(res, r.ok ? 200 : r.httpCode, r));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const req = request(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      const answer = new Promise<Answer>((resolve, reject) => {
        req.on('response', (res) => void readAnswer(res).then(resolve, reject));
      });
      req.on('error', () => undefined);
      req.write('params=');
      const trickle = setInterval(() => req.write('a'), 100);
      const early = await Promise.race([answer, wait(3000).then(() => null)]);
      clearInterval(trickle);
      req.destroy();
      expect(early?.status).toBe(408);
      expect(early?.body).toMatchObject({ ok: false, httpCode: 408 });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('lets a slow body through as long as bytes keep arriving (idle, not total, timeout)', async () => {
    const { req, answer } = openPost(`${fx.service.url}/assemblies`);
    req.write(fieldPart('params', JSON.stringify({ auth: { key: fx.service.authKey }, steps: { ':original': { robot: '/upload/handle' } } })) + fileHead('slow.bin'));
    // 2 s in all, five times the idle timeout, but a byte every 50 ms: never near 400 ms without one, even
    // when a loaded machine runs this loop's timers late.
    for (let i = 0; i < 40; i++) {
      req.write(plain(256));
      await wait(50);
    }
    req.end(END);
    const done = await answer;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.uploads).toEqual([expect.objectContaining({ name: 'slow.bin', size: 10 * 1024 })]);
  });
});
