// Auth-matrix probes: every authenticated endpoint of service/http/routes.ts (and its routers), hit with no
// auth, a forged signature, an expired one, an unknown key, a missing signature, and Bearer tokens that are
// junk or lack the endpoint's scope. Each answer must be the right 4xx code, and nothing may change: the
// Templates, credentials, keys and Assemblies a probe aimed at are still there, unchanged, afterwards.
// A last test reads routes.ts and fails when a path appears that no probe (or the public list) covers.
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { cdnStringToSign, parseCdnUrl } from '../cdn/verify-cdn-url';
import { jpeg, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';

let fx: Fixture;
const ids = { template: '', credential: '', authKey: '', assembly: '', cdnKey: '', cdnSecret: '' };

const future = (): string => new Date(Date.now() + 3600_000).toISOString();
const past = (): string => new Date(Date.now() - 60_000).toISOString();

interface Probe {
  method: string;
  path: () => string;
  /** Extra params a real call carries (so that a probe that got through would have done something). */
  params?: () => Record<string, unknown>;
}

/** Every endpoint that takes `params` + `signature` (or a Bearer token). */
const AUTHENTICATED: Probe[] = [
  { method: 'POST', path: () => '/assemblies', params: () => ({ steps: { ':original': { robot: '/upload/handle' } } }) },
  { method: 'GET', path: () => '/assemblies' },
  { method: 'POST', path: () => `/assemblies/${'ab'.repeat(16)}`, params: () => ({ steps: { ':original': { robot: '/upload/handle' } } }) },
  { method: 'POST', path: () => `/assemblies/${'cd'.repeat(16)}/replay`, params: () => ({ steps: { ':original': { robot: '/upload/handle' } } }) },
  { method: 'POST', path: () => `/assembly_notifications/${'cd'.repeat(16)}/replay`, params: () => ({ notify_url: 'http://127.0.0.1:9/' }) },
  { method: 'GET', path: () => `/assembly_notifications/${'cd'.repeat(16)}` },
  { method: 'GET', path: () => '/templates' },
  { method: 'POST', path: () => '/templates', params: () => ({ name: 'probe-made', template: { steps: { ':original': { robot: '/upload/handle' } } } }) },
  { method: 'GET', path: () => `/templates/${ids.template}` },
  { method: 'PUT', path: () => `/templates/${ids.template}`, params: () => ({ name: 'probe-renamed' }) },
  { method: 'DELETE', path: () => `/templates/${ids.template}` },
  { method: 'GET', path: () => '/template_credentials' },
  { method: 'POST', path: () => '/template_credentials', params: () => ({ name: 'probe-cred', type: 'sftp', content: { host: 'h', user: 'u', password: 'p' } }) },
  { method: 'GET', path: () => '/template_credentials/types' },
  { method: 'GET', path: () => `/template_credentials/${ids.credential}` },
  { method: 'PUT', path: () => `/template_credentials/${ids.credential}`, params: () => ({ name: 'probe-cred-renamed' }) },
  { method: 'DELETE', path: () => `/template_credentials/${ids.credential}` },
  { method: 'GET', path: () => '/auth_keys' },
  { method: 'POST', path: () => '/auth_keys', params: () => ({ description: 'probe-made' }) },
  { method: 'GET', path: () => '/auth_keys/scopes' },
  { method: 'GET', path: () => `/auth_keys/${ids.authKey}` },
  { method: 'PUT', path: () => `/auth_keys/${ids.authKey}`, params: () => ({ is_active: false }) },
  { method: 'DELETE', path: () => `/auth_keys/${ids.authKey}` },
  { method: 'POST', path: () => `/auth_keys/${ids.authKey}/show_secret` },
  { method: 'PUT', path: () => '/oauth_clients/probe-client', params: () => ({ jwks: { keys: [] } }) },
  { method: 'GET', path: () => '/oauth_clients/probe-client' },
  { method: 'DELETE', path: () => '/oauth_clients/probe-client' },
  { method: 'GET', path: () => '/bill/2026-11' },
  { method: 'GET', path: () => '/assembly_stats', params: () => ({ since: Math.floor(Date.now() / 1000) - 3600, region: 'all' }) },
  { method: 'GET', path: () => '/queues/job_slots' },
  { method: 'GET', path: () => '/priority_job_slot_stats', params: () => ({ since: Math.floor(Date.now() / 1000) - 3600, region: 'all', aggregation: 'max' }) },
  { method: 'GET', path: () => '/dam/assets' },
  { method: 'POST', path: () => '/dam/assets/bulk_delete', params: () => ({ asset_ids: ['A'.repeat(21) + 'A'] }) },
];

/** Paths that are public on purpose (docs/local-service.md), each probed below for what it must refuse. */
const PUBLIC_PATHS = ['/', '/token', '/.well-known/oauth-authorization-server', '/authorize', '/file/', '/resumable/files'];

/** Sends params (query for GET, urlencoded body otherwise) with optional signature and headers. */
async function send(p: Probe, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(p.path(), fx.service.url);
  const init: RequestInit = { method: p.method, headers };
  if (p.method === 'GET') for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  else init.body = new URLSearchParams(fields);
  const res = await fetch(url, init);
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { unparsable: text.slice(0, 200) };
  }
  return { status: res.status, body };
}

const raw = (p: Probe, auth: Record<string, unknown>): string => JSON.stringify({ auth, ...(p.params?.() ?? {}) });

/** A correctly signed request, for setup and for reading state back. */
async function signedCall(method: string, path: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: future() }, ...extra });
  return (await send({ method, path: () => path }, { params, signature: signParams(params, fx.service.authSecret) })).body;
}

async function mint(scope: string): Promise<string> {
  const res = await fetch(`${fx.service.url}/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${fx.service.authKey}:${fx.service.authSecret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
  });
  const body = (await res.json()) as { access_token?: string };
  expect(body.access_token, `minting a ${scope} token`).toBeTruthy();
  return body.access_token!;
}

/** What the probes must not be able to change. */
async function accountState(): Promise<string> {
  const templates = (await signedCall('GET', '/templates')).items as { id: string; name: string }[];
  const credentials = (await signedCall('GET', '/template_credentials')).credentials as { id: string; name: string }[];
  const keys = (await signedCall('GET', '/auth_keys')).auth_keys as { id: string; is_active: boolean; description: string }[];
  const assemblies = (await signedCall('GET', '/assemblies')).count;
  return JSON.stringify({ templates: templates.map((t) => [t.id, t.name]), credentials: credentials.map((c) => [c.id, c.name]), keys: keys.map((k) => [k.id, k.is_active, k.description]), assemblies });
}

beforeAll(async () => {
  fx = await startFixture({ requireSignature: true });
  const t = await signedCall('POST', '/templates', { name: 'target', template: { steps: { ':original': { robot: '/upload/handle' } } } });
  ids.template = String(t.id);
  const c = await signedCall('POST', '/template_credentials', { name: 'target-cred', type: 'sftp', content: { host: 'h', user: 'u', password: 'p' } });
  ids.credential = String((c.credential as { id: string }).id);
  const k = await signedCall('POST', '/auth_keys', { description: 'target-key', is_allowed_for_smartcdn: true });
  ids.authKey = String((k.auth_key as { id: string }).id);
  ids.cdnKey = String((k.auth_key as { auth_key: string }).auth_key);
  ids.cdnSecret = String(k.auth_secret);
  // One finished Assembly with a stored file, for the file and CDN routes.
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: future() }, steps: { ':original': { robot: '/upload/handle' } } });
  const form = new FormData();
  form.set('params', params);
  form.set('signature', signParams(params, fx.service.authSecret));
  form.append('file', new Blob([new Uint8Array(await jpeg(16, 16))]), 'target.jpg');
  const created = (await (await fetch(`${fx.service.url}/assemblies`, { method: 'POST', body: form })).json()) as Record<string, unknown>;
  ids.assembly = String(created.assembly_id);
  expect((await waitForEnd(String(created.assembly_ssl_url))).ok).toBe('ASSEMBLY_COMPLETED');
});
afterAll(() => fx.stop());

describe('auth probes on every authenticated endpoint', () => {
  let before = '';
  beforeAll(async () => {
    before = await accountState();
  });

  const variants: { name: string; status: number; code: string; fields: (p: Probe) => Record<string, string> | Promise<Record<string, string>>; headers?: (p: Probe) => Promise<Record<string, string>> }[] = [
    { name: 'no params at all', status: 400, code: 'NO_PARAMS_FIELD', fields: () => ({}) },
    { name: 'params without a signature (the account requires one)', status: 401, code: 'NO_SIGNATURE_FIELD', fields: (p) => ({ params: raw(p, { key: fx.service.authKey, expires: future() }) }) },
    {
      name: 'a forged signature (signed with another secret)',
      status: 401,
      code: 'INVALID_SIGNATURE',
      fields: (p) => {
        const r = raw(p, { key: fx.service.authKey, expires: future() });
        return { params: r, signature: signParams(r, 'not-the-secret') };
      },
    },
    {
      name: 'a signature over other params (tampered after signing)',
      status: 401,
      code: 'INVALID_SIGNATURE',
      fields: (p) => {
        const r = raw(p, { key: fx.service.authKey, expires: future() });
        return { params: `${r} `, signature: signParams(r, fx.service.authSecret) };
      },
    },
    {
      name: 'an expired signature',
      status: 401,
      code: 'AUTH_EXPIRED',
      fields: (p) => {
        const r = raw(p, { key: fx.service.authKey, expires: past() });
        return { params: r, signature: signParams(r, fx.service.authSecret) };
      },
    },
    {
      name: 'an unknown key',
      status: 401,
      code: 'GET_ACCOUNT_UNKNOWN_AUTH_KEY',
      fields: (p) => {
        const r = raw(p, { key: 'f'.repeat(32), expires: future() });
        return { params: r, signature: signParams(r, fx.service.authSecret) };
      },
    },
    { name: 'a junk Bearer token', status: 401, code: 'BEARER_TOKEN_INVALID', fields: (p) => ({ params: raw(p, {}) }), headers: async () => ({ Authorization: 'Bearer not-a-token-at-all-0123456789' }) },
    {
      name: 'a Bearer token without the endpoint\u2019s scope',
      status: 403,
      code: 'INSUFFICIENT_AUTH_SCOPE',
      fields: (p) => ({ params: raw(p, {}) }),
      // A scope the endpoint does not take: queues:read, except on the queue's own endpoints.
      headers: async (p) => ({ Authorization: `Bearer ${await mint(/^\/(queues|priority_job_slot_stats)/.test(p.path()) ? 'billing:read' : 'queues:read')}` }),
    },
  ];

  for (const v of variants) {
    it(`refuses ${v.name} on every endpoint with ${v.status} ${v.code}`, async () => {
      const wrong: string[] = [];
      for (const p of AUTHENTICATED) {
        const headers = (await v.headers?.(p)) ?? {};
        const answer = await send(p, await v.fields(p), headers);
        if (answer.status !== v.status || answer.body.error !== v.code) wrong.push(`${p.method} ${p.path()}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it('a Bearer token scoped to reading cannot write: every write endpoint says INSUFFICIENT_AUTH_SCOPE', async () => {
    const read = await mint('assemblies:read templates:read template_credentials:read auth_keys:read');
    const wrong: string[] = [];
    for (const p of AUTHENTICATED.filter((p) => p.method !== 'GET')) {
      const answer = await send(p, { params: raw(p, {}) }, { Authorization: `Bearer ${read}` });
      if (answer.status !== 403 || answer.body.error !== 'INSUFFICIENT_AUTH_SCOPE') wrong.push(`${p.method} ${p.path()}: ${answer.status} ${String(answer.body.error)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('none of the probes changed anything: Templates, credentials, keys and Assemblies are as before', async () => {
    expect(await accountState()).toBe(before);
  });
});

describe('probes on the public paths', () => {
  const cdnUrl = (o: { key?: string; secret?: string; expMs?: number; sig?: 'good' | 'forged' | 'none' }): string => {
    const q = new URLSearchParams();
    if (o.key) q.set('auth_key', o.key);
    if (o.expMs !== undefined) q.set('exp', String(o.expMs));
    const path = `/file/local/target/${ids.assembly}%2Ftarget.jpg`;
    const parsed = parseCdnUrl(path, `?${q.toString()}`)!;
    const sig = createHmac('sha256', o.secret ?? ids.cdnSecret).update(cdnStringToSign(parsed)).digest('hex');
    if (o.sig === 'good') q.set('sig', `sha256:${sig}`);
    if (o.sig === 'forged') q.set('sig', `sha256:${createHmac('sha256', 'forged').update(cdnStringToSign(parsed)).digest('hex')}`);
    return `${fx.service.url}${path}?${q.toString()}`;
  };

  it('content-delivery URLs: unsigned, forged, expired and unknown-key URLs are refused with their codes; a good one serves', async () => {
    const code = async (url: string): Promise<[number, unknown]> => {
      const res = await fetch(url);
      const text = await res.text();
      return [res.status, res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as { error: string }).error : 'body'];
    };
    expect(await code(cdnUrl({ key: ids.cdnKey, expMs: Date.now() + 60_000, sig: 'none' }))).toEqual([403, 'CDN_SIGNATURE_MISSING']);
    expect(await code(cdnUrl({ key: ids.cdnKey, expMs: Date.now() + 60_000, sig: 'forged' }))).toEqual([403, 'CDN_SIGNATURE_INVALID']);
    expect(await code(cdnUrl({ key: ids.cdnKey, expMs: Date.now() - 1000, sig: 'good' }))).toEqual([403, 'CDN_SIGNATURE_EXPIRED']);
    expect(await code(cdnUrl({ key: 'e'.repeat(32), expMs: Date.now() + 60_000, sig: 'good' }))).toEqual([403, 'CDN_AUTH_KEY_UNKNOWN']);
    expect(await code(cdnUrl({ key: ids.cdnKey, expMs: Date.now() + 60_000, sig: 'good' }))).toEqual([200, 'body']);
  });

  it('POST /token refuses a missing or wrong client secret with TOKEN_INVALID_CREDENTIALS and mints nothing', async () => {
    const none = await fetch(`${fx.service.url}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials' }) });
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: string }).error).toBe('TOKEN_INVALID_CREDENTIALS');
    const wrong = await fetch(`${fx.service.url}/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${fx.service.authKey}:wrong`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(wrong.status).toBe(401);
    const body = (await wrong.json()) as { error: string; access_token?: string };
    expect(body.error).toBe('TOKEN_INVALID_CREDENTIALS');
    expect(body.access_token).toBeUndefined();
  });

  it('status, file and tus routes answer only for ids that exist (unguessable 32-hex ids), with their codes', async () => {
    const other = 'c'.repeat(32);
    const status = await fetch(`${fx.service.url}/assemblies/${other}`);
    expect([status.status, ((await status.json()) as { error: string }).error]).toEqual([404, 'ASSEMBLY_NOT_FOUND']);
    const file = await fetch(`${fx.service.url}/uploads/${other}/${other}`);
    expect([file.status, ((await file.json()) as { error: string }).error]).toEqual([404, 'FILE_NOT_FOUND']);
    const tus = await fetch(`${fx.service.url}/resumable/files/`, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '3', 'Upload-Metadata': `assembly_url ${Buffer.from(`${fx.service.url}/assemblies/${other}`).toString('base64')}` },
    });
    expect(tus.status).toBe(404);
    expect(((await tus.json()) as { error: string }).error).toMatch(/^[A-Z_]+$/);
  });

  it('every path routes.ts serves is either probed above or on the public list', async () => {
    const source = await readFile(new URL('../http/routes.ts', import.meta.url), 'utf8');
    const literals = [...source.matchAll(/path ?(?:===|\.startsWith\() ?'([^']+)'/g)].map((m) => m[1]!);
    expect(literals.length).toBeGreaterThan(5);
    const probed = new Set(AUTHENTICATED.map((p) => `/${p.path().split('/')[1]}`));
    const unclassified = literals.filter((l) => !PUBLIC_PATHS.includes(l) && !probed.has(`/${l.split('/')[1]}`));
    expect(unclassified).toEqual([]);
  });
});
