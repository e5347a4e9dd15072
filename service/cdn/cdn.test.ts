// Signed content-delivery URLs against the local service: URLs from the vendor's Node SDK (host moved
// to `/file/{workspace}` of the local service) are accepted; tampered, expired and wrong-key ones are not.
import { createHmac } from 'node:crypto';
import { Transloadit } from '@transloadit/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { cdnStringToSign, parseCdnUrl } from './verify-cdn-url';
import { buildForm, jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';

let fx: Fixture;
let input = '';
let cdnKey = { key: '', secret: '', id: '' };
let plainKey = { key: '', secret: '' };

async function signed(method: string, path: string, extra: Record<string, unknown>) {
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: new Date(Date.now() + 60_000).toISOString() }, ...extra });
  const res = await fetch(new URL(path, fx.service.url), { method, body: new URLSearchParams({ params, signature: signParams(params, fx.service.authSecret) }) });
  return (await res.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  fx = await startFixture();
  const form = buildForm({ params: { auth: { key: fx.service.authKey }, steps: { ':original': { robot: '/upload/handle' } } }, files: [{ field: 'file', name: 'sunset 2.jpg', data: await jpeg(300, 200), type: 'image/jpeg' }] });
  const created = await postAssembly(fx.service.url, form);
  await waitForEnd(String(created.body.assembly_ssl_url));
  input = `${String(created.body.assembly_id)}/sunset 2.jpg`;
  const cdn = await signed('POST', '/auth_keys', { is_allowed_for_smartcdn: true, description: 'CDN' });
  cdnKey = { key: (cdn.auth_key as { auth_key: string }).auth_key, secret: String(cdn.auth_secret), id: (cdn.auth_key as { id: string }).id };
  const plain = await signed('POST', '/auth_keys', {});
  plainKey = { key: (plain.auth_key as { auth_key: string }).auth_key, secret: String(plain.auth_secret) };
});
afterAll(() => fx.stop());

/** The SDK's URL, moved from `https://{workspace}.tlcdn.com` to the local service's `/file/{workspace}`. */
function sdkUrl(key: { key: string; secret: string }, opts: { template?: string; urlParams?: Record<string, string>; expiresAt?: number } = {}): string {
  const client = new Transloadit({ authKey: key.key, authSecret: key.secret });
  const url = client.getSignedSmartCDNUrl({ workspace: 'local', template: opts.template ?? 'builtin/store-originals@0.0.1', input, urlParams: opts.urlParams ?? { w: '100' }, expiresAt: opts.expiresAt ?? Date.now() + 60_000 });
  return url.replace('https://local.tlcdn.com', `${fx.service.url}/file/local`);
}

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), body: Buffer.from(await res.arrayBuffer()) };
};
const errorOf = (r: { body: Buffer }) => (JSON.parse(r.body.toString()) as { error: string }).error;

describe('signed content-delivery URLs', () => {
  it('serves the file for a URL the vendor SDK signed, cached no longer than the signature lives', async () => {
    const ok = await get(sdkUrl(cdnKey, { expiresAt: Date.now() + 120_000 }));
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^image\/jpeg/);
    expect(ok.body.subarray(0, 2).toString('hex')).toBe('ffd8');
    const maxAge = Number(/max-age=(\d+)/.exec(ok.cache ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(100);
    expect(maxAge).toBeLessThanOrEqual(120);
  });

  it('refuses tampered, expired, unsigned and wrong-key URLs, each with its code', async () => {
    const good = sdkUrl(cdnKey);
    expect(errorOf(await get(good.replace('w=100', 'w=2000')))).toBe('CDN_SIGNATURE_INVALID');
    expect(errorOf(await get(good.replace(/&sig=[^&]+/, '')))).toBe('CDN_SIGNATURE_MISSING');
    const expired = await get(sdkUrl(cdnKey, { expiresAt: Date.now() - 1000 }));
    expect(expired.status).toBe(403);
    expect(errorOf(expired)).toBe('CDN_SIGNATURE_EXPIRED');
    expect(errorOf(await get(sdkUrl(plainKey)))).toBe('CDN_AUTH_KEY_NOT_ALLOWED');
    expect(errorOf(await get(sdkUrl({ key: cdnKey.key, secret: 'wrong' })))).toBe('CDN_SIGNATURE_INVALID');
    expect(errorOf(await get(sdkUrl(cdnKey, { template: 'no-such-template' })))).toBe('TEMPLATE_NOT_FOUND');
    await signed('PUT', `/auth_keys/${cdnKey.id}`, { is_active: false });
    expect(errorOf(await get(sdkUrl(cdnKey)))).toBe('AUTH_KEY_INACTIVE');
    await signed('PUT', `/auth_keys/${cdnKey.id}`, { is_active: true });
    expect((await get(sdkUrl(cdnKey))).status).toBe(200);
  });

  it('lets a key with a scope list sign only when the list holds smart_cdn:sign', async () => {
    const make = async (scope: string) => {
      const made = await signed('POST', '/auth_keys', { is_allowed_for_smartcdn: true, description: `CDN ${scope}`, scope });
      return { key: (made.auth_key as { auth_key: string }).auth_key, secret: String(made.auth_secret) };
    };
    const narrow = await get(sdkUrl(await make('assemblies:read,write')));
    expect(narrow.status).toBe(403);
    const body = JSON.parse(narrow.body.toString()) as { error: string; message: string };
    expect(body.error).toBe('CDN_AUTH_KEY_NOT_ALLOWED');
    expect(body.message).toMatch(/scope \(assemblies:read,write\) does not include smart_cdn:sign/);
    const withScope = await get(sdkUrl(await make('assemblies:read,smart_cdn:sign')));
    expect(withScope.status).toBe(200);
    expect(withScope.body.subarray(0, 2).toString('hex')).toBe('ffd8');
  });

  it('serves a URL without exp (the spec: optional), refuses exp more than a year ahead, and one signed for another workspace', async () => {
    /** Signed correctly by hand (the SDKs always add exp), with the query given. */
    const signedUrl = (query: Record<string, string>, workspace = 'local'): string => {
      const path = `/file/${workspace}/builtin%2Fstore-originals%400.0.1/${encodeURIComponent(input)}`;
      const q = new URLSearchParams({ ...query, auth_key: cdnKey.key });
      const sig = `sha256:${createHmac('sha256', cdnKey.secret).update(cdnStringToSign(parseCdnUrl(path, `?${q.toString()}`)!)).digest('hex')}`;
      q.sort();
      q.set('sig', sig);
      return `${fx.service.url}${path}?${q.toString()}`;
    };
    // Issue 25: exp is optional (spec rule 2); such a URL is cached for the default day, not forever.
    const forever = await get(signedUrl({ w: '100' }));
    expect(forever.status).toBe(200);
    expect(forever.cache).toBe('public, max-age=86400');
    // The workspace part is checked: a correct signature over another workspace's URL is not served here.
    const elsewhere = await get(signedUrl({ exp: String(Date.now() + 3600_000), w: '100' }, 'other-workspace'));
    expect([elsewhere.status, errorOf(elsewhere)]).toEqual([404, 'CDN_WORKSPACE_NOT_FOUND']);
    for (const exp of [String(Date.now() + 10 * 365 * 86_400_000), '99999999999999999999']) {
      const far = await get(signedUrl({ exp, w: '100' }));
      expect(far.status, exp).toBe(403);
      expect(errorOf(far)).toBe('CDN_EXPIRY_TOO_FAR');
    }
    // The same hand-signing with an exp an hour ahead is served: only the missing or far expiry is refused.
    expect((await get(signedUrl({ exp: String(Date.now() + 3600_000), w: '100' }))).status).toBe(200);
  });
});
