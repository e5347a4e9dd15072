// The chat API key goes only to the endpoint it was saved with, over generated endpoints: the real
// `service:chatModels` and `service:saveChatSettings` handlers (requests parsed by the contract), the
// settings kept in a real keyring (scripts/with-keyring.sh), and TCP listeners on loopback recording every
// byte. An endpoint that names the saved place gets the key; any other never receives it, and saving one
// without a key leaves none stored.
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handlers } from '../ipc/handlers';
import { dispatch } from '../ipc/dispatch';
import type { HandlerContext } from '../handlers/context';
import { createServiceHandlers } from '../handlers/service-handlers';
import { startRecordingListener, type RecordingListener } from '../security/testing/recording-listener';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';
import { createVault } from '../vault/vault';
import { CHAT_API_KEY_ACCOUNT, openChatSettings, type ChatSettingsStore } from './chat-settings';

const KEY = 'sk-chat-dest-61c0ffee';
const MODELS = '{"data":[{"id":"m"}]}';
const answer = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${MODELS.length}\r\nConnection: close\r\n\r\n${MODELS}`;
const secretStore = createKeyringSecretStore('assemblyline-chat-destination-test');

let dir = '';
let a: RecordingListener;
let b: RecordingListener;
let c: RecordingListener;
let d: RecordingListener;
let store: ChatSettingsStore;
let handlers: Handlers;
const all = () => [a, b, c, d];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-chat-destination-'));
  [a, b] = await Promise.all([startRecordingListener({ answer }), startRecordingListener({ answer })]);
  [c, d] = await Promise.all([startRecordingListener({ host: '127.0.0.2', port: a.port, answer }), startRecordingListener({ host: '::1', port: a.port, answer })]);
  const vault = await createVault({ secure: secretStore, dir: path.join(dir, 'vault') });
  store = openChatSettings(dir, vault, undefined);
  // The real handlers; restarting the service is not what is under test here.
  const ctx = { chatSettings: store, chatRestart: { apply: async () => undefined, pending: () => null } } as unknown as HandlerContext;
  handlers = createServiceHandlers(ctx) as unknown as Handlers;
});
afterAll(async () => {
  await Promise.all(all().map((l) => l?.close()));
  await secretStore.delete(CHAT_API_KEY_ACCOUNT).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const saved = () => `http://127.0.0.1:${a.port}/v1`;
const saveWithKey = () => dispatch(handlers, 'service:saveChatSettings', { endpoint: saved(), model: '', timeoutMs: null, apiKey: KEY });

describe('the chat API key goes only to the endpoint it was saved with', () => {
  it('over generated endpoints: the saved place still gets it, any other never does, and a save elsewhere keeps none', async () => {
    const keyring = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
    // The oracle, written independently of the rule: which spellings name the saved place.
    const sameHosts = ['127.0.0.1', '127.1', '2130706433', '0x7f000001'];
    const otherHosts = ['localhost', '127.0.0.2', '[::1]', '[::ffff:7f00:1]'];
    const samePaths = ['/v1', '/v1/', '/v1/chat/completions', '/v1//'];
    const otherPaths = ['', '/', '/V1', '/v2', '/v1/models', '/v1?x=1', '/v1#', '/v1/..'];
    const endpoint = fc.record({
      scheme: fc.constantFrom('http', 'HTTP', 'https'),
      user: fc.constantFrom('', '', '', 'u:p@'),
      host: fc.constantFrom(...sameHosts, ...otherHosts),
      // (A port with a leading zero is the same port, but the contract's URL rule takes at most 5 digits.)
      port: fc.constantFrom('a', 'a', 'b'),
      path: fc.constantFrom(...samePaths, ...otherPaths),
    });
    await fc.assert(
      fc.asyncProperty(endpoint, async (g) => {
        const port = g.port === 'b' ? b.port : a.port;
        const url = `${g.scheme}://${g.user}${g.host}:${port}${g.path}`;
        const same = g.scheme.toLowerCase() === 'http' && g.user === '' && sameHosts.includes(g.host) && g.port !== 'b' && samePaths.includes(g.path);
        // Each run from the same start (a failed run, and shrinking, must not leave the next one another state).
        expect((await saveWithKey()).ok).toBe(true);
        all().forEach((l) => l.reset());
        await dispatch(handlers, 'service:chatModels', { endpoint: url, timeoutMs: 3_000 });
        if (same && keyring) expect(a.received(), url).toContain(`authorization: Bearer ${KEY}`);
        if (!same) expect(all().filter((l) => l.received().includes(KEY)).map((l) => `${l.host}:${l.port}`), url).toEqual([]);

        // Saved without a key: kept only for the same place.
        const answerOfSave = await dispatch(handlers, 'service:saveChatSettings', { endpoint: url, model: '', timeoutMs: null });
        // (The contract refuses some of them outright: user info, a "#". Then nothing changed.)
        if (answerOfSave.ok) {
          expect((answerOfSave.value as { hasApiKey: boolean }).hasApiKey, url).toBe(same && keyring);
          if (!same) expect(await store.storedKeyFor(saved()), url).toBeNull();
        }
      }),
      { numRuns: Number(process.env.ASSEMBLYLINE_FUZZ_RUNS ?? 60) },
    );
  }, 120_000);
});
