// "Test chat server" is no probe of internal hosts: whatever the page names, the answer says reachable or
// not and why in the app's own words — never what the other side wrote — and a URL cannot be bent (a
// `#`, user info) into an address other than the one shown. Real listeners on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels } from '../../../shared/ipc/contract';
import { startRecordingListener, type RecordingListener } from '../security/testing/recording-listener';
import { listChatModels, modelsUrl } from './chat-models';

const SECRET_TEXT = 'admin-password=hunter2-internal';
const answer = (status: string, body: string, type = 'text/plain') => `HTTP/1.1 ${status}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;

let failing: RecordingListener;
let refusing: RecordingListener;
let garbage: RecordingListener;
beforeAll(async () => {
  [failing, refusing, garbage] = await Promise.all([
    startRecordingListener({ answer: answer('500 Internal Server Error', `{"error":"${SECRET_TEXT}"}`, 'application/json') }),
    startRecordingListener({ answer: answer('401 Unauthorized', SECRET_TEXT) }),
    startRecordingListener({ answer: `${SECRET_TEXT}\r\n\r\n` }),
  ]);
});
afterAll(() => Promise.all([failing, refusing, garbage].map((l) => l.close())));

const request = (endpoint: string) => channels['service:chatModels'].request.safeParse({ endpoint });
const failureOf = async (endpoint: string) => {
  const result = await listChatModels({ endpoint, apiKey: null, timeoutMs: 5_000 });
  if (result.ok) throw new Error(`${endpoint} listed models`);
  return result.error;
};

describe('"Test chat server" says what happened, not what the server said', () => {
  it('an error answer: its status class, never its body', async () => {
    const error = await failureOf(`http://127.0.0.1:${failing.port}/v1`);
    expect(error).toMatchObject({ code: 'AI_CHAT_ENDPOINT_ERROR', httpCode: 500 });
    expect(error.message).toBe(`http://127.0.0.1:${failing.port}/v1/models answered a server error (HTTP 500): not a list of models. Check the URL: it usually ends in /v1.`);
    const refused = await failureOf(`http://127.0.0.1:${refusing.port}/v1`);
    expect(refused.message).toBe(`http://127.0.0.1:${refusing.port}/v1/models refused the request (HTTP 401): it needs an API key.`);
    for (const e of [error, refused]) expect(JSON.stringify(e)).not.toContain('hunter2');
  });

  it('a server that does not speak HTTP, or not TLS: why, in the app’s own words', async () => {
    const notHttp = await failureOf(`http://127.0.0.1:${garbage.port}/v1`);
    expect(notHttp.code).toBe('AI_CHAT_UNREACHABLE');
    expect(notHttp.message).toContain('answered, but not in HTTP');
    const notTls = await failureOf(`https://127.0.0.1:${failing.port}/v1`);
    expect(notTls.message).toMatch(/no TLS connection could be made with https:\/\/127\.0\.0\.1:\d+ \(ERR_SSL_[A-Z_]+\): is it https on that port\?/);
    for (const e of [notHttp, notTls]) expect(JSON.stringify(e)).not.toContain('hunter2');
  });

  it('a "#" or user info cannot turn the endpoint into another address', async () => {
    for (const endpoint of [`http://127.0.0.1:${failing.port}/admin#`, `http://127.0.0.1:${failing.port}/admin#/x`, `http://user:pw@127.0.0.1:${failing.port}/v1`]) {
      const parsed = request(endpoint);
      expect(parsed.success, endpoint).toBe(false);
    }
    expect(request(`http://127.0.0.1:${failing.port}/admin#`).error?.issues[0]?.message).toBe('The endpoint: No "#" in the URL: it would cut off the path the service adds.');
    // And should one reach it anyway (a file written by hand), the models path is still added to the path.
    expect(modelsUrl('http://127.0.0.1:8/admin#')).toBe('http://127.0.0.1:8/admin/models#');
  });
});
