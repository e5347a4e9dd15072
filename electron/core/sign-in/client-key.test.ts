// Signing in with a private key (client assertions, RFC 7523) in core: the key pair kept in the real
// OS keyring, its public half shown, one-click registration with the embedded service, a browser
// sign-in whose refreshes carry assertions. Run under scripts/with-keyring.sh.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerConsent } from '../../../service/testing/consent-user';
import type { Workspace } from '../../../shared/ipc/models';
import type { ClientKey } from '../../../shared/ipc/workspace-models';
import { mintWithRefreshToken } from '../auth/client-credentials';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';
import { refreshTokenAccount } from '../workspaces/workspace-client';
import { CLIENT_KEY_IN_USE, orphanKids } from './client-key-store';
import { clientIdFor, clientKeyAccount, createClientKey, publicView, signClientAssertion } from './client-key';

describe('client key (pure)', () => {
  it('finds the generated keys no workspace uses', () => {
    expect(orphanKids(['a', 'b', 'c'], ['b', 'z'])).toEqual(['a', 'c']);
    expect(orphanKids([], ['b'])).toEqual([]);
  });

  it('signs one-minute assertions naming the client and the token endpoint, verifiable with the public half only', async () => {
    const { privateJwk, view } = await createClientKey();
    expect(JSON.parse(privateJwk)).toMatchObject({ kty: 'EC', crv: 'P-256', d: expect.any(String), kid: view.kid });
    expect(view.publicJwk).not.toHaveProperty('d');
    expect(view.clientId).toBe(clientIdFor(view.kid));
    expect(view.publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
    expect(await publicView(privateJwk)).toEqual(view);

    const now = Date.now();
    const jwt = await signClientAssertion({ privateJwk, tokenEndpoint: 'https://api.example/token', now });
    if (!jwt.ok) throw new Error(jwt.error.message);
    const { payload } = await jwtVerify(jwt.value, await importJWK(view.publicJwk, 'ES256'), { audience: 'https://api.example/token', currentDate: new Date(now) });
    expect(payload).toMatchObject({ iss: view.clientId, sub: view.clientId, exp: Math.floor(now / 1000) + 60 });
    expect(decodeProtectedHeader(jwt.value)).toMatchObject({ alg: 'ES256', kid: view.kid });
    const again = await signClientAssertion({ privateJwk, tokenEndpoint: 'https://api.example/token', now });
    expect(again.ok && decodeJwt(again.value).jti).not.toBe(payload.jti);
    expect((await signClientAssertion({ privateJwk: '{"kty":"EC"}', tokenEndpoint: 'x' })).ok).toBe(false);
  });
});

const keyringExpected = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
let dir = '';
let core: Core;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-clientkey-'));
});
afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

const openCore = (desktop = createRecordingDesktop()) =>
  createCore(testCorePorts(dir, { dataDir: path.join(dir, 'app'), secretStore: createKeyringSecretStore('assemblyline-clientkey-test'), desktop }));

describe.runIf(keyringExpected)('signing in with a private key (real keyring, real local service)', () => {
  it('keeps the private key in the vault, registers the public one, signs in and refreshes with assertions', async () => {
    const desktop = createRecordingDesktop(async (url) => void (await answerConsent(url, 'allow')));
    core = await openCore(desktop);
    const endpoint = core.localServiceUrl!;
    const available = await dispatch(core.handlers, 'workspaces:signInAvailable', { endpoint });
    expect(available.ok && available.value).toEqual({ available: true, privateKeyJwt: true });

    const created = await dispatch(core.handlers, 'workspaces:clientKeyCreate', {});
    if (!created.ok) throw new Error(created.error.message);
    const key = created.value as ClientKey;
    const stored = JSON.parse((await core.vault.get(clientKeyAccount(key.kid)))!) as JWK;
    // What crossed to the page is the public half only.
    expect(JSON.stringify(created.value)).not.toContain(stored.d!);
    expect(JSON.parse(key.publicJwk)).toEqual({ kty: 'EC', crv: 'P-256', x: stored.x, y: stored.y, kid: key.kid, alg: 'ES256', use: 'sig' });
    expect((await dispatch(core.handlers, 'workspaces:clientKeyShow', { kid: key.kid })).ok && true).toBe(true);

    // Not registered yet: the deployment's own error reaches the user.
    const early = await dispatch(core.handlers, 'workspaces:signIn', { name: 'Keyed', endpoint, clientKeyId: key.kid });
    expect(early.ok ? null : early.error.code).toBe('TOKEN_INVALID_CLIENT');

    const registered = await dispatch(core.handlers, 'workspaces:clientKeyRegisterLocal', { kid: key.kid });
    expect(registered.ok && registered.value).toEqual({ clientId: key.clientId });
    const added = await dispatch(core.handlers, 'workspaces:signIn', { name: 'Keyed', endpoint, clientKeyId: key.kid });
    if (!added.ok) throw new Error(added.error.message);
    const ws = added.value as Workspace;
    expect(ws).toMatchObject({ authMode: 'browser', clientKey: { clientId: key.clientId, kid: key.kid } });
    expect(desktop.external.at(-1)).toContain(`client_id=${key.clientId}`);

    // A call refreshes the tokens with an assertion signed in core.
    const refreshBefore = await core.vault.get(refreshTokenAccount(ws.id));
    const templates = await dispatch(core.handlers, 'templates:list', { workspaceId: ws.id });
    expect(templates.ok).toBe(true);
    const refreshAfter = (await core.vault.get(refreshTokenAccount(ws.id)))!;
    expect(refreshAfter).not.toBe(refreshBefore);
    // The sign-in is bound to assertions: without one, the deployment refuses the refresh.
    const bare = await fetch(`${endpoint}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshAfter, client_id: key.clientId }) });
    expect(((await bare.json()) as { error: string }).error).toBe('TOKEN_CLIENT_ASSERTION_REQUIRED');
    // …and the app's plain client id is not this sign-in's client.
    const other = await mintWithRefreshToken({ endpoint, refreshToken: refreshAfter });
    expect(other.ok ? null : other.error.code).toBe('TOKEN_INVALID_GRANT');
    expect((await dispatch(core.handlers, 'templates:list', { workspaceId: ws.id })).ok).toBe(true);

    // A key a saved workspace signs in with cannot be discarded from a form.
    const inUse = await dispatch(core.handlers, 'workspaces:clientKeyDiscard', { kid: key.kid });
    expect(inUse.ok ? null : inUse.error.code).toBe(CLIENT_KEY_IN_USE);
    expect(await core.vault.get(clientKeyAccount(key.kid))).not.toBeNull();

    // Removing the workspace removes its private key from the keychain.
    expect((await dispatch(core.handlers, 'workspaces:remove', { id: ws.id })).ok).toBe(true);
    expect(await core.vault.get(clientKeyAccount(key.kid))).toBeNull();
    expect((await dispatch(core.handlers, 'workspaces:clientKeyShow', { kid: key.kid })).ok).toBe(false);
  });

  it('deletes a generated key no workspace uses: when the form discards it, and at the next start', async () => {
    core ??= await openCore();
    const make = async () => {
      const made = await dispatch(core.handlers, 'workspaces:clientKeyCreate', {});
      if (!made.ok) throw new Error(made.error.message);
      return (made.value as ClientKey).kid;
    };
    // Generated, then generated again: the form discards the first one.
    const first = await make();
    const second = await make();
    expect((await dispatch(core.handlers, 'workspaces:clientKeyDiscard', { kid: first })).ok).toBe(true);
    expect(await core.vault.get(clientKeyAccount(first))).toBeNull();
    expect(await core.vault.get(clientKeyAccount(second))).not.toBeNull();

    // The app closed with the form still open: the next start deletes the key nobody saved.
    await core.close();
    core = await openCore();
    expect(await core.vault.get(clientKeyAccount(second))).toBeNull();
    const shown = await dispatch(core.handlers, 'workspaces:clientKeyShow', { kid: second });
    expect(shown.ok ? null : shown.error.code).toBe('NOT_FOUND');
  });
});
