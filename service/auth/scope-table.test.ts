// Issue 25: scopes have one table (shared/api/scopes.ts) that /token and every route use. A key whose scope
// is the generic `read` may call what needs `assemblies:read`, so it may mint a token for exactly that (the
// app asks for such narrow tokens); `dam:*` opens /dam/*. Real service over real HTTP; keys of generated scopes.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_SCOPES, scopeCovers } from '../../shared/api/scopes';
import { signedCall } from '../testing/signed-call';
import { startFixture, type Fixture } from '../testing/service-fixture';

describe('one scope table for /token and the routes', () => {
  let fx: Fixture;
  const keys = new Map<string, { key: string; secret: string }>();
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => fx.stop());

  const keyWith = async (scope: string) => {
    const known = keys.get(scope);
    if (known) return known;
    const res = await signedCall(fx.service, 'POST', '/auth_keys', { scope });
    const made = { key: String((res.body.auth_key as { auth_key: string }).auth_key), secret: String(res.body.auth_secret) };
    keys.set(scope, made);
    return made;
  };
  const mint = async (k: { key: string; secret: string }, scope: string) => {
    const res = await fetch(`${fx.service.url}/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${k.key}:${k.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };

  it('mints a token for a scope exactly when the key\'s scope covers it (fast-check over the scope list)', async () => {
    const scope = fc.constantFrom(...ALLOWED_SCOPES);
    await fc.assert(
      fc.asyncProperty(scope, scope, async (held, asked) => {
        const answer = await mint(await keyWith(held), asked);
        if (scopeCovers(held, asked)) expect([answer.status, answer.body.scope]).toEqual([200, asked]);
        else expect([answer.status, answer.body.error]).toEqual([403, 'INSUFFICIENT_AUTH_SCOPE']);
      }),
      { numRuns: 60 },
    );
  });

  it('lets a `read` key\'s narrow token list Assemblies, and opens /dam/* with dam:read but not with assemblies:read', async () => {
    const narrow = await mint(await keyWith('read'), 'assemblies:read');
    const list = await fetch(`${fx.service.url}/assemblies?params=${encodeURIComponent('{}')}`, { headers: { Authorization: `Bearer ${narrow.body.access_token}` } });
    expect(list.status).toBe(200);
    const dam = await mint(await keyWith('dam:read'), 'dam:read');
    const assets = await fetch(`${fx.service.url}/dam/assets?params=${encodeURIComponent('{}')}`, { headers: { Authorization: `Bearer ${dam.body.access_token}` } });
    expect(assets.status).toBe(200);
    const notDam = await mint(await keyWith('assemblies:read'), 'assemblies:read');
    const refused = await fetch(`${fx.service.url}/dam/assets?params=${encodeURIComponent('{}')}`, { headers: { Authorization: `Bearer ${notDam.body.access_token}` } });
    expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([403, 'INSUFFICIENT_AUTH_SCOPE']);
  });
});
