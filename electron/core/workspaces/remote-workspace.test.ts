// Remote workspaces, Bearer tokens, the connection test, copying a secret and key rotation, through
// core's dispatch against two real local services (the embedded one and a second "remote" one).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import type { Workspace } from '../../../shared/ipc/models';
import type { AuthKey } from '../../../shared/ipc/template-models';
import type { ConnectionReport, Rotation } from '../../../shared/ipc/workspace-models';
import { createApiClient } from '../api/api-client';
import { createCore, type Core, type CorePorts } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { channelCaller } from '../ipc/dispatch-testing';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';
import { startRecordingListener } from '../security/testing/recording-listener';
import { createUnavailableSecretStore } from '../vault/unavailable-secret-store';

let dir = '';
let core: Core;
let remote: LocalService;
const desktop = createRecordingDesktop();

/** A core on a data dir under the test folder, with the keyring, the recording desktop and `extra`. */
const startCore = (dataDir: string, extra: Partial<CorePorts> = {}) =>
  createCore(testCorePorts(dir, { dataDir: path.join(dir, dataDir), secretStore: createKeyringSecretStore('assemblyline-remote-test'), desktop, ...extra }));

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-remote-'));
  remote = await startLocalService({ dataDir: path.join(dir, 'remote-service') });
  core = await startCore('data', { clipboardClearMs: 300 });
}, 60_000);
afterAll(async () => {
  await core.close();
  await remote.close();
  await rm(dir, { recursive: true, force: true });
});

const { call, failure } = channelCaller(() => core.handlers);
const remoteDraft = (over: Record<string, unknown> = {}) => ({ name: 'Second', endpoint: remote.url, authKey: remote.authKey, authSecret: remote.authSecret, slug: 'second', ...over });
/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const check = (report: ConnectionReport, id: string) => report.checks.find((c) => c.id === id);

/** Every file core wrote, as text, to prove no secret sits on disk in plain text. */
async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && (await stat(full)).size < 50_000_000) out.push(await readFile(full, 'latin1'));
  }
  return out;
}

describe('remote workspaces', () => {
  it('tests a connection and says exactly what is wrong', async () => {
    const good = await call<ConnectionReport>('workspaces:test', { draft: remoteDraft() });
    expect(good.ok, JSON.stringify(good)).toBe(true);
    expect(check(good, 'scopes')?.status).toBe('ok');

    const closed = await closedPort();
    const unreachable = await call<ConnectionReport>('workspaces:test', { draft: remoteDraft({ endpoint: `http://127.0.0.1:${closed}` }) });
    expect(check(unreachable, 'reach')).toMatchObject({ status: 'fail', code: 'NETWORK_ERROR' });
    expect(check(unreachable, 'reach')?.message).toContain(`Cannot reach http://127.0.0.1:${closed}: ECONNREFUSED`);

    // Any other server: what it answered is described, never repeated (the page chooses the address).
    const page = await startRecordingListener({ answer: 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 42\r\nConnection: close\r\n\r\n<html>router admin pw=hunter2-admin</html>' });
    try {
      const notApi = await call<ConnectionReport>('workspaces:test', { draft: remoteDraft({ endpoint: `http://127.0.0.1:${page.port}` }) });
      expect(check(notApi, 'key')).toMatchObject({ status: 'fail', message: 'The address answered success (HTTP 200), but not as the Media Processing API (no JSON): check the endpoint.' });
      expect(JSON.stringify(notApi)).not.toContain('hunter2');
    } finally {
      await page.close();
    }

    const unknownKey = await call<ConnectionReport>('workspaces:test', { draft: remoteDraft({ authKey: 'nobody' }) });
    expect(check(unknownKey, 'key')).toMatchObject({ status: 'fail', code: 'GET_ACCOUNT_UNKNOWN_AUTH_KEY' });

    const badSecret = await call<ConnectionReport>('workspaces:test', { draft: remoteDraft({ authSecret: 'not-the-secret' }) });
    expect(check(badSecret, 'key')?.status).toBe('ok');
    expect(check(badSecret, 'secret')).toMatchObject({ status: 'fail', code: 'INVALID_SIGNATURE' });
    expect(badSecret.ok).toBe(false);
  });

  it('adds, switches to, edits and removes a workspace; the secret never comes back', async () => {
    const missingSecret = await failure('workspaces:save', { ...remoteDraft(), authSecret: '' });
    expect(missingSecret?.message).toMatch(/Auth Secret is required/);
    const added = await call<Workspace>('workspaces:save', remoteDraft());
    expect(added).toMatchObject({ name: 'Second', kind: 'remote', hasSecret: true, authMode: 'signature' });
    expect(JSON.stringify(added)).not.toContain(remote.authSecret);
    await call('workspaces:activate', { id: added.id });
    const templates = await call<{ count: number }>('templates:list', {});
    expect(templates.count).toBe(0);
    // Edit without retyping the secret keeps the stored one.
    const renamed = await call<Workspace>('workspaces:save', { ...remoteDraft({ name: 'Second (renamed)', authSecret: '' }), id: added.id });
    expect(renamed.name).toBe('Second (renamed)');
    expect((await call<ConnectionReport>('workspaces:test', { id: added.id })).ok).toBe(true);
    // The same endpoint written another way (scheme case, a trailing slash) is the same place: the stored secret serves.
    const respelled = await call<ConnectionReport>('workspaces:test', { id: added.id, draft: { ...remoteDraft({ endpoint: `${remote.url.replace('http://', 'HTTP://')}/` }), authSecret: undefined } });
    expect(respelled.ok, JSON.stringify(respelled)).toBe(true);
    // The stored secret never travels to an endpoint the page names: testing or saving elsewhere needs it typed.
    const seen: string[] = [];
    const listener = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('latin1')));
      req.on('end', () => {
        seen.push(`${req.url} ${req.headers.authorization ?? ''} ${body}`);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const elsewhereUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
      const elsewhere = await call<ConnectionReport>('workspaces:test', { id: added.id, draft: { ...remoteDraft({ endpoint: elsewhereUrl, authMode: 'bearer' }), authSecret: undefined } });
      expect(check(elsewhere, 'secret')).toMatchObject({ status: 'fail' });
      expect(seen.length).toBeGreaterThan(0);
      const basic = Buffer.from(`${remote.authKey}:${remote.authSecret}`).toString('base64');
      for (const request of seen) expect(request.includes(remote.authSecret) || request.includes(basic)).toBe(false);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
    const moved = await failure('workspaces:save', { ...remoteDraft({ endpoint: 'https://other.example', authSecret: '' }), id: added.id });
    expect(moved?.message).toMatch(/Type the Auth Secret again/);
    const listed = await call<Workspace[]>('workspaces:list', {});
    expect(listed.map((w) => w.id)).toEqual(['local', added.id]);
    expect(JSON.stringify(listed)).not.toContain(remote.authSecret);
    await call('workspaces:remove', { id: added.id });
    expect((await call<Workspace[]>('workspaces:list', {})).map((w) => w.id)).toEqual(['local']);
    expect((await call<{ activeWorkspaceId: string }>('app:info', {})).activeWorkspaceId).toBe('local');
  });

  it('Bearer mode mints narrow tokens; a token limit without a scope makes that screen fail with the reason', async () => {
    const ws = await call<Workspace>('workspaces:save', remoteDraft({ name: 'Tokens', authMode: 'bearer', tokenScopes: ['templates:read', 'templates:write'] }));
    const report = await call<ConnectionReport>('workspaces:test', { id: ws.id });
    expect(check(report, 'token')).toMatchObject({ status: 'ok' });
    expect(check(report, 'scopes')).toMatchObject({ status: 'warn', code: 'INSUFFICIENT_AUTH_SCOPE' });
    expect(check(report, 'scopes')?.message).toMatch(/auth_keys:read \(Auth Keys\)/);
    expect(check(report, 'scopes')?.message).toMatch(/billing:read \(Usage\)/);

    const created = await call<{ id: string }>('templates:create', { workspaceId: ws.id, name: 'Via token', content: { steps: { ':original': { robot: '/upload/handle' } } } });
    expect(created.id).toBeTruthy();
    const denied = await failure('authKeys:list', { workspaceId: ws.id });
    expect(denied).toMatchObject({ code: 'INSUFFICIENT_AUTH_SCOPE', httpCode: 403 });
    expect(denied?.message).toMatch(/auth_keys:read/);

    // Without a limit, each request gets a token for exactly its scope.
    await call('workspaces:save', { ...remoteDraft({ name: 'Tokens', authMode: 'bearer', tokenScopes: null, authSecret: '' }), id: ws.id });
    expect((await call<AuthKey[]>('authKeys:list', { workspaceId: ws.id })).length).toBeGreaterThan(0);
    // A whole run works on tokens: create (assemblies:write), upload (tus), watch, to the end.
    const file = path.join(dir, 'note.txt');
    await writeFile(file, 'hello over a bearer token');
    const scan = await core.handlers['files:scan']({ handles: [core.files.register(file)] });
    const started = await dispatch(core.handlers, 'runs:start', {
      workspaceId: ws.id,
      files: scan.ok ? scan.value.files : [],
      instructions: { steps: { ':original': { robot: '/upload/handle' } } },
    });
    expect(started.ok, JSON.stringify(started)).toBe(true);
    const settled = await core.runs.settled((started.ok && (started.value as { runId: string }).runId) || '');
    expect(settled.ok && settled.value.state).toBe('ASSEMBLY_COMPLETED');

    await call('workspaces:remove', { id: ws.id });
  });

  it('copies a key secret to the clipboard from core and clears it after a while', async () => {
    const keys = await call<AuthKey[]>('authKeys:list', {});
    const answer = await call<{ clearsInSeconds: number }>('authKeys:copySecret', { id: keys[0]!.id });
    expect(answer).toEqual({ clearsInSeconds: 0 });
    const copied = await desktop.readClipboard();
    expect(copied.length).toBeGreaterThan(10);
    expect(JSON.stringify(answer)).not.toContain(copied);
    await new Promise((r) => setTimeout(r, 600));
    expect(await desktop.readClipboard()).toBe('');
  });

  it('signs a CDN URL in core that the service serves', async () => {
    const keys = await call<AuthKey[]>('authKeys:list', {});
    const plain = keys[0]!;
    const notAllowed = await failure('cdn:sign', { keyId: plain.id, workspaceSlug: 'local', template: 't', input: 'a/b.jpg', expiresInSeconds: 60 });
    expect(notAllowed?.code).toBe('CDN_AUTH_KEY_NOT_ALLOWED');
    const cdnKey = await call<AuthKey>('authKeys:create', { description: 'CDN', smartCdn: true });
    expect(cdnKey.signatureAlgo ?? 'sha256').toBe('sha256');
    // Allowed for the CDN but scoped without smart_cdn:sign: core says so instead of signing URLs the service refuses.
    const scoped = await call<AuthKey>('authKeys:create', { description: 'CDN, narrow', smartCdn: true, scopes: ['assemblies:read'] });
    const noScope = await failure('cdn:sign', { keyId: scoped.id, workspaceSlug: 'local', template: 't', input: 'a/b.jpg', expiresInSeconds: 60 });
    expect(noScope?.code).toBe('CDN_AUTH_KEY_NOT_ALLOWED');
    expect(noScope?.message).toContain('(assemblies:read) without smart_cdn:sign');
    const signed = await call<{ url: string }>('cdn:sign', { keyId: cdnKey.id, workspaceSlug: 'local', template: 'thumbs', input: 'x/y.jpg', params: { w: '100' }, expiresInSeconds: 60 });
    expect(signed.url).toMatch(/\/file\/local\/thumbs\/x%2Fy\.jpg\?auth_key=.*&exp=\d+&w=100&sig=sha256%3A[0-9a-f]{64}$/);
    const served = await fetch(signed.url);
    // No Template "thumbs": the signature passed and the service says what is missing.
    expect(served.status).toBe(404);
    // Core fetches it for the screen's preview and hands on the service's code; other addresses are refused.
    const preview = await call<{ status: number; error: { code: string } | null; dataUrl: string | null }>('cdn:preview', { url: signed.url });
    expect(preview).toMatchObject({ status: 404, error: { code: 'TEMPLATE_NOT_FOUND' }, dataUrl: null });
    expect((await failure('cdn:preview', { url: 'http://127.0.0.1:9/anything' }))?.code).toBe('CDN_PREVIEW_URL_REFUSED');
    const tampered = await fetch(signed.url.replace('w=100', 'w=101'));
    expect(tampered.status).toBe(403);
  });

  it('rolls back a rotation interrupted after the switch: the old key is back and the new one gone', async () => {
    const stopping = await startCore('data2', { rotationStopAfter: 'deactivate-old' });
    try {
      const saved = await dispatch(stopping.handlers, 'workspaces:save', remoteDraft({ name: 'Rollback' }));
      const id = saved.ok ? (saved.value as Workspace).id : '';
      const stopped = await dispatch(stopping.handlers, 'rotations:start', { workspaceId: id });
      const r = stopped.ok ? (stopped.value as Rotation) : null;
      expect(r?.completed).toContain('deactivate-old');
      const rolled = await dispatch(stopping.handlers, 'rotations:rollback', { id: r!.id });
      expect(rolled.ok && rolled.value).toMatchObject({ state: 'rolled-back' });
      const w = await dispatch(stopping.handlers, 'workspaces:list', {});
      expect(w.ok && (w.value as Workspace[]).find((x) => x.id === id)?.authKey).toBe(remote.authKey);
      const keys = await dispatch(stopping.handlers, 'authKeys:list', { workspaceId: id });
      const list = keys.ok ? (keys.value as AuthKey[]) : [];
      expect(list.find((k) => k.authKey === remote.authKey)?.isActive).toBe(true);
      expect(list.find((k) => k.authKey === r!.newKey)).toBeUndefined();
    } finally {
      await stopping.close();
    }
  });

  it('rotates a key: interrupted, resumed, old key refused, the app keeps working; then rolls another back', async () => {
    const ws = await call<Workspace>('workspaces:save', remoteDraft({ name: 'Rotating' }));
    const oldKey = ws.authKey;
    const oldClient = createApiClient({ endpoint: remote.url, authKey: oldKey, getSecret: async () => remote.authSecret, maxRetries: 0 });

    const stopping = await startCore('data', { rotationStopAfter: 'verify' });
    const started = await dispatch(stopping.handlers, 'rotations:start', { workspaceId: ws.id });
    await stopping.close();
    expect(started.ok && started.value).toMatchObject({ state: 'interrupted', completed: ['create-key', 'store-secret', 'verify'] });

    // The main core reads the log afresh: the interrupted rotation is listed and resumes.
    const reopened = await startCore('data');
    try {
      const listed = await dispatch(reopened.handlers, 'rotations:list', {});
      const pending = listed.ok ? (listed.value as Rotation[]).find((r) => r.workspaceId === ws.id) : undefined;
      expect(pending?.state).toBe('interrupted');
      const again = await dispatch(reopened.handlers, 'rotations:start', { workspaceId: ws.id });
      expect(again.ok ? null : again.error.code).toBe('ROTATION_IN_PROGRESS');
      const resumed = await dispatch(reopened.handlers, 'rotations:resume', { id: pending!.id });
      const done = resumed.ok ? (resumed.value as Rotation) : null;
      expect(done).toMatchObject({ state: 'done', oldKey });
      expect(done!.log.map((l) => l.message).join('\n')).toMatch(/Deactivated/);

      const oldAttempt = await oldClient.request('GET', '/templates');
      expect(oldAttempt.ok ? null : oldAttempt.error.code).toBe('AUTH_KEY_INACTIVE');
      const nowUsing = await dispatch(reopened.handlers, 'workspaces:list', {});
      expect(nowUsing.ok && (nowUsing.value as Workspace[]).find((w) => w.id === ws.id)?.authKey).toBe(done!.newKey);
      const stillWorks = await dispatch(reopened.handlers, 'templates:list', { workspaceId: ws.id });
      expect(stillWorks.ok).toBe(true);
      const deleted = await dispatch(reopened.handlers, 'rotations:deleteOldKey', { id: done!.id });
      expect(deleted.ok && (deleted.value as Rotation).oldKeyDeleted).toBe(true);
    } finally {
      await reopened.close();
    }
  });

  it('without a keychain, refuses to store a secret and writes none to disk', async () => {
    const plainDir = path.join(dir, 'no-keyring');
    const bare = await startCore('no-keyring', { secretStore: createUnavailableSecretStore('No Secret Service on this machine.') });
    try {
      const refused = await dispatch(bare.handlers, 'workspaces:save', remoteDraft({ name: 'Nowhere to keep it' }));
      expect(refused.ok ? null : refused.error).toMatchObject({ code: 'VAULT_UNAVAILABLE' });
      expect(refused.ok ? '' : refused.error.message).toMatch(/never writes secrets to disk in plain text/);
      const listed = await dispatch(bare.handlers, 'workspaces:list', {});
      expect(listed.ok && (listed.value as Workspace[]).map((w) => w.name)).toEqual(['Local (this computer)']);
    } finally {
      await bare.close();
    }
    for (const text of await filesUnder(plainDir)) expect(text.includes(remote.authSecret)).toBe(false);
  });

  it('keeps no secret in plain text on disk', async () => {
    const texts = await filesUnder(path.join(dir, 'data'));
    for (const t of texts) expect(t.includes(remote.authSecret)).toBe(false);
  });
});
