// Auth Keys over real HTTP: records, defaults and limits of the spec, the active/inactive states,
// per-key signature algorithms and scopes enforced on other endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams, type SignatureAlgo } from '../auth/signature';
import { buildForm, postAssembly, startFixture, type Fixture } from '../testing/service-fixture';

let fx: Fixture;
let nonce = 0;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.stop());

interface Key {
  key: string;
  secret: string;
  algo?: SignatureAlgo;
}
const admin = (): Key => ({ key: fx.service.authKey, secret: fx.service.authSecret });

async function call(as: Key, method: string, path: string, extra: Record<string, unknown> = {}) {
  const params = JSON.stringify({ auth: { key: as.key, expires: new Date(Date.now() + 3600_000).toISOString() }, nonce: `k-${++nonce}`, ...extra });
  const fields = { params, signature: signParams(params, as.secret, as.algo ?? 'sha384') };
  const url = new URL(path, fx.service.url);
  let body: URLSearchParams | undefined;
  if (method === 'GET') for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  else body = new URLSearchParams(fields);
  const res = await fetch(url, { method, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function createKey(extra: Record<string, unknown> = {}): Promise<{ record: Record<string, unknown>; key: Key }> {
  const res = await call(admin(), 'POST', '/auth_keys', extra);
  expect(res.body.ok, JSON.stringify(res.body)).toBe('AUTH_KEY_CREATED');
  const record = res.body.auth_key as Record<string, unknown>;
  return { record, key: { key: String(record.auth_key), secret: String(res.body.auth_secret), algo: (record.signature_algo as SignatureAlgo | null) ?? 'sha384' } };
}

async function assemblyWith(k: Key) {
  const params = JSON.stringify({ auth: { key: k.key, expires: new Date(Date.now() + 3600_000).toISOString() }, steps: { ':original': { robot: '/upload/handle' } } });
  const form = buildForm({ params: {}, files: [] });
  form.set('params', params);
  form.set('signature', signParams(params, k.secret, k.algo ?? 'sha384'));
  return postAssembly(fx.service.url, form);
}

describe('Auth Keys', () => {
  it('lists keys with the spec record, and the allowed scopes', async () => {
    const list = await call(admin(), 'GET', '/auth_keys');
    expect(list.body.ok).toBe('AUTH_KEYS_FOUND');
    const first = (list.body.auth_keys as Array<Record<string, unknown>>)[0]!;
    expect(first).toMatchObject({ auth_key: fx.service.authKey, is_active: true, is_allowed_for_smartcdn: false, can_show_auth_secret: true, description: '' });
    expect(Object.keys(first).sort()).toEqual(['auth_key', 'can_show_auth_secret', 'created', 'description', 'id', 'is_active', 'is_allowed_for_smartcdn', 'last_used', 'modified', 'scope', 'signature_algo'].sort());
    expect(JSON.stringify(list.body)).not.toContain(fx.service.authSecret);
    const scopes = await call(admin(), 'GET', '/auth_keys/scopes');
    expect(scopes.body.scopes).toContain('templates:write');
    expect(scopes.body.scopes).toHaveLength(17);
  });

  it('creates keys with the spec defaults, normalizes scopes and refuses bad values', async () => {
    const plain = await createKey({ description: 'CI uploads' });
    expect(plain.record).toMatchObject({ is_active: true, is_allowed_for_smartcdn: false, signature_algo: 'sha384', scope: null, description: 'CI uploads' });
    const scoped = await createKey({ scope: 'templates:read, templates:read,assemblies:write' });
    expect(scoped.record.scope).toBe('templates:read,assemblies:write');
    const cdn = await createKey({ is_allowed_for_smartcdn: 1 });
    expect(cdn.record).toMatchObject({ is_allowed_for_smartcdn: true, signature_algo: null });

    for (const bad of [
      { scope: 'templates:read,root:everything' },
      { scope: 'read,'.repeat(110) },
      { description: 'x'.repeat(256) },
      { description: 'party 🎉' },
      { signature_algo: 'md5' },
      { is_allowed_for_smartcdn: 1, signature_algo: 'sha384' },
      { is_active: 'maybe' },
    ]) {
      const res = await call(admin(), 'POST', '/auth_keys', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toBe('AUTH_KEY_INVALID');
    }

    // Enabling Smart CDN on a sha384 key resets its algorithm to null; omitted fields keep their values.
    const updated = await call(admin(), 'PUT', `/auth_keys/${String(plain.record.id)}`, { is_allowed_for_smartcdn: true });
    expect(updated.body).toMatchObject({ ok: 'AUTH_KEY_UPDATED', auth_key: { is_allowed_for_smartcdn: true, signature_algo: null, description: 'CI uploads' } });
  });

  it('signs with each key own algorithm, shows the secret, and records last use', async () => {
    const { record, key } = await createKey({ signature_algo: 'sha256' });
    expect((await assemblyWith(key)).status).toBe(200);
    const wrongAlgo = await assemblyWith({ ...key, algo: 'sha384' });
    expect(wrongAlgo.status).toBe(401);
    expect(wrongAlgo.body.error).toBe('INVALID_SIGNATURE');
    expect(String(wrongAlgo.body.message)).toMatch(/signs with sha256/);

    const secret = await call(admin(), 'POST', `/auth_keys/${String(record.id)}/show_secret`);
    expect(secret.body).toMatchObject({ ok: 'AUTH_SECRET_RETRIEVED', auth_key: key.key, auth_secret: key.secret });
    const read = await call(admin(), 'GET', `/auth_keys/${String(record.id)}`);
    expect(read.body.auth_key).toMatchObject({ last_used: expect.stringMatching(/^\d{4}-/) });
  });

  it('refuses an inactive key everywhere until it is reactivated', async () => {
    const { record, key } = await createKey();
    expect((await call(admin(), 'PUT', `/auth_keys/${String(record.id)}`, { is_active: 0 })).body.auth_key).toMatchObject({ is_active: false });
    const refused = await assemblyWith(key);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('AUTH_KEY_INACTIVE');
    expect((await call(key, 'GET', '/templates')).body.error).toBe('AUTH_KEY_INACTIVE');
    await call(admin(), 'PUT', `/auth_keys/${String(record.id)}`, { is_active: 1 });
    expect((await assemblyWith(key)).status).toBe(200);
  });

  it('enforces scopes on every authenticated endpoint', async () => {
    const { key } = await createKey({ scope: 'templates:read' });
    expect((await call(key, 'GET', '/templates')).status).toBe(200);
    for (const [method, path, extra] of [
      ['POST', '/templates', { name: 'x', template: '{}' }],
      ['GET', '/template_credentials', {}],
      ['GET', '/auth_keys', {}],
      ['GET', '/assemblies', {}],
    ] as const) {
      const res = await call(key, method, path, extra);
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe('INSUFFICIENT_AUTH_SCOPE');
    }
    const upload = await assemblyWith(key);
    expect(upload.body.error).toBe('INSUFFICIENT_AUTH_SCOPE');
    // The generic `read` scope covers every read.
    const reader = await createKey({ scope: 'read' });
    expect((await call(reader.key, 'GET', '/template_credentials')).status).toBe(200);
    expect((await call(reader.key, 'POST', '/templates', { name: 'x', template: '{}' })).body.error).toBe('INSUFFICIENT_AUTH_SCOPE');
  });

  it('deletes a key with another one, never itself, and the last active key stays', async () => {
    const { record, key } = await createKey();
    const self = await call(key, 'DELETE', `/auth_keys/${String(record.id)}`);
    expect(self.body.error).toBe('AUTH_KEY_NOT_DELETED');
    expect((await call(admin(), 'DELETE', `/auth_keys/${String(record.id)}`)).body.ok).toBe('AUTH_KEY_DELETED');
    expect((await assemblyWith(key)).body.error).toBe('GET_ACCOUNT_UNKNOWN_AUTH_KEY');
    expect((await call(admin(), 'GET', `/auth_keys/${String(record.id)}`)).body.error).toBe('AUTH_KEYS_NOT_FOUND');

    // Deactivate every other key, then the admin key is the last active one.
    const all = (await call(admin(), 'GET', '/auth_keys')).body.auth_keys as Array<{ id: string; auth_key: string }>;
    for (const k of all.filter((k) => k.auth_key !== fx.service.authKey)) await call(admin(), 'PUT', `/auth_keys/${k.id}`, { is_active: false });
    const adminId = all.find((k) => k.auth_key === fx.service.authKey)!.id;
    // The last active key cannot be deleted; deactivating it follows the spec's state table, which states
    // no condition (issue 25: it was 400 AUTH_KEY_NOT_UPDATED). The app restores access over its admin channel.
    expect((await call(admin(), 'DELETE', '/auth_keys/self', { action: 'revoke_auth_key' })).body.error).toBe('AUTH_KEY_NOT_DELETED');
    expect((await call(admin(), 'PUT', `/auth_keys/${adminId}`, { is_active: false })).body).toMatchObject({ ok: 'AUTH_KEY_UPDATED', auth_key: { is_active: false } });
    expect((await call(admin(), 'GET', '/auth_keys')).body.error).toBe('AUTH_KEY_INACTIVE');
    fx.service.restoreFullAccess(fx.service.authKey);
    expect((await call(admin(), 'GET', '/auth_keys')).status).toBe(200);
  });

  it('revokes the signing key itself with DELETE /auth_keys/self, as the vendor SDK sends it', async () => {
    const { key } = await createKey({ description: 'to revoke' });
    const revoked = await call(key, 'DELETE', '/auth_keys/self', { action: 'revoke_auth_key' });
    expect(revoked.body).toMatchObject({ ok: 'AUTH_KEY_DELETED', auth_key: key.key });
    expect((await assemblyWith(key)).body.error).toBe('GET_ACCOUNT_UNKNOWN_AUTH_KEY');
    expect((await call(admin(), 'GET', '/auth_keys')).status).toBe(200);
  });

  it('sets can_show_auth_secret on create and update, and keeps it when left out', async () => {
    const { record } = await createKey({ can_show_auth_secret: false });
    expect(record.can_show_auth_secret).toBe(false);
    const id = String(record.id);
    expect((await call(admin(), 'POST', `/auth_keys/${id}/show_secret`)).body.error).toBe('AUTH_SECRET_NOT_RETRIEVED');
    expect((await call(admin(), 'PUT', `/auth_keys/${id}`, { description: 'still hidden' })).body.auth_key).toMatchObject({ can_show_auth_secret: false });
    expect((await call(admin(), 'PUT', `/auth_keys/${id}`, { can_show_auth_secret: 1 })).body.auth_key).toMatchObject({ can_show_auth_secret: true });
    expect((await call(admin(), 'POST', `/auth_keys/${id}/show_secret`)).body.ok).toBe('AUTH_SECRET_RETRIEVED');
    expect((await call(admin(), 'PUT', `/auth_keys/${id}`, { can_show_auth_secret: 'maybe' })).body.error).toBe('AUTH_KEY_INVALID');
  });
});
