// "Sign in with browser" end to end in core: the loopback redirect, the code exchange, the workspace
// that results, and tokens renewed through the refresh grant — against a real local service.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { answerConsent } from '../../../service/testing/consent-user';
import type { Workspace } from '../../../shared/ipc/models';
import { createCore, type Core } from '../create-core';
import { dispatch } from '../ipc/dispatch';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';
import { refreshTokenAccount } from '../workspaces/workspace-client';
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
    const core: Core = await createCore({
      dataDir: path.join(dir, 'app'),
      downloadsDir: path.join(dir, 'downloads'),
      secretStore: createKeyringSecretStore('assemblyline-signin-test'),
      desktop,
      host: 'browser',
      version: '0.0.0',
    });
    try {
      const available = await dispatch(core.handlers, 'workspaces:signInAvailable', { endpoint: remote.url });
      expect(available.ok && available.value).toEqual({ available: true });
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
