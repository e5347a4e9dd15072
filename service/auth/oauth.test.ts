// Browser sign-in on the local service: consent page, authorization code with PKCE, refresh rotation.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../index';
import { answerConsent } from '../testing/consent-user';

let dir = '';
let service: LocalService;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-oauth-'));
  service = await startLocalService({ dataDir: dir });
});
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

const REDIRECT = 'http://127.0.0.1:9/callback';
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const authorizeUrl = (challenge: string, extra: Record<string, string> = {}) =>
  `${service.url}/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'test-app', redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's1', ...extra })}`;
const token = (fields: Record<string, string>) =>
  fetch(`${service.url}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as Record<string, string>,
  }));

async function signIn(extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const { location } = await answerConsent(authorizeUrl(challenge, extra), 'allow');
  const code = new URL(location).searchParams.get('code')!;
  return { verifier, code, location };
}

describe('browser sign-in (OAuth with PKCE)', () => {
  it('publishes its metadata', async () => {
    const meta = (await (await fetch(`${service.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ authorization_endpoint: `${service.url}/authorize`, token_endpoint: `${service.url}/token`, code_challenge_methods_supported: ['S256'] });
  });

  it('shows a consent page under a strict CSP, and exchanges the code for tokens that work', async () => {
    const page = await fetch(authorizeUrl(pkce().challenge, { scope: 'templates:read auth_keys:read' }));
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('test-app');
    expect(html).toContain('<code>templates:read</code>');
    expect(html).toContain(service.authKey);

    const { verifier, code, location } = await signIn({ scope: 'templates:read auth_keys:read' });
    expect(new URL(location).searchParams.get('state')).toBe('s1');
    const answer = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: 'test-app', redirect_uri: REDIRECT });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 21600, scope: 'templates:read auth_keys:read', auth_key: service.authKey });
    const keys = await fetch(`${service.url}/auth_keys?params=%7B%7D`, { headers: { Authorization: `Bearer ${answer.body.access_token}` } });
    expect(keys.status).toBe(200);
    const denied = await fetch(`${service.url}/template_credentials?params=%7B%7D`, { headers: { Authorization: `Bearer ${answer.body.access_token}` } });
    expect(((await denied.json()) as { error: string }).error).toBe('INSUFFICIENT_AUTH_SCOPE');
  });

  it('rotates refresh tokens: the presented one stops working, and reusing it revokes the sign-in', async () => {
    const { verifier, code } = await signIn();
    const first = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: 'test-app', redirect_uri: REDIRECT });
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_id: 'test-app' });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    const again = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_id: 'test-app' });
    expect(again).toMatchObject({ status: 400, body: { error: 'TOKEN_INVALID_GRANT' } });
    // The reuse looked like theft: the newer pair is revoked too.
    const newest = await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token!, client_id: 'test-app' });
    expect(newest.body.error).toBe('TOKEN_INVALID_GRANT');
    const access = await fetch(`${service.url}/templates?params=%7B%7D`, { headers: { Authorization: `Bearer ${second.body.access_token}` } });
    expect(((await access.json()) as { error: string }).error).toBe('BEARER_TOKEN_INVALID');
  });

  it('refuses a wrong verifier, a reused code, a mismatched redirect, and says why', async () => {
    const a = await signIn();
    const wrong = await token({ grant_type: 'authorization_code', code: a.code, code_verifier: pkce().verifier, client_id: 'test-app', redirect_uri: REDIRECT });
    expect(wrong.body).toMatchObject({ error: 'TOKEN_INVALID_GRANT' });
    expect(wrong.body.message).toMatch(/code_verifier/);
    const b = await signIn();
    expect((await token({ grant_type: 'authorization_code', code: b.code, code_verifier: b.verifier, client_id: 'test-app', redirect_uri: 'http://127.0.0.1:10/callback' })).body.message).toMatch(/redirect_uri/);
    const c = await signIn();
    const once = await token({ grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, client_id: 'test-app', redirect_uri: REDIRECT });
    expect(once.status).toBe(200);
    const twice = await token({ grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, client_id: 'test-app', redirect_uri: REDIRECT });
    expect(twice.body.message).toMatch(/already used/);
    const revoked = await fetch(`${service.url}/templates?params=%7B%7D`, { headers: { Authorization: `Bearer ${once.body.access_token}` } });
    expect(((await revoked.json()) as { error: string }).error).toBe('BEARER_TOKEN_INVALID');
    expect((await token({ grant_type: 'authorization_code', client_id: 'test-app' })).body.error).toBe('TOKEN_INVALID_REQUEST');
  });

  it('Deny sends access_denied back; a foreign redirect is never followed; PKCE is required', async () => {
    const { location } = await answerConsent(authorizeUrl(pkce().challenge), 'deny');
    expect(new URL(location).searchParams.get('error')).toBe('access_denied');
    const foreign = await fetch(authorizeUrl(pkce().challenge, { redirect_uri: 'http://evil.example/cb' }), { redirect: 'manual' });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
    expect(await foreign.text()).toMatch(/redirect address must be https/);
    const noPkce = await fetch(authorizeUrl('x', { code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

  });
});
