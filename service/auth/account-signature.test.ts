// The account setting "Require a correct Signature" (spec "Signature authentication" 1), issue 25: the
// embedded service is reachable by every web page and process on the machine, and one that learned an
// Auth Key must not create Assemblies with it. The setting holds for every key of the account, also keys
// made after it was turned on; a Bearer token (minted with the secret) still satisfies it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCall } from '../testing/signed-call';
import { buildForm, inOneHourIso, postAssembly, startFixture, type Fixture } from '../testing/service-fixture';

const STEPS = { ':original': { robot: '/upload/handle' } };

describe('an account that requires signatures', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ requireSignature: true });
  });
  afterAll(async () => fx.stop());

  const unsigned = (key: string) => postAssembly(fx.service.url, buildForm({ params: { auth: { key }, steps: STEPS } }));

  it('refuses an unsigned Assembly from every key, keys made later included, and takes signed and Bearer ones', async () => {
    const refused = await unsigned(fx.service.authKey);
    expect([refused.status, refused.body.error]).toEqual([401, 'NO_SIGNATURE_FIELD']);
    const signed = await postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey, expires: inOneHourIso() }, steps: STEPS }, secret: fx.service.authSecret }));
    expect(signed.status).toBe(200);

    const created = await signedCall(fx.service, 'POST', '/auth_keys', { description: 'made after the setting' });
    expect(created.status).toBe(200);
    const later = { key: String((created.body.auth_key as { auth_key: string }).auth_key), secret: String(created.body.auth_secret) };
    const laterUnsigned = await unsigned(later.key);
    expect([laterUnsigned.status, laterUnsigned.body.error]).toEqual([401, 'NO_SIGNATURE_FIELD']);

    // A token is minted with the secret: it counts as a signature (spec "Bearer tokens" 2).
    const token = await fetch(`${fx.service.url}/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${later.key}:${later.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'assemblies:write' }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const bearer = await postAssembly(fx.service.url, buildForm({ params: { steps: STEPS } }), '/assemblies', { Authorization: `Bearer ${access_token}` });
    expect(bearer.status, JSON.stringify(bearer.body)).toBe(200);
  });
});
