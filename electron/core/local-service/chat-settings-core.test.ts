import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatSettingsView } from '../../../shared/ipc/chat-settings-models';
import type { Run } from '../../../shared/ipc/models';
import type { Result } from '../../../shared/result';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { until } from '../transfers/testing/engine-fixture';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';
import { CHAT_API_KEY_ACCOUNT } from './chat-settings';

// Core with the real embedded service, the real keyring (scripts/with-keyring.sh) and a real
// OpenAI-compatible model server on loopback: settings saved through core reach the service's /ai/chat.
const KEY = 'sk-chatcfg-7f3a1c';
const asked: { model: string; authorization: string | undefined }[] = [];
const modelAuth: (string | undefined)[] = [];
let releaseSlow: (() => void) | null = null;

const readBody = async (req: IncomingMessage): Promise<string> => {
  let s = '';
  for await (const chunk of req) s += String(chunk);
  return s;
};
const json = (res: ServerResponse, status: number, body: unknown) => void res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

/** Needs `Bearer KEY`; lists two models; answers chat completions (model "slow" waits for the test). */
const modelServer = createServer((req, res) => {
  if (req.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { error: { message: 'Invalid API key' } });
  if (req.method === 'GET' && req.url === '/v1/models') {
    modelAuth.push(req.headers.authorization);
    return json(res, 200, { object: 'list', data: [{ id: 'qwen2.5:0.5b', object: 'model' }, { id: 'llama3.2:1b', object: 'model' }] });
  }
  void readBody(req).then((raw) => {
    const body = JSON.parse(raw) as { model: string };
    asked.push({ model: body.model, authorization: req.headers.authorization });
    const answer = () => json(res, 200, { choices: [{ index: 0, message: { role: 'assistant', content: `Answered by ${body.model}.` } }] });
    if (body.model === 'slow')
      releaseSlow = () => {
        releaseSlow = null;
        answer();
      };
    else answer();
  });
});
/** Any other server: records whether a key reached it. */
const strangerAuth: (string | undefined)[] = [];
const stranger = createServer((req, res) => {
  strangerAuth.push(req.headers.authorization);
  if (req.url === '/html/models') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>Welcome</html>');
  if (req.url === '/hang/models') return; // never answers
  json(res, 200, { data: [{ id: 'other' }] });
});
const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

let dir = '';
let model = '';
let other = '';
let core: Core;
const secretStore = createKeyringSecretStore('assemblyline-chatcfg-test');
const open = (extra: Partial<Parameters<typeof createCore>[0]> = {}) =>
  createCore(testCorePorts(dir, { secretStore, ...extra }));

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-chatcfg-'));
  [model, other] = await Promise.all([listen(modelServer), listen(stranger)]);
  core = await open();
}, 60_000);
afterAll(async () => {
  releaseSlow?.();
  await core?.close();
  for (const s of [modelServer, stranger]) s.closeAllConnections();
  await Promise.all([modelServer, stranger].map((s) => new Promise((r) => s.close(r))));
  await secretStore.delete(CHAT_API_KEY_ACCOUNT).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const call = async <T>(channel: string, request: unknown): Promise<Result<T>> => (await dispatch(core.handlers, channel, request)) as Result<T>;
const settings = async () => {
  const view = await call<ChatSettingsView>('service:chatSettings', {});
  if (!view.ok) throw new Error(view.error.message);
  return view.value;
};

/** Uploads a text file with an /ai/chat step (the step's own `model` if given, and more step parameters) and returns the run. */
async function startChatRun(stepModel?: string, more: Record<string, unknown> = {}): Promise<Run> {
  const folder = path.join(dir, `in-${Date.now()}`);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'note.txt'), 'Harbour at dawn.\n');
  const scan = await call<{ files: unknown[] }>('files:scan', { handles: [core.files.register(folder)] });
  if (!scan.ok) throw new Error(scan.error.message);
  const steps = { ':original': { robot: '/upload/handle' }, asked: { robot: '/ai/chat', use: ':original', messages: 'Describe it.', format: 'text', ...(stepModel ? { model: stepModel } : {}), ...more } };
  const start = await call<Run>('runs:start', { files: scan.value.files, instructions: { steps } });
  if (!start.ok) throw new Error(start.error.message);
  return start.value;
}
async function finished(run: Run): Promise<Run> {
  const settled = await core.runs.settled(run.runId);
  if (!settled.ok) throw new Error(settled.error.message);
  return settled.value;
}

describe('the local service chat model, set through core', () => {
  it('starts unconfigured: a chat step fails with AI_CHAT_NOT_CONFIGURED', async () => {
    expect(await settings()).toEqual({ endpoint: '', model: '', timeoutMs: null, hasApiKey: false, toolServerHosts: [], toolServerHostsFromEnvironment: null, environment: null, pendingRestart: null });
    const run = await finished(await startChatRun());
    expect(JSON.stringify(run)).toContain('AI_CHAT_NOT_CONFIGURED');
  }, 60_000);

  it('"Test chat server" lists the models, or says why not (401, unreachable, not OpenAI-compatible, too slow)', async () => {
    const listed = await call<{ models: string[] }>('service:chatModels', { endpoint: `${model}/v1`, apiKey: KEY });
    expect(listed).toEqual({ ok: true, value: { models: ['llama3.2:1b', 'qwen2.5:0.5b'] } });
    const noKey = await call('service:chatModels', { endpoint: `${model}/v1/` });
    expect(noKey.ok || noKey.error).toMatchObject({ code: 'AI_CHAT_ENDPOINT_ERROR', httpCode: 401, message: expect.stringContaining('needs an API key') });
    const wrongKey = await call('service:chatModels', { endpoint: `${model}/v1/chat/completions`, apiKey: 'sk-wrong' });
    expect(wrongKey.ok || wrongKey.error).toMatchObject({ httpCode: 401, message: expect.stringContaining('the API key is not accepted') });
    const unreachable = await call('service:chatModels', { endpoint: `http://127.0.0.1:9/v1` });
    expect(unreachable.ok || unreachable.error).toMatchObject({ code: 'AI_CHAT_UNREACHABLE', message: expect.stringContaining('Is the model server running?') });
    const html = await call('service:chatModels', { endpoint: `${other}/html` });
    expect(html.ok || html.error).toMatchObject({ code: 'AI_CHAT_ENDPOINT_ERROR', message: expect.stringContaining('not as an OpenAI-compatible API') });
    const started = Date.now();
    const slow = await call('service:chatModels', { endpoint: `${other}/hang`, timeoutMs: 400 });
    expect(slow.ok || slow.error).toMatchObject({ code: 'AI_CHAT_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(3_000);
    const bad = await call('service:chatModels', { endpoint: 'ftp://example.com' });
    expect(bad.ok || bad.error).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
  }, 30_000);

  it('saves endpoint, model and key (key to the keyring only), restarts the service, and a chat step then completes', async () => {
    const pidBefore = core.localServicePid();
    const saved = await call<ChatSettingsView>('service:saveChatSettings', { endpoint: `${model}/v1`, model: 'qwen2.5:0.5b', timeoutMs: 30_000, apiKey: KEY });
    expect(saved).toEqual({
      ok: true,
      value: { endpoint: `${model}/v1`, model: 'qwen2.5:0.5b', timeoutMs: 30_000, hasApiKey: true, toolServerHosts: [], toolServerHostsFromEnvironment: null, environment: null, pendingRestart: null },
    });
    expect(JSON.stringify(saved)).not.toContain(KEY);
    expect(core.localServicePid()).not.toBe(pidBefore);
    expect(await core.vault.get(CHAT_API_KEY_ACCOUNT)).toBe(process.env.DBUS_SESSION_BUS_ADDRESS ? KEY : null);
    expect(await readFile(path.join(dir, 'data', 'chat-settings.json'), 'utf8')).not.toContain(KEY);

    const run = await finished(await startChatRun());
    expect(run.state).toBe('ASSEMBLY_COMPLETED');
    expect(asked.at(-1)).toEqual({ model: 'qwen2.5:0.5b', authorization: `Bearer ${KEY}` });
  }, 60_000);

  it('tests the saved endpoint with the stored key, but never sends that key to another endpoint', async () => {
    const stored = await call<{ models: string[] }>('service:chatModels', { endpoint: `${model}/v1/` });
    expect(stored.ok && stored.value.models).toContain('qwen2.5:0.5b');
    expect(modelAuth.at(-1)).toBe(`Bearer ${KEY}`);
    await call('service:chatModels', { endpoint: `${other}/v1` });
    expect(strangerAuth.at(-1)).toBeUndefined();
  });

  it('a new endpoint saved without a key drops the stored one: neither "Test chat server" nor a chat step sends it there', async () => {
    const saved = await call<ChatSettingsView>('service:saveChatSettings', { endpoint: `${other}/v1`, model: 'qwen2.5:0.5b', timeoutMs: 5_000 });
    expect(saved.ok && saved.value).toMatchObject({ endpoint: `${other}/v1`, hasApiKey: false });
    expect(await core.vault.get(CHAT_API_KEY_ACCOUNT)).toBeNull();
    const before = strangerAuth.length;
    await call('service:chatModels', { endpoint: `${other}/v1` });
    await finished(await startChatRun());
    // Both reached the new endpoint, and neither carried the key.
    expect(strangerAuth.length).toBeGreaterThanOrEqual(before + 2);
    expect(strangerAuth.slice(before)).toEqual(strangerAuth.slice(before).map(() => undefined));

    // The saved endpoint written another way (upper-case scheme, a trailing slash) keeps its key.
    const back = await call<ChatSettingsView>('service:saveChatSettings', { endpoint: `${model}/v1`, model: 'qwen2.5:0.5b', timeoutMs: 30_000, apiKey: KEY });
    expect(back.ok && back.value.hasApiKey).toBe(true);
    const respelled = await call<ChatSettingsView>('service:saveChatSettings', { endpoint: `${model.replace('http://', 'HTTP://')}/v1/`, model: 'qwen2.5:0.5b', timeoutMs: 30_000 });
    expect(respelled.ok && respelled.value.hasApiKey).toBe(true);
    const listed = await call<{ models: string[] }>('service:chatModels', { endpoint: `${model}/v1` });
    expect(listed.ok && listed.value.models).toContain('qwen2.5:0.5b');
    expect(modelAuth.at(-1)).toBe(`Bearer ${KEY}`);
    // The service restarts for these settings once the chat run above has ended there.
    await expect.poll(async () => (await settings()).pendingRestart, { timeout: 15_000 }).toBeNull();
  }, 90_000);

  it('saves "Tool servers may be on": the restarted service then calls tool servers only there (loopback no longer)', async () => {
    const bad = await call('service:saveChatSettings', { endpoint: `${model}/v1`, model: 'qwen2.5:0.5b', timeoutMs: 30_000, toolServerHosts: ['loopback', 'https://tools.example.com/mcp'] });
    expect(bad.ok || bad.error).toMatchObject({ code: 'INVALID_IPC_REQUEST', message: expect.stringContaining('"https://tools.example.com/mcp" is a URL, not a host: use tools.example.com') });
    const pidBefore = core.localServicePid();
    const saved = await call<ChatSettingsView>('service:saveChatSettings', { endpoint: `${model}/v1`, model: 'qwen2.5:0.5b', timeoutMs: 30_000, toolServerHosts: ['Tools.Example.com'] });
    expect(saved.ok && saved.value).toMatchObject({ toolServerHosts: ['tools.example.com'], pendingRestart: null });
    expect(core.localServicePid()).not.toBe(pidBefore);
    expect(JSON.parse(await readFile(path.join(dir, 'data', 'chat-settings.json'), 'utf8'))).toMatchObject({ toolServerHosts: ['tools.example.com'] });

    // The default would allow this loopback server; the saved list replaces the default.
    const before = strangerAuth.length;
    const run = await finished(await startChatRun(undefined, { mcp_servers: [{ type: 'http', url: `${other}/mcp` }] }));
    expect(JSON.stringify(run)).toContain('MCP_SERVER_HOST_NOT_ALLOWED');
    expect(JSON.stringify(run)).toContain('only on tools.example.com');
    expect(strangerAuth.length).toBe(before);
  }, 60_000);

  it('waits for an executing Assembly before it restarts for new settings, so it is not crashed', async () => {
    const run = await startChatRun('slow');
    await until(() => releaseSlow !== null, 30_000, 'the slow chat request');
    const release = releaseSlow!;
    const pidBefore = core.localServicePid();
    const saved = await call<ChatSettingsView>('service:saveChatSettings', { endpoint: `${model}/v1`, model: 'llama3.2:1b', timeoutMs: 30_000 });
    expect(saved.ok && saved.value).toMatchObject({ model: 'llama3.2:1b', hasApiKey: true, pendingRestart: { executing: 1 } });
    expect(core.localServicePid()).toBe(pidBefore);
    release();
    expect((await finished(run)).state).toBe('ASSEMBLY_COMPLETED');
    // Pending until the new service process listens: a process start, slow on a loaded machine.
    await expect.poll(async () => (await settings()).pendingRestart, { timeout: 45_000 }).toBeNull();
    expect(core.localServicePid()).not.toBe(pidBefore);
    expect((await core.handlers['service:status']({})).ok && core.localServiceUrl).toBeTruthy();
    // The restarted service runs the new model.
    const next = await finished(await startChatRun());
    expect(next.state).toBe('ASSEMBLY_COMPLETED');
    expect(asked.at(-1)?.model).toBe('llama3.2:1b');
  }, 120_000);

  it('keeps the settings across an app restart; ASSEMBLYLINE_CHAT_* win and are shown; Remove key deletes it', async () => {
    await core.close();
    core = await open({ localService: { chat: { endpoint: `${model}/v1`, model: 'from-env', apiKey: KEY } } });
    expect(await settings()).toEqual({
      endpoint: `${model}/v1`,
      model: 'llama3.2:1b',
      timeoutMs: 30_000,
      hasApiKey: Boolean(process.env.DBUS_SESSION_BUS_ADDRESS),
      // Kept across the app's restart (the environment decides the chat model now, so it does not apply).
      toolServerHosts: ['tools.example.com'],
      toolServerHostsFromEnvironment: null,
      environment: { endpoint: `${model}/v1`, model: 'from-env', timeoutMs: null, hasApiKey: true },
      pendingRestart: null,
    });
    const run = await finished(await startChatRun());
    expect(run.state).toBe('ASSEMBLY_COMPLETED');
    expect(asked.at(-1)?.model).toBe('from-env');

    // Saving while the environment decides changes what is kept, not what runs: no restart.
    const pid = core.localServicePid();
    const removed = await call<ChatSettingsView>('service:saveChatSettings', { endpoint: '', model: '', timeoutMs: null, removeApiKey: true });
    expect(removed.ok && removed.value).toMatchObject({ endpoint: '', hasApiKey: false, pendingRestart: null });
    expect(core.localServicePid()).toBe(pid);
    expect(await core.vault.get(CHAT_API_KEY_ACCOUNT)).toBeNull();
  }, 90_000);
});
