// "Sign in with browser" end to end in core: the loopback redirect, the code exchange, the workspace
// that results, and tokens renewed through the refresh grant — against a real local service.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { answerConsent } from '../../../service/testing/consent-user';
import type { Workspace } from '../../../shared/ipc/models';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';
import { refreshTokenAccount } from '../workspaces/workspace-client';
import { mintWithRefreshToken } from '../auth/client-credentials';
import { discoverSignIn, signInWithBrowser } from './browser-sign-in';

let dir = '';
let remote: LocalService;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-signin-'));
  remote = await startLocalService({ dataDir: path.join(dir, 'remote') });
});
afterAll(async () => {
  await remote.close();
  await rm(dir, { recursive: true, force: true });
});

describe('browser sign-in', () => {
  it('finds out whether a deployment offers it', async () => {
    expect(await discoverSignIn(remote.url)).toMatchObject({ token_endpoint: `${remote.url}/token` });
    expect(await discoverSignIn('http://127.0.0.1:1')).toBeNull();
  });

  it('signs in through the browser and a loopback redirect; Deny and a foreign state are refused', async () => {
    let foreignStatus = 0;
    const signedIn = await signInWithBrowser({
      endpoint: remote.url,
      openExternal: async (url) => {
        // Something else hitting the loopback server with another state is turned away.
        const redirect = new URL(url).searchParams.get('redirect_uri')!;
        foreignStatus = (await fetch(`${redirect}?code=x&state=forged`)).status;
        await answerConsent(url, 'allow');
      },
    });
    expect(foreignStatus).toBe(400);
    expect(signedIn.ok && signedIn.value).toMatchObject({ authKey: remote.authKey });
    expect(signedIn.ok && signedIn.value.refreshToken.length).toBeGreaterThan(20);

    const denied = await signInWithBrowser({ endpoint: remote.url, openExternal: async (url) => void (await answerConsent(url, 'deny')) });
    expect(denied.ok ? null : denied.error.code).toBe('SIGN_IN_DENIED');

    const controller = new AbortController();
    const canceled = await signInWithBrowser({ endpoint: remote.url, signal: controller.signal, openExternal: async () => controller.abort() });
    expect(canceled.ok ? null : canceled.error.code).toBe('SIGN_IN_CANCELED');
  });

  it('adds a workspace that holds no secret and keeps working on refreshed tokens', async () => {
    const desktop = createRecordingDesktop(async (url) => void (await answerConsent(url, 'allow')));
    const core: Core = await createCore(testCorePorts(dir, { dataDir: path.join(dir, 'app'), secretStore: createKeyringSecretStore('assemblyline-signin-test'), desktop }));
    try {
      const available = await dispatch(core.handlers, 'workspaces:signInAvailable', { endpoint: remote.url });
      expect(available.ok && available.value).toEqual({ available: true, privateKeyJwt: true });
      const added = await dispatch(core.handlers, 'workspaces:signIn', { name: 'Signed in', endpoint: remote.url });
      const ws = added.ok ? (added.value as Workspace) : null;
      expect(ws).toMatchObject({ authMode: 'browser', authKey: remote.authKey, hasSecret: true });
      expect(desktop.external[0]).toMatch(new RegExp(`^${remote.url}/authorize\\?response_type=code&client_id=assemblyline-desktop&redirect_uri=http%3A%2F%2F127\\.0\\.0\\.1%3A\\d+%2Fcallback&code_challenge=`));
      expect(await core.vault.get(ws!.id)).toBeNull();
      const refreshBefore = await core.vault.get(refreshTokenAccount(ws!.id));

      const templates = await dispatch(core.handlers, 'templates:list', { workspaceId: ws!.id });
      expect(templates.ok).toBe(true);
      // The first request traded the refresh token for a new pair: the stored one was replaced.
      const refreshAfter = await core.vault.get(refreshTokenAccount(ws!.id));
      expect(refreshAfter).not.toBe(refreshBefore);
      // Renaming keeps the sign-in; switching it to a key needs the key's secret; another endpoint needs a new sign-in.
      const renamed = await dispatch(core.handlers, 'workspaces:save', { id: ws!.id, name: 'Signed in (renamed)', endpoint: remote.url, authKey: '', authMode: 'browser' });
      expect(renamed.ok && (renamed.value as Workspace)).toMatchObject({ name: 'Signed in (renamed)', authMode: 'browser' });
      const moved = await dispatch(core.handlers, 'workspaces:save', { id: ws!.id, name: 'x', endpoint: 'http://127.0.0.1:1', authKey: '', authMode: 'browser' });
      expect(moved.ok ? null : moved.error.message).toMatch(/Sign in again/);
      const test = await dispatch(core.handlers, 'workspaces:test', { id: ws!.id });
      expect(test.ok && (test.value as { ok: boolean }).ok).toBe(true);
    } finally {
      await core.close();
    }
  });
});

/** A deployment that answers every request with this (status, JSON or text). */
async function fakeDeployment(status: number, body: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(status, { 'Content-Type': typeof body === 'string' ? 'text/html' : 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
const refused = (url: string) =>
  fetch(url).then(
    () => false,
    () => true,
  );

describe('browser sign-in, the details', () => {
  it('does not offer itself for a deployment without the metadata, or one that would send codes in clear text', async () => {
    const plain = await fakeDeployment(404, { error: 'SERVER_404' });
    const html = await fakeDeployment(200, '<html>a login page</html>');
    const cleartext = await fakeDeployment(200, { authorization_endpoint: 'http://sso.example/authorize', token_endpoint: 'http://sso.example/token', code_challenge_methods_supported: ['S256'] });
    const plainPkce = await fakeDeployment(200, { authorization_endpoint: 'https://sso.example/authorize', token_endpoint: 'https://sso.example/token', code_challenge_methods_supported: ['plain'] });
    try {
      for (const d of [plain, html, cleartext, plainPkce]) expect(await discoverSignIn(d.url)).toBeNull();
      const answer = await signInWithBrowser({ endpoint: plain.url, openExternal: () => Promise.reject(new Error('must not open')) });
      expect(answer.ok ? null : answer.error.code).toBe('SIGN_IN_UNAVAILABLE');
    } finally {
      await Promise.all([plain, html, cleartext, plainPkce].map((d) => d.close()));
    }
  });

  it('asks for the scopes given, and closes its loopback server once the browser answered', async () => {
    let redirect = '';
    const signedIn = await signInWithBrowser({
      endpoint: remote.url,
      scopes: ['templates:read'],
      openExternal: async (url) => {
        redirect = new URL(url).searchParams.get('redirect_uri')!;
        const { callbackStatus } = await answerConsent(url, 'allow');
        expect(callbackStatus).toBe(200);
      },
    });
    expect(signedIn.ok && signedIn.value.scopes).toEqual(['templates:read']);
    expect(signedIn.ok && signedIn.value.expiresAtMs).toBeGreaterThan(Date.now() + 5 * 3600_000);
    expect(await refused(redirect)).toBe(true);
  });

  it('gives up after its timeout, or at once when already canceled, and leaves no server behind', async () => {
    let redirect = '';
    const late = await signInWithBrowser({ endpoint: remote.url, timeoutMs: 150, openExternal: async (url) => void (redirect = new URL(url).searchParams.get('redirect_uri')!) });
    expect(late.ok ? null : late.error.code).toBe('SIGN_IN_CANCELED');
    expect(await refused(redirect)).toBe(true);

    let opened = false;
    const controller = new AbortController();
    controller.abort();
    const canceled = await signInWithBrowser({ endpoint: remote.url, signal: controller.signal, openExternal: async () => void (opened = true) });
    expect(canceled.ok ? null : canceled.error.code).toBe('SIGN_IN_CANCELED');
    expect(opened).toBe(false);
  });

  it('renews the pair with the refresh grant; the refresh token presented no longer works', async () => {
    const signedIn = await signInWithBrowser({ endpoint: remote.url, openExternal: async (url) => void (await answerConsent(url, 'allow')) });
    if (!signedIn.ok) throw new Error(signedIn.error.message);
    const renewed = await mintWithRefreshToken({ endpoint: remote.url, refreshToken: signedIn.value.refreshToken });
    if (!renewed.ok) throw new Error(renewed.error.message);
    expect(renewed.value).toMatchObject({ authKey: remote.authKey });
    expect(renewed.value.refreshToken).not.toBe(signedIn.value.refreshToken);
    expect(renewed.value.token).not.toBe(signedIn.value.accessToken);
    const templates = await fetch(`${remote.url}/templates?params=%7B%7D`, { headers: { Authorization: `Bearer ${renewed.value.token}` } });
    expect(templates.status).toBe(200);

    const old = await mintWithRefreshToken({ endpoint: remote.url, refreshToken: signedIn.value.refreshToken });
    expect(old.ok ? null : old.error).toMatchObject({ code: 'TOKEN_INVALID_GRANT', httpCode: 400 });
    expect((await mintWithRefreshToken({ endpoint: 'http://sso.example', refreshToken: 'x' })).ok).toBe(false);
  });
});
