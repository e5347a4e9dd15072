// Issue 25: a Bearer token replaces the signature, nothing else (spec "Bearer tokens" 2). Invariant: for any
// `auth` block (referer, limits, nonce), a Bearer request is answered as the same request signed is —
// same status, same code. Real service over real HTTP; the auth blocks are generated.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForm, inOneHourIso, postAssembly, startFixture, type Fixture } from '../testing/service-fixture';

const STEPS = { ':original': { robot: '/upload/handle' } };
const REFERER = 'https://shop.example/upload';

describe('Bearer requests keep every auth rule but the signature', () => {
  let fx: Fixture;
  let token = '';
  beforeAll(async () => {
    fx = await startFixture();
    const res = await fetch(`${fx.service.url}/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${fx.service.authKey}:${fx.service.authSecret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
  });
  afterAll(async () => fx.stop());

  const signed = (auth: Record<string, unknown>) =>
    postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey, expires: inOneHourIso(), ...auth }, steps: STEPS }, secret: fx.service.authSecret }), '/assemblies', { Referer: REFERER });
  const bearer = (auth: Record<string, unknown>) =>
    postAssembly(fx.service.url, buildForm({ params: { ...(Object.keys(auth).length ? { auth } : {}), steps: STEPS } }), '/assemblies', { Authorization: `Bearer ${token}`, Referer: REFERER });

  it('answers any auth block as the signed request is answered (fast-check)', async () => {
    const referer = fc.constantFrom(undefined, '^https://shop\\.example/', '^https://other\\.example/', '(unclosed', 42);
    const maxSize = fc.constantFrom(undefined, 10_000_000, 0, -1, 'lots', '2048');
    const maxFiles = fc.constantFrom(undefined, 1, 5, 0, 1.5, 'x');
    await fc.assert(
      fc.asyncProperty(referer, maxSize, maxFiles, async (r, size, files) => {
        const auth: Record<string, unknown> = {};
        if (r !== undefined) auth.referer = r;
        if (size !== undefined) auth.max_size = size;
        if (files !== undefined) auth.max_number_of_files = files;
        const a = await signed({ ...auth, nonce: randomBytes(8).toString('hex') });
        const b = await bearer({ ...auth, nonce: randomBytes(8).toString('hex') });
        expect([b.status, b.body.error ?? null], JSON.stringify(auth)).toEqual([a.status, a.body.error ?? null]);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a Bearer retry with the same nonce: one Assembly, not two', async () => {
    const nonce = randomBytes(8).toString('hex');
    const first = await bearer({ nonce });
    expect(first.status).toBe(200);
    const again = await bearer({ nonce });
    expect([again.status, again.body.error]).toEqual([401, 'SIGNATURE_REUSE_DETECTED']);
    // The spec's example: a referer that does not match stops a Bearer request as it stops a signed one.
    const elsewhere = await bearer({ referer: '^https://other\\.example/' });
    expect([elsewhere.status, elsewhere.body.error]).toEqual([403, 'REFERER_MISMATCH']);
  });
});
