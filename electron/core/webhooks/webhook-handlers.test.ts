// The webhook tester, notification replays and the embedded service's notify options, through core's
// dispatch against the real embedded local service (its own process) and real HTTP receivers.
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssemblyNotifications, NotificationReplay } from '../../../shared/ipc/assembly-models';
import type { Workspace } from '../../../shared/ipc/models';
import type { ReceivedWebhook, WebhookTester } from '../../../shared/ipc/webhook-models';
import { createApiClient, type ApiClient } from '../api/api-client';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { channelCaller } from '../ipc/dispatch-testing';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';

let dir = '';
let core: Core;
let api: ApiClient;
let flaky: Server;
let flakyUrl = '';
let flakyCalls = 0;
const webhooks: ReceivedWebhook[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-webhooks-'));
  core = await createCore(
    testCorePorts(dir, {
      secretStore: createKeyringSecretStore('assemblyline-webhooks-test'),
      // Short retries: they reach the service's own process through the start message.
      localService: { notifications: { retryDelaysMs: [300, 300, 300] } },
    }),
  );
  core.onEvent((name, payload) => {
    if (name === 'webhooks:received') webhooks.push(payload as ReceivedWebhook);
  });
  const local = await dispatch(core.handlers, 'workspaces:list', {});
  const authKey = local.ok ? (local.value as Workspace[])[0]!.authKey : '';
  // Run with scripts/with-keyring.sh: the test signs its own requests with the secret core keeps in the vault.
  api = createApiClient({ endpoint: core.localServiceUrl!, authKey, getSecret: () => core.vault.get('local') });
  // Fails twice, then answers 200.
  flaky = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      flakyCalls += 1;
      if (flakyCalls <= 2) res.writeHead(500).end('not yet');
      else res.writeHead(200).end('third time');
    });
  });
  await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
  flakyUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/flaky`;
}, 60_000);
afterAll(async () => {
  await core.close();
  flaky.close();
  await rm(dir, { recursive: true, force: true });
});

const { call, failure } = channelCaller(() => core.handlers);
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}
async function create(notifyUrl: string): Promise<string> {
  const made = await api.createAssembly({
    instructions: { steps: { ':original': { robot: '/upload/handle' } }, notify_url: notifyUrl },
    expectedUploads: 0,
    files: [{ field: 'file', name: 'note.txt', data: new Blob(['hello'], { type: 'text/plain' }) }],
  });
  if (!made.ok) throw new Error(made.error.message);
  return made.value.assembly_id!;
}

describe('notifications in core', () => {
  let tester: WebhookTester;
  let first = '';

  it('receives a notification at the in-app tester, verified with the Local key secret', async () => {
    tester = await call<WebhookTester>('webhooks:start', {});
    expect(tester.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook$/);
    // Started once: a second start answers the same URL.
    expect((await call<WebhookTester>('webhooks:start', {})).url).toBe(tester.url);
    first = await create(tester.url!);
    const got = await until(() => webhooks.find((w) => w.assemblyId === first), (w) => w !== undefined);
    expect(got).toMatchObject({ ok: 'ASSEMBLY_COMPLETED', problem: null, verification: { verified: true, algorithm: 'sha1', reason: 'ok', workspaceId: 'local' } });
    expect(got!.payloadBytes).toBeGreaterThan(100);
    expect(JSON.parse(got!.payload!)).toMatchObject({ assembly_id: first });
    expect((await call<WebhookTester>('webhooks:list', {})).received[0]!.id).toBe(got!.id);
  });

  it('says why a webhook is not verified: wrong signature, unknown prefix, none, not a form', async () => {
    const post = (body: string | FormData, type: string) => fetch(tester.url!, { method: 'POST', body, headers: { 'content-type': type } });
    const status = JSON.stringify({ ok: 'ASSEMBLY_COMPLETED', assembly_id: 'a'.repeat(32) });
    const wrong = createHmac('sha1', 'not the secret').update(status).digest('hex');
    await post(new URLSearchParams({ transloadit: status, signature: wrong }).toString(), 'application/x-www-form-urlencoded');
    await post(new URLSearchParams({ transloadit: status, signature: `md5:${wrong}` }).toString(), 'application/x-www-form-urlencoded');
    const form = new FormData();
    form.set('transloadit', status);
    await post(form, 'multipart/form-data'); // no boundary in the type: unreadable
    const multipart = new FormData();
    multipart.set('transloadit', status);
    await fetch(tester.url!, { method: 'POST', body: multipart });
    await post('{"ok":1}', 'application/json');
    const list = (await call<WebhookTester>('webhooks:list', {})).received;
    expect(list[0]).toMatchObject({ payload: null, problem: expect.stringContaining('Not a form body') });
    expect(list[1]).toMatchObject({ assemblyId: 'a'.repeat(32), verification: { verified: false, reason: 'missing' } });
    expect(list[2]).toMatchObject({ problem: expect.stringContaining('could not be parsed') });
    expect(list[3]).toMatchObject({ verification: { verified: false, reason: 'unknown-algorithm', algorithm: 'md5' } });
    expect(list[4]).toMatchObject({ verification: { verified: false, reason: 'mismatch', message: expect.stringContaining('Local (this computer)') } });
    // Nothing secret crossed: the outcome only.
    const secret = (await core.vault.get('local')) ?? 'no-vault';
    expect(JSON.stringify(list)).not.toContain(secret);
    expect((await call<WebhookTester>('webhooks:clear', {})).received).toEqual([]);
  });

  it('replays a notification to another URL at once, and the service retries a failing receiver with the short delays', async () => {
    const replay = await call<NotificationReplay>('assemblies:replayNotification', { assemblyId: first, notifyUrl: flakyUrl });
    expect(replay).toMatchObject({ success: false, queued: false, notifyUrl: flakyUrl, responseCode: 500, responseData: 'not yet' });
    const notes = await until(
      () => call<AssemblyNotifications>('assemblies:notifications', { assemblyId: first }),
      (n) => n.attempts.some((a) => a.url === flakyUrl && a.successful),
      10_000,
    );
    const toFlaky = notes.attempts.filter((a) => a.url === flakyUrl);
    expect(toFlaky.map((a) => a.responseCode)).toEqual([500, 500, 200]);
    expect(toFlaky.every((a) => a.replay)).toBe(true);
    // The stored notify_url stays the tester's.
    expect(notes.notifyUrl).toBe(tester.url);

    const again = await call<NotificationReplay>('assemblies:replayNotification', { assemblyId: first });
    expect(again).toMatchObject({ success: true, responseCode: 200, notifyUrl: tester.url });
    const queued = await call<NotificationReplay>('assemblies:replayNotification', { assemblyId: first, wait: false });
    expect(queued).toMatchObject({ success: true, queued: true });
  });

  it("passes the service's refusals on with their codes", async () => {
    expect(await failure('assemblies:replayNotification', { assemblyId: first, notifyUrl: 'ftp://nope' })).toMatchObject({ code: 'ASSEMBLY_INVALID_NOTIFY_URL' });
    expect(await failure('assemblies:replayNotification', { assemblyId: 'b'.repeat(32) })).toMatchObject({ code: 'ASSEMBLY_NOT_FOUND' });
    expect(await failure('assemblies:replayNotification', { assemblyId: 'not-an-id' })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
  });
});
