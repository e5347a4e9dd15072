// No lock-outs: the Local workspace always gets full access to its own service back, a restart never
// picks a narrower key in silence, any workspace can switch keys, and a secret is revealed only on request.
// Core's dispatch against the real embedded service (its own process) and a second real "remote" one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import type { Workspace } from '../../../shared/ipc/models';
import type { AuthKey } from '../../../shared/ipc/template-models';
import type { KeyChoice } from '../../../shared/ipc/workspace-models';
import type { Result } from '../../../shared/result';
import { createCore, type Core, type CorePorts } from '../create-core';
import { callCore, testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';

let dir = '';
let core: Core;
let remote: LocalService;

const startCore = (extra: Partial<CorePorts> = {}) =>
  createCore(
    testCorePorts(dir, {
      secretStore: createKeyringSecretStore('assemblyline-local-access-test'),
      desktop: createRecordingDesktop(undefined, { clipboard: false }),
      ...extra,
    }),
  );

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-access-'));
  remote = await startLocalService({ dataDir: path.join(dir, 'remote-service') });
  core = await startCore();
}, 60_000);
afterAll(async () => {
  await core?.close();
  await remote?.close();
  await rm(dir, { recursive: true, force: true });
});

const answer = (channel: string, request: unknown = {}) => dispatch(core.handlers, channel, request) as Promise<Result<unknown>>;
const call = <T>(channel: string, request: unknown = {}): Promise<T> => callCore<T>(core, channel, request);
const local = async () => (await call<Workspace[]>('workspaces:list')).find((w) => w.id === 'local')!;
const keys = () => call<AuthKey[]>('authKeys:list', { workspaceId: 'local' });

describe('the Local workspace cannot lock itself out', () => {
  let own = '';
  let narrow: AuthKey;

  it('deactivating its own key locks Local out; Restore full access reactivates that key', async () => {
    own = (await local()).authKey;
    narrow = await call<AuthKey>('authKeys:create', { workspaceId: 'local', description: 'uploads only', scopes: ['assemblies:write', 'templates:read'] });
    const ownId = (await keys()).find((k) => k.authKey === own)!.id;
    await call('authKeys:update', { workspaceId: 'local', id: ownId, isActive: false });

    const locked = await answer('authKeys:list', { workspaceId: 'local' });
    expect(locked.ok ? null : locked.error.code).toBe('AUTH_KEY_INACTIVE');
    expect((await local()).accessProblem).toMatch(/The key Local signs with .* is inactive/);
    // Even locked out, Local lists the keys it may switch to (through the service's own process).
    const choices = await call<KeyChoice[]>('workspaces:keyChoices', { id: 'local' });
    expect(choices.map((c) => [c.authKey, c.isActive, c.fullScope])).toEqual([
      [own, false, true],
      [narrow.authKey, true, false],
    ]);
    expect(JSON.stringify(choices)).not.toMatch(/secret/i);

    const restored = await call<{ action: string; authKey: string }>('workspaces:restoreLocalAccess');
    expect(restored).toEqual({ action: 'reactivated', authKey: own, scopeLimitLifted: false });
    expect((await keys()).find((k) => k.authKey === own)?.isActive).toBe(true);
    expect((await local()).accessProblem).toBeNull();
  });

  it('after a restart with its key inactive, Local keeps the full-access key and says why, never the narrower one', async () => {
    const ownId = (await keys()).find((k) => k.authKey === own)!.id;
    await call('authKeys:update', { workspaceId: 'local', id: ownId, isActive: false });
    await core.close();
    core = await startCore();

    const w = await local();
    expect(w.authKey).toBe(own);
    expect(w.accessProblem).toMatch(/full-access key .* is inactive/);
    const locked = await answer('authKeys:list', { workspaceId: 'local' });
    expect(locked.ok ? null : locked.error.code).toBe('AUTH_KEY_INACTIVE');

    expect((await call<{ action: string }>('workspaces:restoreLocalAccess')).action).toBe('reactivated');
    expect((await local()).accessProblem).toBeNull();
    expect((await keys()).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('switches Local to another key, keeps that choice across a restart, and refuses an inactive one', async () => {
    const switched = await call<Workspace>('workspaces:switchKey', { id: 'local', keyId: narrow.id });
    expect(switched.authKey).toBe(narrow.authKey);
    // The narrower key signs now: Auth Keys needs a scope it lacks.
    const refused = await answer('authKeys:list', { workspaceId: 'local' });
    expect(refused.ok ? null : refused.error.code).toBe('INSUFFICIENT_AUTH_SCOPE');

    await core.close();
    core = await startCore();
    expect((await local()).authKey).toBe(narrow.authKey);
    expect((await local()).accessProblem).toBeNull();

    const typed = await answer('workspaces:switchKey', { id: 'local', authKey: 'abc', authSecret: 'def' });
    expect(typed.ok ? null : typed.error.code).toBe('INVALID_IPC_REQUEST');
    const ownId = (await call<KeyChoice[]>('workspaces:keyChoices', { id: 'local' })).find((k) => k.authKey === own)!.id;
    await call('workspaces:restoreLocalAccess');
    expect((await local()).authKey).toBe(own);
    expect((await local()).accessProblem).toBeNull();
    expect(ownId).toBeTruthy();
  }, 60_000);

  it("Restore full access also lifts a limit on Local's token scopes", async () => {
    await call('workspaces:save', { id: 'local', name: 'Local', endpoint: (await local()).endpoint, authKey: (await local()).authKey, authMode: 'bearer', tokenScopes: ['assemblies:read'] });
    expect((await local()).tokenScopes).toEqual(['assemblies:read']);
    // With tokens limited to assemblies:read, the Templates screen is locked out.
    const before = await answer('templates:list', {});
    expect(before.ok ? null : before.error.code).toBe('INSUFFICIENT_AUTH_SCOPE');
    const restored = await call<{ scopeLimitLifted: boolean }>('workspaces:restoreLocalAccess');
    expect(restored.scopeLimitLifted).toBe(true);
    expect((await local()).tokenScopes).toBeNull();
    expect((await local()).authMode).toBe('bearer');
    expect((await answer('templates:list', {})).ok).toBe(true);
    await call('workspaces:save', { id: 'local', name: 'Local', endpoint: (await local()).endpoint, authKey: (await local()).authKey, authMode: 'signature', tokenScopes: null });
  }, 60_000);

  it('with every full-access key gone, Restore full access creates one', async () => {
    // An admin key without every scope deletes the original (a key cannot delete itself).
    const admin = await call<AuthKey>('authKeys:create', { workspaceId: 'local', description: 'admin', scopes: ['auth_keys:read', 'auth_keys:write', 'templates:read'] });
    await call('workspaces:switchKey', { id: 'local', keyId: admin.id });
    const ownId = (await keys()).find((k) => k.authKey === own)!.id;
    await call('authKeys:delete', { workspaceId: 'local', id: ownId });

    const restored = await call<{ action: string; authKey: string }>('workspaces:restoreLocalAccess');
    expect(restored.action).toBe('created');
    const made = (await keys()).find((k) => k.authKey === restored.authKey)!;
    expect(made).toMatchObject({ isActive: true, scopes: null, description: expect.stringMatching(/restored by the app/) });
    expect((await local()).authKey).toBe(restored.authKey);
  }, 60_000);
});

describe('secrets on request', () => {
  it('Copy secret answers CLIPBOARD_UNAVAILABLE where there is no clipboard; Reveal returns the secret of that key only', async () => {
    const key = await call<AuthKey>('authKeys:create', { workspaceId: 'local', description: 'for reveal', scopes: ['templates:read'] });
    const copied = await answer('authKeys:copySecret', { workspaceId: 'local', id: key.id });
    expect(copied.ok ? null : copied.error.code).toBe('CLIPBOARD_UNAVAILABLE');
    expect(copied.ok ? '' : copied.error.message).toMatch(/Reveal/);

    const revealed = await call<{ authKey: string; secret: string }>('authKeys:revealSecret', { workspaceId: 'local', id: key.id });
    expect(revealed.authKey).toBe(key.authKey);
    expect(revealed.secret).toMatch(/^[0-9a-f]{40}$/);
    const unknown = await answer('authKeys:revealSecret', { workspaceId: 'local', id: 'f'.repeat(32) });
    expect(unknown.ok ? null : unknown.error.code).toBe('AUTH_KEYS_NOT_FOUND');
  });
});

describe('a remote workspace switches keys only to one that works', () => {
  it('refuses a wrong secret (the workspace keeps working) and switches to a chosen key after proving it', async () => {
    const saved = await call<Workspace>('workspaces:save', { name: 'Remote', endpoint: remote.url, authKey: remote.authKey, authSecret: remote.authSecret });
    const other = await call<AuthKey>('authKeys:create', { workspaceId: saved.id, description: 'second', scopes: null });

    const wrong = await answer('workspaces:switchKey', { id: saved.id, authKey: other.authKey, authSecret: 'not-the-secret' });
    expect(wrong.ok ? null : wrong.error.code).toBe('INVALID_SIGNATURE');
    expect(wrong.ok ? '' : wrong.error.message).toMatch(/^Not switched/);
    expect((await call<Workspace[]>('workspaces:list')).find((w) => w.id === saved.id)?.authKey).toBe(remote.authKey);

    const choices = await call<KeyChoice[]>('workspaces:keyChoices', { id: saved.id });
    expect(choices.map((c) => c.authKey)).toContain(other.authKey);
    const switched = await call<Workspace>('workspaces:switchKey', { id: saved.id, keyId: other.id });
    expect(switched.authKey).toBe(other.authKey);
    // It signs with the new key now: the old one can be deactivated without locking this workspace out.
    const oldId = (await call<AuthKey[]>('authKeys:list', { workspaceId: saved.id })).find((k) => k.authKey === remote.authKey)!.id;
    await call('authKeys:update', { workspaceId: saved.id, id: oldId, isActive: false });
    expect((await call<AuthKey[]>('authKeys:list', { workspaceId: saved.id })).length).toBe(2);
  }, 60_000);
});
