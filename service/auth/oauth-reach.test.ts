// Issue 25: any web page can open the local service's consent page with a link of its making. Codes go
// only to redirect addresses registered for the client (loopback ones for an unregistered native app),
// a client nobody registered is marked unverified, a sign-in that names no scope gets a narrow one, and
// /token answers no other origin. Real service over real HTTP; the consent page answered as a browser would.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerConsent } from '../testing/consent-user';
import { signedCall } from '../testing/signed-call';
import { startFixture, type Fixture } from '../testing/service-fixture';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.stop());

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const authorizeUrl = (p: Record<string, string>) =>
  `${fx.service.url}/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'some-tool', redirect_uri: 'http://127.0.0.1:9/callback', code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 's', ...p })}`;

describe('the consent page and /token, reached by any web page', () => {
  it('sends codes only to registered redirect addresses; an unregistered client may only return to this computer', async () => {
    const refused = await fetch(authorizeUrl({ client_id: 'evil-tool', redirect_uri: 'https://evil.example/cb' }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('has no registered redirect addresses');

    const put = await signedCall(fx.service, 'PUT', '/oauth_clients/reporting-site', { redirect_uris: ['https://reports.example/oauth/cb', 'http://127.0.0.1/cb'] });
    expect(put.body).toMatchObject({ ok: 'OAUTH_CLIENT_SAVED', client: { client_id: 'reporting-site', redirect_uris: ['https://reports.example/oauth/cb', 'http://127.0.0.1/cb'], jwks: null } });
    expect((await fetch(authorizeUrl({ client_id: 'reporting-site', redirect_uri: 'https://reports.example/oauth/cb' }))).status).toBe(200);
    // A registered loopback address matches on any port (RFC 8252); another path or host does not.
    expect((await fetch(authorizeUrl({ client_id: 'reporting-site', redirect_uri: 'http://127.0.0.1:43210/cb' }))).status).toBe(200);
    for (const uri of ['https://reports.example/other', 'https://evil.example/oauth/cb', 'http://127.0.0.1:9/callback']) {
      const res = await fetch(authorizeUrl({ client_id: 'reporting-site', redirect_uri: uri }));
      expect(res.status, uri).toBe(400);
      expect(await res.text(), uri).toContain('is not one of the redirect addresses registered for reporting-site');
    }
    const badRegistration = await signedCall(fx.service, 'PUT', '/oauth_clients/x-tool', { redirect_uris: ['http://evil.example/cb'] });
    expect([badRegistration.status, badRegistration.body.error]).toEqual([400, 'OAUTH_CLIENT_INVALID']);
  });

  it('marks a client nobody registered as unverified, and a registered one not', async () => {
    const unknown = await (await fetch(authorizeUrl({ client_id: 'Assemblyline Official' }))).text();
    expect(unknown).toContain('<span class="unverified">(unverified)</span>');
    expect(unknown).toContain('no client of this name is registered with this service');
    const known = await (await fetch(authorizeUrl({ client_id: 'reporting-site', redirect_uri: 'http://127.0.0.1:5/cb' }))).text();
    expect(known).not.toContain('(unverified)');
    expect(known).not.toContain('no client of this name is registered');
  });

  it('grants only assemblies:read to a sign-in that names no scope', async () => {
    const { verifier, challenge } = pkce();
    const page = await (await fetch(authorizeUrl({ code_challenge: challenge }))).text();
    expect(page).toContain('<li><code>assemblies:read</code></li>');
    const { location } = await answerConsent(authorizeUrl({ code_challenge: challenge }), 'allow');
    const code = new URL(location).searchParams.get('code')!;
    const res = await fetch(`${fx.service.url}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: 'some-tool', redirect_uri: 'http://127.0.0.1:9/callback' }),
    });
    expect(((await res.json()) as { scope: string }).scope).toBe('assemblies:read');
  });

  it('answers /token to no other origin: no CORS on its preflight nor on its answer', async () => {
    const preflight = await fetch(`${fx.service.url}/token`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    const answer = await fetch(`${fx.service.url}/token`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${Buffer.from(`${fx.service.authKey}:${fx.service.authSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    // The API itself still answers every origin (Uppy, status reads).
    expect((await fetch(`${fx.service.url}/`, { headers: { Origin: 'https://evil.example' } })).headers.get('access-control-allow-origin')).toBe('*');
  });
});
