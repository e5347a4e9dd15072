// Client assertions (RFC 7523) on POST /token over real HTTP: registering a client's public keys, each
// rule of the spec with its own error, a sign-in bound to assertions, and jti replay across a restart.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../index';
import { answerConsent } from '../testing/consent-user';
import { signedCall } from '../testing/signed-call';
import { JWT_BEARER } from './client-assertion';

let dir = '';
let service: LocalService;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-assert-'));
  service = await startLocalService({ dataDir: dir });
});
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

interface Client {
  id: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  alg: string;
}

async function newClient(alg = 'ES256', register = true): Promise<Client> {
  const { publicKey, privateKey } = await generateKeyPair(alg, alg === 'EdDSA' ? { crv: 'Ed25519' } : {});
  const publicJwk = { ...(await exportJWK(publicKey)), kid: `k-${randomBytes(4).toString('hex')}`, alg };
  const client = { id: `app-${randomBytes(5).toString('hex')}`, privateKey, publicJwk, alg };
  if (register) {
    const saved = await signedCall(service, 'PUT', `/oauth_clients/${client.id}`, { jwks: { keys: [publicJwk] } });
    expect(saved.status).toBe(200);
  }
  return client;
}

const tokenEndpoint = () => `${service.url}/token`;
/** A fresh assertion; `claims` override the correct ones (undefined removes one). */
async function assertion(c: Client, claims: Record<string, unknown> = {}, o: { key?: CryptoKey; alg?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const body: Record<string, unknown> = { iss: c.id, sub: c.id, aud: tokenEndpoint(), jti: randomBytes(12).toString('base64url'), iat: now, exp: now + 60, ...claims };
  for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
  return new SignJWT(body).setProtectedHeader({ alg: o.alg ?? c.alg, kid: c.publicJwk.kid! }).sign(o.key ?? c.privateKey);
}

const token = (fields: Record<string, string>) =>
  fetch(tokenEndpoint(), { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as Record<string, string>,
  }));

/** A refresh with a made-up token: the assertion is checked first, so its own error (or, once it passes, TOKEN_INVALID_GRANT) answers. */
const refreshWith = (jwt: string, extra: Record<string, string> = {}) =>
  token({ grant_type: 'refresh_token', refresh_token: 'not-a-real-one', client_assertion_type: JWT_BEARER, client_assertion: jwt, ...extra });

async function signIn(c: Client) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirect = 'http://127.0.0.1:9/callback';
  const url = `${service.url}/authorize?${new URLSearchParams({ response_type: 'code', client_id: c.id, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope: 'auth_keys:read' })}`;
  const { location } = await answerConsent(url, 'allow');
  const code = new URL(location).searchParams.get('code')!;
  // client_id left out: the assertion names the client (spec, client_id row).
  return token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirect, client_assertion_type: JWT_BEARER, client_assertion: await assertion(c) });
}

describe('registering a client’s public keys', () => {
  it('is advertised in the metadata and needs a signed request with auth_keys scope', async () => {
    const meta = (await (await fetch(`${service.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, string[]>;
    expect(meta.token_endpoint_auth_methods_supported).toContain('private_key_jwt');
    expect(meta.token_endpoint_auth_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256', 'EdDSA']));
    const unsigned = await fetch(`${service.url}/oauth_clients/x`, { method: 'PUT', body: new URLSearchParams({ params: JSON.stringify({ auth: { key: service.authKey }, jwks: { keys: [] } }) }) });
    expect(((await unsigned.json()) as { error: string }).error).toBe('NO_SIGNATURE_FIELD');
  });

  it('stores public keys, refuses private ones and garbage, reads and removes them', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const priv = await signedCall(service, 'PUT', '/oauth_clients/app-private', { jwks: { keys: [await exportJWK(privateKey)] } });
    expect(priv.status).toBe(400);
    expect(priv.body).toMatchObject({ error: 'OAUTH_CLIENT_INVALID', message: expect.stringContaining('private key material (d)') });
    const bad = await signedCall(service, 'PUT', '/oauth_clients/app-bad', { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' }] } });
    expect(bad.body.error).toBe('OAUTH_CLIENT_INVALID');
    expect((await signedCall(service, 'PUT', '/oauth_clients/app-bad', { jwks: 'nope' })).body.error).toBe('OAUTH_CLIENT_INVALID');
    const pub = await exportJWK(publicKey);
    const saved = await signedCall(service, 'PUT', '/oauth_clients/app%20one', { jwks: { keys: [pub] } });
    expect(saved.body).toMatchObject({ ok: 'OAUTH_CLIENT_SAVED', client: { client_id: 'app one', jwks: { keys: [pub] }, token_endpoint_auth_method: 'private_key_jwt' } });
    expect((await signedCall(service, 'GET', '/oauth_clients/app%20one')).body.ok).toBe('OAUTH_CLIENT_FOUND');
    expect((await signedCall(service, 'DELETE', '/oauth_clients/app%20one')).body.ok).toBe('OAUTH_CLIENT_DELETED');
    expect((await signedCall(service, 'GET', '/oauth_clients/app%20one')).body.error).toBe('OAUTH_CLIENT_NOT_FOUND');
  });
});

describe('POST /token with a client assertion', () => {
  it('signs in with an assertion instead of client_id, and every refresh of that sign-in must carry one', async () => {
    const c = await newClient('ES256');
    const first = await signIn(c);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String) });

    const without = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_id: c.id });
    expect(without).toMatchObject({ status: 401, body: { error: 'TOKEN_CLIENT_ASSERTION_REQUIRED' } });
    // The refusal used nothing up: the same refresh token still works with an assertion.
    const renewed = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_assertion_type: JWT_BEARER, client_assertion: await assertion(c) });
    expect(renewed.status).toBe(200);
    const call = await fetch(`${service.url}/auth_keys?${new URLSearchParams({ params: '{}' })}`, { headers: { Authorization: `Bearer ${renewed.body.access_token}` } });
    expect(call.status).toBe(200);
    // The binding outlives rotation: the new refresh token needs an assertion too.
    expect((await token({ grant_type: 'refresh_token', refresh_token: renewed.body.refresh_token!, client_id: c.id })).body.error).toBe('TOKEN_CLIENT_ASSERTION_REQUIRED');
  });

  it('accepts ES256, RS256 and EdDSA keys', async () => {
    for (const alg of ['ES256', 'RS256', 'EdDSA']) {
      const c = await newClient(alg);
      const r = await refreshWith(await assertion(c));
      expect(r.body.error, alg).toBe('TOKEN_INVALID_GRANT'); // past every assertion check
    }
  });

  it('refuses each broken rule with its own code', async () => {
    const c = await newClient('ES256');
    const other = await newClient('ES256', false);
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Promise<{ status: number; body: Record<string, string> }>, number, string][] = [
      ['wrong type', refreshWith(await assertion(c), { client_assertion_type: 'urn:nope' }), 400, 'TOKEN_INVALID_CLIENT_ASSERTION_TYPE'],
      ['type without assertion', token({ grant_type: 'refresh_token', refresh_token: 'x', client_assertion_type: JWT_BEARER }), 400, 'TOKEN_INVALID_CLIENT_ASSERTION_TYPE'],
      ['not a JWT', refreshWith('abc.def'), 401, 'TOKEN_CLIENT_ASSERTION_MALFORMED'],
      ['iss is not the client', refreshWith(await assertion(c, { iss: 'someone-else' }), { client_id: c.id }), 401, 'TOKEN_CLIENT_ASSERTION_SUBJECT'],
      ['sub differs from iss', refreshWith(await assertion(c, { sub: 'someone-else' })), 401, 'TOKEN_CLIENT_ASSERTION_SUBJECT'],
      ['unregistered client', refreshWith(await assertion(other)), 401, 'TOKEN_INVALID_CLIENT'],
      ['signed by another key', refreshWith(await assertion(c, {}, { key: other.privateKey })), 401, 'TOKEN_CLIENT_ASSERTION_SIGNATURE'],
      ['HS256 (a shared secret)', refreshWith(await assertion(c, {}, { key: new Uint8Array(32) as unknown as CryptoKey, alg: 'HS256' })), 401, 'TOKEN_CLIENT_ASSERTION_MALFORMED'],
      ['aud is another endpoint', refreshWith(await assertion(c, { aud: 'https://example.com/token' })), 401, 'TOKEN_CLIENT_ASSERTION_AUDIENCE'],
      ['aud is the issuer, not the token endpoint', refreshWith(await assertion(c, { aud: service.url })), 401, 'TOKEN_CLIENT_ASSERTION_AUDIENCE'],
      ['expired', refreshWith(await assertion(c, { iat: now - 120, exp: now - 60 })), 401, 'TOKEN_CLIENT_ASSERTION_EXPIRED'],
      ['expires in ten minutes', refreshWith(await assertion(c, { exp: now + 600 })), 401, 'TOKEN_CLIENT_ASSERTION_LIFETIME'],
      ['no exp', refreshWith(await assertion(c, { exp: undefined })), 401, 'TOKEN_CLIENT_ASSERTION_LIFETIME'],
      ['no jti', refreshWith(await assertion(c, { jti: undefined })), 401, 'TOKEN_CLIENT_ASSERTION_MALFORMED'],
    ];
    for (const [what, pending, status, code] of cases) {
      const r = await pending;
      expect({ what, status: r.status, error: r.body.error }).toEqual({ what, status, error: code });
      expect(r.body.message, what).toBeTruthy();
    }
    // The loopback names of the service's port are one endpoint.
    expect((await refreshWith(await assertion(c, { aud: tokenEndpoint().replace('127.0.0.1', 'localhost') }))).body.error).toBe('TOKEN_INVALID_GRANT');
  });

  it('accepts each jti once, also after a restart, and keeps client_credentials on HTTP Basic', async () => {
    const c = await newClient('ES256');
    const jwt = await assertion(c, { jti: 'once-only' });
    expect((await refreshWith(jwt)).body.error).toBe('TOKEN_INVALID_GRANT');
    expect((await refreshWith(jwt)).body.error).toBe('TOKEN_CLIENT_ASSERTION_REPLAYED');

    const port = Number(new URL(service.url).port);
    await service.close();
    service = await startLocalService({ dataDir: dir, port });
    // fetch's pool may still hold a keep-alive socket the old server closed: let it find out on a throwaway request.
    await fetch(`${service.url}/`).catch(() => null);
    expect((await refreshWith(jwt)).body.error).toBe('TOKEN_CLIENT_ASSERTION_REPLAYED');

    const basic = `Basic ${Buffer.from(`${service.authKey}:${service.authSecret}`).toString('base64')}`;
    const cc = await fetch(tokenEndpoint(), {
      method: 'POST',
      headers: { Authorization: basic },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: await assertion(c) }),
    });
    expect(cc.status).toBe(400);
    expect(((await cc.json()) as { message: string }).message).toContain('client_credentials authenticates with HTTP Basic');
  });
});
