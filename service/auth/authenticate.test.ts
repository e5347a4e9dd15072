// Signature auth and auth.* limits over real HTTP against a real service (service-facts.md §1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForm, getJson, inOneHourIso, jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';

const STEPS = { ':original': { robot: '/upload/handle' } };
const SECRET = 'test-secret-0123456789';
const KEY = 'test-key-abc';

describe('signature authentication (open account)', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ authKey: KEY, authSecret: SECRET });
  });
  afterAll(() => fx.stop());

  const post = (params: Record<string, unknown> | string, secret?: string, extra: Partial<Parameters<typeof buildForm>[0]> = {}) =>
    postAssembly(fx.service.url, buildForm({ params, ...(secret ? { secret } : {}), ...extra }));

  it('accepts an unsigned request on an account that does not require signatures', async () => {
    const r = await post({ auth: { key: KEY }, steps: STEPS });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe('ASSEMBLY_EXECUTING');
  });

  it('accepts sha384, sha256, sha1 and bare-hex sha1 signatures with ISO and slash expiry', async () => {
    const slash = new Date(Date.now() + 3600_000).toISOString().replace(/-/g, '/').replace('T', ' ').replace(/\.\d+Z$/, '+00:00');
    for (const [algo, expires] of [['sha384', inOneHourIso()], ['sha256', slash], ['sha1', slash]] as const) {
      const r = await post({ auth: { key: KEY, expires }, steps: STEPS }, SECRET, { algo });
      expect(r.body.error, `${algo} ${expires}`).toBeUndefined();
      expect(r.body.ok).toBe('ASSEMBLY_EXECUTING');
    }
    const raw = JSON.stringify({ auth: { key: KEY, expires: inOneHourIso() }, steps: STEPS });
    const bare = buildForm({ params: raw, secret: SECRET, algo: 'sha1' });
    bare.set('signature', String(bare.get('signature')).replace('sha1:', ''));
    expect((await postAssembly(fx.service.url, bare)).body.ok).toBe('ASSEMBLY_EXECUTING');
  });

  it('rejects a wrong signature with 401 INVALID_SIGNATURE', async () => {
    const r = await post({ auth: { key: KEY, expires: inOneHourIso() }, steps: STEPS }, 'not-the-secret');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: 'INVALID_SIGNATURE', http_code: 401 });
    expect(String(r.body.message)).not.toBe('');
  });

  it('rejects an expired signed request with AUTH_EXPIRED (both formats)', async () => {
    const iso = await post({ auth: { key: KEY, expires: '2020-01-01T00:00:00.000Z' }, steps: STEPS }, SECRET);
    expect(iso.body.error).toBe('AUTH_EXPIRED');
    const slash = await post({ auth: { key: KEY, expires: '2020/01/01 00:00:00+00:00' }, steps: STEPS }, SECRET);
    expect(slash.body.error).toBe('AUTH_EXPIRED');
  });

  it('rejects a signed request without auth.expires and an unparsable one', async () => {
    expect((await post({ auth: { key: KEY }, steps: STEPS }, SECRET)).body.error).toBe('NO_AUTH_EXPIRES_PARAMETER');
    expect((await post({ auth: { key: KEY, expires: 'soon' }, steps: STEPS }, SECRET)).body.error).toBe('INVALID_AUTH_EXPIRES_PARAMETER');
  });

  it('detects a reused nonce (auth.nonce and top-level nonce)', async () => {
    const params = { auth: { key: KEY, expires: inOneHourIso(), nonce: 'n-1' }, steps: STEPS };
    expect((await post(params, SECRET)).body.ok).toBe('ASSEMBLY_EXECUTING');
    const again = await post(params, SECRET);
    expect(again.body.error).toBe('SIGNATURE_REUSE_DETECTED');
    const top = { auth: { key: KEY, expires: inOneHourIso() }, nonce: 77, steps: STEPS };
    expect((await post(top, SECRET)).body.ok).toBe('ASSEMBLY_EXECUTING');
    expect((await post(top, SECRET)).body.error).toBe('SIGNATURE_REUSE_DETECTED');
  });

  it('names envelope problems: unknown key, no params, bad JSON, no auth, no key', async () => {
    const unknown = await post({ auth: { key: 'nobody' }, steps: STEPS });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('GET_ACCOUNT_UNKNOWN_AUTH_KEY');
    const none = await fetch(`${fx.service.url}/assemblies`, { method: 'POST', body: new FormData() });
    expect(((await none.json()) as { error: string }).error).toBe('NO_PARAMS_FIELD');
    expect((await post('{not json')).body.error).toBe('INVALID_PARAMS_FIELD');
    expect((await post({ steps: STEPS })).body.error).toBe('NO_AUTH_PARAMETER');
    expect((await post({ auth: {}, steps: STEPS })).body.error).toBe('NO_AUTH_KEY_PARAMETER');
  });

  it('accepts a urlencoded body (GO/PY style)', async () => {
    const res = await fetch(`${fx.service.url}/assemblies`, {
      method: 'POST',
      body: new URLSearchParams({ params: JSON.stringify({ auth: { key: KEY }, steps: STEPS }) }),
    });
    expect(((await res.json()) as { ok: string }).ok).toBe('ASSEMBLY_EXECUTING');
  });

  it('enforces auth.referer: mismatch, invalid and catastrophic expressions (without hanging)', async () => {
    const withReferer = (referer: string, headerValue: string) =>
      postAssembly(fx.service.url, buildForm({ params: { auth: { key: KEY, referer }, steps: STEPS } }), '/assemblies', { Referer: headerValue });
    expect((await withReferer('^https://app\\.example\\.com/', 'https://app.example.com/x')).body.ok).toBe('ASSEMBLY_EXECUTING');
    const mismatch = await withReferer('^https://app\\.example\\.com/', 'https://evil.test/');
    expect(mismatch.body.error).toBe('REFERER_MISMATCH');
    expect((await withReferer('([a-', 'https://app.example.com/')).body.error).toBe('INVALID_AUTH_REFERER_PARAMETER');
    const started = Date.now();
    const slow = await withReferer('(a+)+$', `${'a'.repeat(40)}!`);
    expect(slow.body.error).toBe('INVALID_AUTH_REFERER_PARAMETER');
    expect(Date.now() - started).toBeLessThan(2000);
    // The server is still responsive afterwards.
    expect((await getJson(`${fx.service.url}/`)).body.ok).toBe('SERVER_ROOT');
  });

  it('stops the Assembly with MAX_NUMBER_OF_FILES_EXCEEDED and MAX_SIZE_EXCEEDED; rejects invalid limits', async () => {
    const img = await jpeg(40, 30);
    const files = [
      { field: 'a', name: 'a.jpg', data: img, type: 'image/jpeg' },
      { field: 'b', name: 'b.jpg', data: img, type: 'image/jpeg' },
    ];
    const tooMany = await post({ auth: { key: KEY, max_number_of_files: 1 }, steps: STEPS }, undefined, { files });
    expect(tooMany.status).toBe(200);
    expect(tooMany.body.error).toBe('MAX_NUMBER_OF_FILES_EXCEEDED');
    const final = await waitForEnd(String(tooMany.body.assembly_ssl_url));
    expect(final.error).toBe('MAX_NUMBER_OF_FILES_EXCEEDED');
    const tooBig = await post({ auth: { key: KEY, max_size: 100 }, steps: STEPS }, undefined, { files: files.slice(0, 1) });
    expect(tooBig.body.error).toBe('MAX_SIZE_EXCEEDED');
    expect((await post({ auth: { key: KEY, max_size: 'lots' }, steps: STEPS })).body.error).toBe('INVALID_AUTH_MAX_SIZE_PARAMETER');
    expect((await post({ auth: { key: KEY, max_number_of_files: 0 }, steps: STEPS })).body.error).toBe('INVALID_AUTH_MAX_NUMBER_OF_FILES_PARAMETER');
    const fits = await post({ auth: { key: KEY, max_number_of_files: 2, max_size: 1_000_000 }, steps: STEPS }, undefined, { files });
    expect((await waitForEnd(String(fits.body.assembly_ssl_url))).ok).toBe('ASSEMBLY_COMPLETED');
  });
});

describe('an account that requires signatures', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ authKey: KEY, authSecret: SECRET, requireSignature: true });
  });
  afterAll(() => fx.stop());

  it('rejects an unsigned request with NO_SIGNATURE_FIELD and accepts a signed one', async () => {
    const unsigned = await postAssembly(fx.service.url, buildForm({ params: { auth: { key: KEY }, steps: STEPS } }));
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error).toBe('NO_SIGNATURE_FIELD');
    const signed = await postAssembly(fx.service.url, buildForm({ params: { auth: { key: KEY, expires: inOneHourIso() }, steps: STEPS }, secret: SECRET }));
    expect(signed.body.ok).toBe('ASSEMBLY_EXECUTING');
  });
});

describe('rate limiting', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ authKey: KEY, authSecret: SECRET, maxAssembliesPerMinute: 2 });
  });
  afterAll(() => fx.stop());

  it('answers 413 RATE_LIMIT_REACHED with info.retryIn after the per-minute limit', async () => {
    const form = () => buildForm({ params: { auth: { key: KEY }, steps: STEPS } });
    expect((await postAssembly(fx.service.url, form())).status).toBe(200);
    expect((await postAssembly(fx.service.url, form())).status).toBe(200);
    const limited = await postAssembly(fx.service.url, form());
    expect(limited.status).toBe(413);
    expect(limited.body.error).toBe('RATE_LIMIT_REACHED');
    const retryIn = (limited.body.info as { retryIn: number }).retryIn;
    expect(retryIn).toBeGreaterThan(0);
    expect(retryIn).toBeLessThanOrEqual(60);
  });
});
