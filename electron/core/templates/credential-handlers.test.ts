// Credentials through core's dispatch against the real local service: secret values go in and never
// come back out, and an edit that leaves a secret empty keeps the stored one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential } from '../../../shared/ipc/template-models';
import { createApiClient } from '../api/api-client';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';
import { mergeCredentialContent, toCredential } from './credential-api';

let dir = '';
let core: Core;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-credentials-'));
  core = await createCore(testCorePorts(dir, { secretStore: createKeyringSecretStore('assemblyline-credentials-test') }));
}, 60_000);
afterAll(async () => {
  await core.close();
  await rm(dir, { recursive: true, force: true });
});

const SECRET = 'hunter2-very-secret';

describe('credential channels', () => {
  it('never returns secret values, and keeps a stored secret when an edit leaves it empty', async () => {
    const created = await dispatch(core.handlers, 'credentials:create', { name: 'backup-box', type: 'sftp', values: { host: 'backup.local', port: '2222', user: 'me', password: SECRET } });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const c = created.ok ? (created.value as Credential) : null;
    expect(c).toMatchObject({ name: 'backup-box', type: 'sftp', values: { host: 'backup.local', port: '2222', user: 'me' }, secretsSet: ['password'] });
    expect(JSON.stringify(created)).not.toContain(SECRET);

    const listed = await dispatch(core.handlers, 'credentials:list', {});
    expect(JSON.stringify(listed)).not.toContain(SECRET);

    // Same place (the host in other letters), another user: the stored password stays (moving it elsewhere does not: stored-secrets.test.ts).
    const edited = await dispatch(core.handlers, 'credentials:update', { id: c!.id, name: 'backup-box', type: 'sftp', values: { host: 'Backup.local', port: '2222', user: 'deploy', password: '' } });
    expect(edited.ok && (edited.value as Credential)).toMatchObject({ values: { host: 'Backup.local', user: 'deploy' }, secretsSet: ['password'] });
    // What the service holds (read with the workspace's own signed client, as core does).
    const local = (await dispatch(core.handlers, 'workspaces:list', {})) as { ok: true; value: Array<{ endpoint: string; authKey: string }> };
    const secret = await core.vault.get('local');
    const api = createApiClient({ endpoint: local.value[0]!.endpoint, authKey: local.value[0]!.authKey, getSecret: async () => secret });
    const stored = await api.request('GET', `/template_credentials/${c!.id}`);
    expect(stored.ok && (stored.value.credential as { content: Record<string, unknown> }).content).toEqual({ host: 'Backup.local', port: 2222, user: 'deploy', password: SECRET });

    const cleared = await dispatch(core.handlers, 'credentials:update', { id: c!.id, name: 'backup-box', type: 'sftp', values: {}, clear: ['password'] });
    expect(cleared.ok && (cleared.value as Credential).secretsSet).toEqual([]);

    expect((await dispatch(core.handlers, 'credentials:delete', { id: c!.id })).ok).toBe(true);
    const gone = await dispatch(core.handlers, 'credentials:update', { id: c!.id, name: 'backup-box', type: 'sftp', values: {} });
    expect(gone.ok ? null : gone.error.code).toBe('TEMPLATE_CREDENTIALS_NOT_READ');
    const badName = await dispatch(core.handlers, 'credentials:create', { name: 'x y', type: 'sftp', values: {} });
    expect(badName.ok ? null : badName.error.code).toBe('INVALID_IPC_REQUEST');
  });

  it('stores one value as content (the spec: any JSON value), never shows it, and keeps it on an empty edit', async () => {
    const TOKEN = 'sk-live-very-secret-token';
    const created = await dispatch(core.handlers, 'credentials:create', { name: 'api_token', type: 'http', values: {}, value: TOKEN });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const c = created.ok ? (created.value as Credential) : null;
    expect(c).toMatchObject({ name: 'api_token', contentKind: 'value', values: {}, secretsSet: [] });
    expect(JSON.stringify(created)).not.toContain(TOKEN);
    expect(JSON.stringify(await dispatch(core.handlers, 'credentials:list', {}))).not.toContain(TOKEN);

    const local = (await dispatch(core.handlers, 'workspaces:list', {})) as { ok: true; value: Array<{ endpoint: string; authKey: string }> };
    const secret = await core.vault.get('local');
    const api = createApiClient({ endpoint: local.value[0]!.endpoint, authKey: local.value[0]!.authKey, getSecret: async () => secret });
    const content = async () => {
      const r = await api.request('GET', `/template_credentials/${c!.id}`);
      return r.ok ? (r.value.credential as { content: unknown }).content : r;
    };
    expect(await content()).toBe(TOKEN);
    // Left empty on edit: kept. JSON text: that value.
    expect((await dispatch(core.handlers, 'credentials:update', { id: c!.id, name: 'api_token', type: 'http', values: {}, value: '' })).ok).toBe(true);
    expect(await content()).toBe(TOKEN);
    expect((await dispatch(core.handlers, 'credentials:update', { id: c!.id, name: 'api_token', type: 'http', values: {}, value: '["a", "b"]' })).ok).toBe(true);
    expect(await content()).toEqual(['a', 'b']);
    // Back to fields: the form's fields replace the one value.
    const fields = await dispatch(core.handlers, 'credentials:update', { id: c!.id, name: 'api_token', type: 'http', values: { url: 'https://x.example' } });
    expect(fields.ok && (fields.value as Credential)).toMatchObject({ contentKind: 'fields', values: { url: 'https://x.example' } });
    await dispatch(core.handlers, 'credentials:delete', { id: c!.id });
  });

  it('strips secrets by form, and by name for types without a form', () => {
    expect(toCredential({ id: '1', name: 'n', type: 's3', content: { bucket: 'b', key: 'AKIA', secret: 's' } })).toMatchObject({ values: { bucket: 'b', key: 'AKIA' }, secretsSet: ['secret'] });
    expect(toCredential({ id: '1', name: 'n', type: 'dropbox', content: { access_token: 't', folder: '/x' } })).toMatchObject({ values: { folder: '/x' }, secretsSet: ['access_token'] });
    expect(mergeCredentialContent('sftp', { password: 'old', host: 'a' }, { password: '', host: '' }, [])).toEqual({ password: 'old' });
  });
});
