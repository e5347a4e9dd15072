// POST /token and Bearer requests over real HTTP (spec "Bearer tokens", service-facts §11).
import { Transloadit } from '@transloadit/node';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg, startFixture, tempDir, type Fixture } from '../testing/service-fixture';
import { signParams } from './signature';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.stop());

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

async function mint(fields: Record<string, string>, auth = basic(fx.service.authKey, fx.service.authSecret)) {
  const res = await fetch(`${fx.service.url}/token`, { method: 'POST', headers: { Authorization: auth }, body: new URLSearchParams(fields) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

async function withBearer(token: string, method: string, path: string, params: Record<string, unknown> = {}) {
  const url = new URL(path, fx.service.url);
  const json = JSON.stringify(params);
  let body: URLSearchParams | undefined;
  if (method === 'GET') url.searchParams.set('params', json);
  else body = new URLSearchParams({ params: json });
  const res = await fetch(url, { method, body, headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function signed(method: string, path: string, extra: Record<string, unknown>) {
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: new Date(Date.now() + 60_000).toISOString() }, ...extra });
  const res = await fetch(new URL(path, fx.service.url), { method, body: new URLSearchParams({ params, signature: signParams(params, fx.service.authSecret) }) });
  return (await res.json()) as Record<string, unknown>;
}

describe('POST /token', () => {
  it('mints a six-hour token with all the key scopes, or the narrower ones asked for', async () => {
    const all = await mint({ grant_type: 'client_credentials' });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ token_type: 'Bearer', expires_in: 21600, access_token: expect.stringMatching(/^[\w-]{40,}$/) });
    expect(String(all.body.scope).split(' ')).toContain('templates:write');
    expect(all.headers.get('cache-control')).toBe('no-store');

    const narrow = await mint({ grant_type: 'client_credentials', scope: 'templates:read, assemblies:write templates:read', aud: 'api2' });
    expect(narrow.body.scope).toBe('templates:read assemblies:write');
  });

  it('refuses bad credentials, other grants, unknown scopes and scopes wider than the key', async () => {
    const wrong = await mint({ grant_type: 'client_credentials' }, basic(fx.service.authKey, 'nope'));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('TOKEN_INVALID_CREDENTIALS');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await mint({ grant_type: 'password' })).body.error).toBe('TOKEN_UNSUPPORTED_GRANT_TYPE');
    expect((await mint({ grant_type: 'client_credentials', scope: 'everything' })).body.error).toBe('TOKEN_INVALID_SCOPE');

    const created = await signed('POST', '/auth_keys', { scope: 'templates:read' });
    const narrowKey = created.auth_key as { auth_key: string };
    const wider = await mint({ grant_type: 'client_credentials', scope: 'templates:write' }, basic(narrowKey.auth_key, String(created.auth_secret)));
    expect(wider.status).toBe(403);
    expect(wider.body.error).toBe('INSUFFICIENT_AUTH_SCOPE');
    // A token cannot mint tokens.
    const token = String((await mint({ grant_type: 'client_credentials' })).body.access_token);
    expect((await mint({ grant_type: 'client_credentials' }, `Bearer ${token}`)).body.error).toBe('TOKEN_INVALID_CREDENTIALS');
  });
});

describe('Bearer requests', () => {
  it('skip the signature, keep the params envelope, and still check scopes', async () => {
    const token = String((await mint({ grant_type: 'client_credentials', scope: 'templates:read' })).body.access_token);
    const list = await withBearer(token, 'GET', '/templates', {});
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body).toHaveProperty('items');
    const write = await withBearer(token, 'POST', '/templates', { name: 'x', template: '{}' });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('INSUFFICIENT_AUTH_SCOPE');
    const mismatch = await withBearer(token, 'GET', '/templates', { auth: { key: 'someone-else' } });
    expect(mismatch.body.error).toBe('BEARER_TOKEN_AUTH_KEY_MISMATCH');
    expect((await withBearer('not-a-token', 'GET', '/templates')).body.error).toBe('BEARER_TOKEN_INVALID');
    // Without params where they are expected, the envelope error still comes.
    const res = await fetch(`${fx.service.url}/templates`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await res.json()) as { error: string }).error).toBe('NO_PARAMS_FIELD');
  });

  it('refuse a nonce that is not a string or an integer, as signed requests do', async () => {
    const token = String((await mint({ grant_type: 'client_credentials', scope: 'templates:read' })).body.access_token);
    for (const params of [{ auth: { nonce: { a: 1 } } }, { nonce: [1, 2] }]) {
      const r = await withBearer(token, 'GET', '/templates', params);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'INVALID_AUTH_NONCE_PARAMETER', http_code: 400 });
    }
    expect((await withBearer(token, 'GET', '/templates', { nonce: 12 })).status).toBe(200);
  });

  it('are refused once the token expired, and while its key is inactive', async () => {
    const short = String((await mint({ grant_type: 'client_credentials', expires_in: '1' })).body.access_token);
    expect((await withBearer(short, 'GET', '/templates')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await withBearer(short, 'GET', '/templates')).body.error).toBe('BEARER_TOKEN_EXPIRED');

    const created = await signed('POST', '/auth_keys', {});
    const key = created.auth_key as { id: string; auth_key: string };
    const token = String((await mint({ grant_type: 'client_credentials' }, basic(key.auth_key, String(created.auth_secret)))).body.access_token);
    expect((await withBearer(token, 'GET', '/templates')).status).toBe(200);
    await signed('PUT', `/auth_keys/${key.id}`, { is_active: false });
    expect((await withBearer(token, 'GET', '/templates')).body.error).toBe('AUTH_KEY_INACTIVE');
  });

  it('work for the vendor SDK: it mints a token and uploads with it, no secret in the client', async () => {
    const minter = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    const minted = await minter.mintBearerToken({ scope: ['assemblies:write', 'templates:read'], aud: 'api2' });
    expect(minted.scope).toBe('assemblies:write templates:read');
    const client = new Transloadit({ authToken: minted.access_token, endpoint: fx.service.url });
    const dir = await tempDir('bearer-');
    const photo = join(dir, 'p.jpg');
    await writeFile(photo, await jpeg(200, 100));
    const status = await client.createAssembly({ files: { photo }, params: { steps: { ':original': { robot: '/upload/handle' } } }, waitForCompletion: true });
    expect(status.ok).toBe('ASSEMBLY_COMPLETED');
    expect((await client.listTemplates()).count).toBeGreaterThanOrEqual(0);
  });
});

describe('POST /token client_credentials and resource', () => {
  it('mints for a resource that names this service and refuses a foreign one (TOKEN_INVALID_TARGET)', async () => {
    const api = await mint({ grant_type: 'client_credentials', resource: fx.service.url });
    expect(api.status).toBe(200);
    const mcp = await mint({ grant_type: 'client_credentials', resource: `${fx.service.url}/mcp` });
    expect(mcp.status).toBe(200);
    for (const resource of ['https://evil.example/', 'https://api2.transloadit.com', `${fx.service.url.replace(/:\d+$/, ':1')}/`, 'not a url', `${fx.service.url}/#frag`]) {
      const foreign = await mint({ grant_type: 'client_credentials', resource });
      expect([foreign.status, foreign.body.error], resource).toEqual([400, 'TOKEN_INVALID_TARGET']);
    }
    const clash = await mint({ grant_type: 'client_credentials', resource: `${fx.service.url}/mcp`, aud: 'api2' });
    expect([clash.status, clash.body.error]).toEqual([400, 'TOKEN_INVALID_TARGET']);
  });
});
