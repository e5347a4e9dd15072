// Browser sign-in on the local service: consent page, authorization code with PKCE, refresh rotation.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALLOWED_SCOPES } from '../auth-keys/auth-key-rules';
import { startLocalService, type LocalService } from '../index';
import { answerConsent } from '../testing/consent-user';
import { signParams } from './signature';

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
    expect(meta).toMatchObject({
      issuer: service.url,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      scopes_supported: [...ALLOWED_SCOPES],
    });
  });

  it('shows a consent page under a strict CSP, and exchanges the code for tokens that work', async () => {
    const page = await fetch(authorizeUrl(pkce().challenge, { scope: 'templates:read auth_keys:read' }));
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
    const html = await page.text();
    expect(html).not.toMatch(/<script|<link|<img/i);
    expect(html).toContain('prefers-color-scheme: dark');
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

describe('resource (spec "Bearer tokens": omitted → the grant\'s own; named → it must match)', () => {
  const exchange = async (extra: Record<string, string> = {}) => {
    const { verifier, code } = await signIn(extra);
    return token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: 'test-app', redirect_uri: REDIRECT });
  };
  const refresh = (refreshToken: string, resource?: string) =>
    token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'test-app', ...(resource !== undefined ? { resource } : {}) });

  it('refuses a refresh that names a foreign resource, and the sign-in keeps working', async () => {
    const first = await exchange();
    for (const foreign of ['https://evil.example/', 'https://api2.transloadit.com', `${service.url.replace('127.0.0.1', '127.0.0.2')}/`, 'not a url', `${service.url}/#frag`]) {
      const refused = await refresh(first.body.refresh_token!, foreign);
      expect(refused.status, foreign).toBe(400);
      expect(refused.body.error, foreign).toBe('TOKEN_INVALID_TARGET');
    }
    // Its own resource is the API origin (no resource at sign-in): the tool endpoint is another one.
    const mcp = await refresh(first.body.refresh_token!, `${service.url}/mcp`);
    expect(mcp.body).toMatchObject({ error: 'TOKEN_INVALID_TARGET' });
    expect(mcp.body.message).toMatch(/granted for aud=api2/);
    // Every refusal ran before the token was used up: naming the right resource (or none) still works.
    const named = await refresh(first.body.refresh_token!, `${service.url}/`);
    expect(named.status).toBe(200);
    const omitted = await refresh(named.body.refresh_token!);
    expect(omitted.status).toBe(200);
    const localhost = await refresh(omitted.body.refresh_token!, service.url.replace('127.0.0.1', 'localhost'));
    expect(localhost.status).toBe(200);
  });

  it('keeps the tool endpoint as a sign-in\'s resource through refreshes, and checks it on the code exchange', async () => {
    const mismatched = await exchange({ resource: `${service.url}/mcp` });
    expect(mismatched.status).toBe(200);
    expect((await refresh(mismatched.body.refresh_token!, service.url)).body.error).toBe('TOKEN_INVALID_TARGET');
    expect((await refresh(mismatched.body.refresh_token!, `${service.url}/mcp`)).status).toBe(200);

    const { verifier, code } = await signIn({ resource: `${service.url}/mcp` });
    const wrong = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: 'test-app', redirect_uri: REDIRECT, resource: 'https://evil.example/mcp' });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'TOKEN_INVALID_TARGET' } });
  });

  it('sends invalid_target back from /authorize for a resource that is not this service', async () => {
    const res = await fetch(authorizeUrl(pkce().challenge, { resource: 'https://evil.example/' }), { redirect: 'manual' });
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('error_description')).toMatch(/is not this service/);
  });
});

// ---- the consent page against other web pages, keys that lack scopes, key state, narrowing, expiry ----

let nonce = 0;
/** A signed API call (as the app makes them). */
async function asKey(k: { key: string; secret: string }, method: string, path: string, extra: Record<string, unknown> = {}) {
  const params = JSON.stringify({ auth: { key: k.key, expires: new Date(Date.now() + 3600_000).toISOString() }, nonce: `oauth-${++nonce}`, ...extra });
  const fields = { params, signature: signParams(params, k.secret, 'sha384') };
  const url = new URL(path, service.url);
  let body: URLSearchParams | undefined;
  if (method === 'GET') for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  else body = new URLSearchParams(fields);
  return (await (await fetch(url, { method, body })).json()) as Record<string, unknown>;
}
const asAdmin = (method: string, path: string, extra: Record<string, unknown> = {}) => asKey({ key: service.authKey, secret: service.authSecret }, method, path, extra);
async function createKey(extra: Record<string, unknown>): Promise<{ id: string; key: string; secret: string }> {
  const created = await asAdmin('POST', '/auth_keys', extra);
  expect(created.ok, JSON.stringify(created)).toBe('AUTH_KEY_CREATED');
  const record = created.auth_key as { id: string; auth_key: string };
  return { id: String(record.id), key: record.auth_key, secret: String(created.auth_secret) };
}
const bearerGet = async (accessToken: string, path: string) => {
  const res = await fetch(`${service.url}${path}?params=%7B%7D`, { headers: { Authorization: `Bearer ${accessToken}` } });
  return { status: res.status, ...((await res.json()) as { ok?: string; error?: string; count?: number }) };
};
const consentFormOf = (html: string) => /name="consent" value="([^"]+)"/.exec(html)?.[1];
const postConsent = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${service.url}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
/** A request with the Host header a rebound DNS name would send (fetch does not let a page set it). */
const getWithHost = (url: string, host: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { headers: { Host: host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
async function exchange(extra: Record<string, string> = {}, authKey?: string) {
  const { verifier, challenge } = pkce();
  const { location } = await answerConsent(authorizeUrl(challenge, extra), 'allow', authKey);
  const code = new URL(location).searchParams.get('code');
  expect(code, location).toBeTruthy();
  return token({ grant_type: 'authorization_code', code: code!, code_verifier: verifier, client_id: 'test-app', redirect_uri: REDIRECT });
}

describe('the consent page cannot be answered by another web page', () => {
  it('gives other origins nothing to read, and refuses an answer posted from another site', async () => {
    const page = await fetch(authorizeUrl(pkce().challenge), { headers: { Origin: 'https://evil.example' } });
    expect(page.status).toBe(200);
    // The API itself answers every origin; the consent page (with its one-time form token) does not.
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const consent = consentFormOf(await page.text())!;
    const forged = await postConsent({ consent, auth_key: service.authKey, decision: 'allow' }, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();
    expect(await forged.text()).toMatch(/did not come from the consent page/);
    // The user's own click on that page still works.
    const mine = await postConsent({ consent, auth_key: service.authKey, decision: 'allow' }, { Origin: service.url, 'Sec-Fetch-Site': 'same-origin' });
    expect(mine.status).toBe(302);
    expect(new URL(mine.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('is not served under a foreign host name (DNS rebinding)', async () => {
    const rebound = await getWithHost(authorizeUrl(pkce().challenge), `attacker.example:${service.port}`);
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain('name="consent"');
    const own = await getWithHost(authorizeUrl(pkce().challenge), `localhost:${service.port}`);
    expect(own.status).toBe(200);
    expect(own.body).toContain('name="consent"');
  });
});

describe('scopes asked and the key chosen', () => {
  it('marks keys that lack a scope asked, and refuses one on the page so the user can pick another', async () => {
    const narrow = await createKey({ description: 'Templates only', scope: 'templates:read' });
    const url = authorizeUrl(pkce().challenge, { scope: 'templates:read auth_keys:read' });
    const html = await (await fetch(url)).text();
    expect(html).toContain(`<option value="${narrow.key}" disabled>Templates only — ${narrow.key} (templates:read) — lacks auth_keys:read</option>`);
    expect(html).toContain(`<option value="${service.authKey}">`);

    // A forged (or stale) form that picks the narrow key anyway: an error on the page, no redirect.
    const refused = await postConsent({ consent: consentFormOf(html)!, auth_key: narrow.key, decision: 'allow' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    const again = await refused.text();
    expect(again).toContain(`The key ${narrow.key} does not have auth_keys:read`);
    // The page offers a fresh form: choosing a key that has both scopes signs in.
    const fresh = consentFormOf(again)!;
    expect(fresh).not.toBe(consentFormOf(html));
    const allowed = await postConsent({ consent: fresh, auth_key: service.authKey, decision: 'allow' });
    expect(new URL(allowed.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('lets only Deny be chosen when no active key has the scopes asked', async () => {
    const keeper = await createKey({ description: 'Key admin', scope: 'auth_keys:read,auth_keys:write' });
    const adminId = String(((await asAdmin('GET', '/auth_keys')).auth_keys as Array<{ id: string; auth_key: string }>).find((k) => k.auth_key === service.authKey)!.id);
    expect(await asAdmin('PUT', `/auth_keys/${adminId}`, { is_active: false })).toMatchObject({ ok: 'AUTH_KEY_UPDATED' });
    try {
      // Neither "Templates only" (made above) nor the key admin can write Templates.
      const page = await fetch(authorizeUrl(pkce().challenge, { scope: 'templates:write' }));
      const html = await page.text();
      expect(html).toContain('No active Auth Key has every scope asked for: you can only Deny.');
      expect(html).toContain(`<li><code>Key admin — ${keeper.key} (auth_keys:read, auth_keys:write) — lacks templates:write</code></li>`);
      expect(html).not.toContain('<select');
      expect(html).toMatch(/<button type="submit" name="decision" value="allow" class="primary" disabled>Allow<\/button>/);
      expect(html).not.toContain(`<option value="${service.authKey}"`); // inactive keys are not offered at all
      const denied = await postConsent({ consent: consentFormOf(html)!, auth_key: keeper.key, decision: 'deny' });
      expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
    } finally {
      const back = await asKey(keeper, 'PUT', `/auth_keys/${adminId}`, { is_active: true });
      expect(back.ok, JSON.stringify(back)).toBe('AUTH_KEY_UPDATED');
    }
  });

  it('grants the narrow key only what it has, with the key named in the answer', async () => {
    const narrow = await createKey({ scope: 'templates:read' });
    const answer = await exchange({ scope: 'templates:read' }, narrow.key);
    expect(answer.body).toMatchObject({ scope: 'templates:read', auth_key: narrow.key });
    expect(await bearerGet(answer.body.access_token!, '/templates')).toMatchObject({ status: 200, count: expect.any(Number) });
    expect((await bearerGet(answer.body.access_token!, '/auth_keys')).error).toBe('INSUFFICIENT_AUTH_SCOPE');
  });
});

describe('a sign-in over time', () => {
  afterEach(() => vi.useRealTimers());
  /** Moves the clock of the service (it runs in this process) forward; only Date is faked. */
  const later = (ms: number) => {
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now + ms);
  };

  it('narrows one access token on refresh without narrowing the sign-in, and a too-wide ask costs nothing', async () => {
    const first = await exchange({ scope: 'templates:read auth_keys:read' });
    const narrowed = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_id: 'test-app', scope: 'templates:read' });
    expect(narrowed).toMatchObject({ status: 200, body: { scope: 'templates:read' } });
    expect((await bearerGet(narrowed.body.access_token!, '/auth_keys')).error).toBe('INSUFFICIENT_AUTH_SCOPE');

    const wider = await token({ grant_type: 'refresh_token', refresh_token: narrowed.body.refresh_token!, client_id: 'test-app', scope: 'templates:read templates:write' });
    expect(wider.body).toMatchObject({ error: 'TOKEN_INVALID_GRANT', message: 'The sign-in did not grant templates:write.' });
    // Refused before use: the same refresh token still works, and brings back every scope granted at consent.
    const full = await token({ grant_type: 'refresh_token', refresh_token: narrowed.body.refresh_token!, client_id: 'test-app' });
    expect(full).toMatchObject({ status: 200, body: { scope: 'templates:read auth_keys:read' } });
    expect((await bearerGet(full.body.access_token!, '/auth_keys')).status).toBe(200);
  });

  it('pauses while its key is inactive and works again, with the same refresh token, once it is reactivated', async () => {
    const key = await createKey({ description: 'Paused later' });
    const signedIn = await exchange({ scope: 'templates:read' }, key.key);
    expect(signedIn.body.auth_key).toBe(key.key);
    expect(await asAdmin('PUT', `/auth_keys/${key.id}`, { is_active: false })).toMatchObject({ ok: 'AUTH_KEY_UPDATED' });

    expect((await bearerGet(signedIn.body.access_token!, '/templates')).error).toBe('AUTH_KEY_INACTIVE');
    const refused = await token({ grant_type: 'refresh_token', refresh_token: signedIn.body.refresh_token!, client_id: 'test-app' });
    expect(refused).toMatchObject({ status: 401, body: { error: 'AUTH_KEY_INACTIVE' } });
    // An inactive key is not offered on the consent page either.
    expect(await (await fetch(authorizeUrl(pkce().challenge))).text()).not.toContain(key.key);

    expect(await asAdmin('PUT', `/auth_keys/${key.id}`, { is_active: true })).toMatchObject({ ok: 'AUTH_KEY_UPDATED' });
    expect((await bearerGet(signedIn.body.access_token!, '/templates')).status).toBe(200);
    const renewed = await token({ grant_type: 'refresh_token', refresh_token: signedIn.body.refresh_token!, client_id: 'test-app' });
    expect(renewed).toMatchObject({ status: 200, body: { auth_key: key.key } });
  });

  it('refuses a code deactivated between consent and exchange with AUTH_KEY_INACTIVE', async () => {
    const key = await createKey({ description: 'Paused at once' });
    const { verifier, challenge } = pkce();
    const { location } = await answerConsent(authorizeUrl(challenge), 'allow', key.key);
    await asAdmin('PUT', `/auth_keys/${key.id}`, { is_active: false });
    const answer = await token({ grant_type: 'authorization_code', code: new URL(location).searchParams.get('code')!, code_verifier: verifier, client_id: 'test-app', redirect_uri: REDIRECT });
    expect(answer).toMatchObject({ status: 401, body: { error: 'AUTH_KEY_INACTIVE' } });
  });

  it('lets a code expire after a minute, an access token after six hours, a refresh token after thirty days', async () => {
    const { verifier, challenge } = pkce();
    const { location } = await answerConsent(authorizeUrl(challenge), 'allow');
    later(61_000);
    const stale = await token({ grant_type: 'authorization_code', code: new URL(location).searchParams.get('code')!, code_verifier: verifier, client_id: 'test-app', redirect_uri: REDIRECT });
    expect(stale.body).toMatchObject({ error: 'TOKEN_INVALID_GRANT', message: 'The code has expired: sign in again.' });
    vi.useRealTimers();

    const signedIn = await exchange({ scope: 'templates:read' });
    later(6 * 3600_000 + 1000);
    expect((await bearerGet(signedIn.body.access_token!, '/templates')).error).toBe('BEARER_TOKEN_EXPIRED');
    // Still within the month: the refresh token renews the access token.
    const renewed = await token({ grant_type: 'refresh_token', refresh_token: signedIn.body.refresh_token!, client_id: 'test-app' });
    expect((await bearerGet(renewed.body.access_token!, '/templates')).status).toBe(200);
    vi.useRealTimers();

    // The renewed refresh token was issued six hours on: thirty days after that, it is over.
    later(6 * 3600_000 + 30 * 24 * 3600_000 + 2000);
    const expired = await token({ grant_type: 'refresh_token', refresh_token: renewed.body.refresh_token!, client_id: 'test-app' });
    expect(expired.body).toMatchObject({ error: 'TOKEN_INVALID_GRANT', message: 'The refresh token has expired: sign in again.' });
  });
});
