import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, retryDelayMs } from './api-client';
import { signParams } from './sign-params';

// A tiny real HTTP server standing in for the service's rate limiter and error answers. It parses the
// multipart body with the platform's own Request, so signatures are checked against what was really sent.
type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void;
let server: Server;
let base = '';
let handler: Handler = (_req, _body, res) => res.end('{}');
const hits: Array<{ method: string; url: string; at: number; form: Record<string, string> }> = [];

async function readForm(req: IncomingMessage, body: Buffer): Promise<Record<string, string>> {
  const type = req.headers['content-type'];
  if (!type) return {};
  const form = await new Request('http://x/', { method: 'POST', body, headers: { 'content-type': type } }).formData();
  const out: Record<string, string> = {};
  form.forEach((value, key) => {
    out[key] = typeof value === 'string' ? value : `<file ${value.name} ${value.size}>`;
  });
  return out;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      void readForm(req, body).then((form) => {
        hits.push({ method: req.method ?? '', url: req.url ?? '', at: Date.now(), form });
        res.setHeader('content-type', 'application/json');
        handler(req, body, res);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const client = (extra: Partial<Parameters<typeof createApiClient>[0]> = {}) =>
  createApiClient({ endpoint: `${base}/`, authKey: 'key1', getSecret: async () => 'secret1', ...extra });

describe('createApiClient against a real HTTP server', () => {
  it('creates an Assembly with a signed multipart form and the expected-uploads field', async () => {
    hits.length = 0;
    handler = (_req, _body, res) => res.end(JSON.stringify({ ok: 'ASSEMBLY_UPLOADING', assembly_id: 'abc', tus_url: `${base}/resumable/files/` }));
    const result = await client().createAssembly({
      instructions: { steps: { ':original': { robot: '/upload/handle' } } },
      expectedUploads: 3,
    });
    expect(result).toMatchObject({ ok: true, value: { ok: 'ASSEMBLY_UPLOADING', assembly_id: 'abc' } });
    const hit = hits[0]!;
    expect(hit.method).toBe('POST');
    expect(hit.url).toBe('/assemblies');
    expect(hit.form.tus_num_expected_upload_files).toBe('3');
    const params = JSON.parse(hit.form.params!);
    expect(params.auth.key).toBe('key1');
    expect(Date.parse(params.auth.expires)).toBeGreaterThan(Date.now());
    expect(params.steps[':original'].robot).toBe('/upload/handle');
    // The app asks for execution progress on every Assembly it creates (the Assembly view shows it live).
    expect(params.emit_execution_progress).toBe(true);
    expect(hit.form.signature).toBe(signParams(hit.form.params!, 'secret1'));
  });

  it('sends no signature when the workspace has no secret', async () => {
    hits.length = 0;
    handler = (_req, _body, res) => res.end(JSON.stringify({ ok: 'ASSEMBLY_EXECUTING' }));
    await client({ getSecret: async () => null }).createAssembly({ instructions: { template_id: 't1' }, expectedUploads: 0 });
    expect(hits[0]!.form.signature).toBeUndefined();
    expect(JSON.parse(hits[0]!.form.params!).template_id).toBe('t1');
    // A Template run asks for it too, unless the instructions say no.
    expect(JSON.parse(hits[0]!.form.params!).emit_execution_progress).toBe(true);
    await client({ getSecret: async () => null }).createAssembly({ instructions: { template_id: 't1', emit_execution_progress: false }, expectedUploads: 0 });
    expect(JSON.parse(hits[1]!.form.params!).emit_execution_progress).toBe(false);
  });

  it('retries 413 RATE_LIMIT_REACHED after info.retryIn, twice, then succeeds with a fresh signature', async () => {
    hits.length = 0;
    let calls = 0;
    handler = (_req, _body, res) => {
      calls++;
      if (calls <= 2) {
        res.statusCode = 413;
        res.end(JSON.stringify({ error: 'RATE_LIMIT_REACHED', message: 'Request limit reached', info: { retryIn: 0.2 } }));
      } else res.end(JSON.stringify({ ok: 'ASSEMBLY_UPLOADING', assembly_id: 'x' }));
    };
    const started = Date.now();
    const result = await client().createAssembly({ instructions: { steps: { a: { robot: '/upload/handle' } } }, expectedUploads: 1 });
    expect(result.ok).toBe(true);
    expect(hits).toHaveLength(3);
    expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(190);
    expect(hits[2]!.at - hits[1]!.at).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(new Set(hits.map((h) => h.form.signature)).size).toBe(3);
  });

  it('retries 429 using Retry-After and gives up after 5 retries with the service code', async () => {
    hits.length = 0;
    handler = (_req, _body, res) => {
      res.statusCode = 429;
      res.setHeader('retry-after', '0');
      res.end(JSON.stringify({ error: 'ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED', message: 'Slow down' }));
    };
    const result = await client().getAssembly(`${base}/assemblies/abc`);
    expect(hits).toHaveLength(6);
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED', message: 'Slow down', httpCode: 429 }),
    });
  });

  it('does not retry a 413 that is not a rate limit', async () => {
    hits.length = 0;
    handler = (_req, _body, res) => {
      res.statusCode = 413;
      res.end(JSON.stringify({ error: 'MAX_SIZE_EXCEEDED', message: 'Too big' }));
    };
    const result = await client().createAssembly({ instructions: { steps: { a: { robot: '/upload/handle' } } }, expectedUploads: 1 });
    expect(hits).toHaveLength(1);
    expect(result.ok || result.error.code).toBe('MAX_SIZE_EXCEEDED');
  });

  it('turns HTTP 200 with an error key into an AppError with details kept', async () => {
    handler = (_req, _body, res) =>
      res.end(JSON.stringify({ error: 'ASSEMBLY_STEP_UNKNOWN_ROBOT', message: 'Unknown robot /nope', reason: 'r', assembly_id: 'a1' }));
    const result = await client().createAssembly({ instructions: { steps: { a: { robot: '/nope' } } }, expectedUploads: 0 });
    expect(result).toEqual({
      ok: false,
      error: { code: 'ASSEMBLY_STEP_UNKNOWN_ROBOT', message: 'Unknown robot /nope', httpCode: 200, details: { reason: 'r', assembly_id: 'a1' } },
    });
  });

  it("returns a failed Assembly's status record as a value from getAssembly", async () => {
    handler = (_req, _body, res) =>
      res.end(JSON.stringify({ ok: null, error: 'ASSEMBLY_CRASHED', message: 'It crashed', assembly_id: 'a2' }));
    const result = await client().getAssembly(`${base}/assemblies/a2`);
    expect(result).toEqual({ ok: true, value: expect.objectContaining({ error: 'ASSEMBLY_CRASHED', assembly_id: 'a2' }) });
  });

  it('reports a non-JSON error page with its HTTP status', async () => {
    handler = (_req, _body, res) => {
      res.statusCode = 502;
      res.setHeader('content-type', 'text/html');
      res.end('<h1>Bad gateway</h1>');
    };
    const result = await client().getAssembly(`${base}/assemblies/x`);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('SERVER_502');
      expect(result.error.message).toContain('Bad gateway');
    }
  });

  it('cancels with a signed DELETE to the Assembly URL', async () => {
    hits.length = 0;
    handler = (_req, _body, res) => res.end(JSON.stringify({ ok: 'ASSEMBLY_CANCELED', assembly_id: 'z' }));
    const result = await client().cancelAssembly(`${base}/assemblies/z`);
    expect(result).toMatchObject({ ok: true, value: { ok: 'ASSEMBLY_CANCELED' } });
    expect(hits[0]).toMatchObject({ method: 'DELETE', url: '/assemblies/z' });
    expect(hits[0]!.form.signature).toBe(signParams(hits[0]!.form.params!, 'secret1'));
  });

  it('signs generic GET requests in the query string', async () => {
    hits.length = 0;
    handler = (_req, _body, res) => res.end(JSON.stringify({ items: [], count: 0 }));
    const result = await client().request('GET', '/templates', { page: 2 });
    expect(result).toEqual({ ok: true, value: { items: [], count: 0 } });
    const url = new URL(hits[0]!.url, base);
    expect(url.pathname).toBe('/templates');
    const params = url.searchParams.get('params')!;
    expect(JSON.parse(params).page).toBe(2);
    expect(url.searchParams.get('signature')).toBe(signParams(params, 'secret1'));
  });

  it('reports an unreachable service as NETWORK_ERROR with a readable message', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await createApiClient({ endpoint: `http://127.0.0.1:${port}`, authKey: 'k', getSecret: async () => null }).getAssembly(
      `http://127.0.0.1:${port}/assemblies/a`,
    );
    expect(result).toEqual({
      ok: false,
      error: { code: 'NETWORK_ERROR', message: expect.stringContaining(`Could not reach the service at http://127.0.0.1:${port}`) },
    });
  });
});

describe('retryDelayMs', () => {
  it('prefers info.retryIn, then Retry-After, then 1 s, with up to 10% jitter', () => {
    expect(retryDelayMs(413, null, { error: 'RATE_LIMIT_REACHED', info: { retryIn: 3 } }, () => 0.5)).toBe(3150);
    expect(retryDelayMs(429, '2', {}, () => 0)).toBe(2000);
    expect(retryDelayMs(429, null, null, () => 1)).toBe(1100);
    expect(retryDelayMs(413, null, { error: 'MAX_SIZE_EXCEEDED' }, () => 0)).toBeNull();
    expect(retryDelayMs(500, null, {}, () => 0)).toBeNull();
  });
});

describe('parseStatus', () => {
  it('drops fields of an unexpected type instead of failing the whole status', async () => {
    const { parseStatus } = await import('./api-client');
    const result = parseStatus({
      ok: 'ASSEMBLY_EXECUTING',
      assembly_id: 'a',
      upload_duration: null,
      uploads: [{ id: 'u1', size: 'big' }, { id: 'u2', size: 3 }],
      custom_field: { kept: true },
      warnings: ['bad', { level: 'notice', msg: 'ok' }, 7],
    });
    expect(result).toEqual({
      ok: true,
      value: {
        ok: 'ASSEMBLY_EXECUTING',
        assembly_id: 'a',
        uploads: [{ id: 'u1' }, { id: 'u2', size: 3 }],
        custom_field: { kept: true },
        warnings: [{ level: 'notice', msg: 'ok' }],
      },
    });
  });
});
