import { err, ok, type Result } from '../../../shared/result';
import { describeHttpStatus, describeNetworkError } from '../security/probe-words';
import { urlDestination, type Destination } from '../security/secret-destination';

/** The service's own /ai/chat codes (service/robots/chat-endpoint.ts): the same failure, the same code. */
export const CHAT_PROBE_CODE = { unreachable: 'AI_CHAT_UNREACHABLE', timeout: 'AI_CHAT_TIMEOUT', endpointError: 'AI_CHAT_ENDPOINT_ERROR' } as const;
/** "Test chat server" waits at most this long, whatever the step timeout is. */
export const CHAT_PROBE_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 2 * 1024 * 1024;
const MAX_MODELS = 500;
const MAX_MODEL_ID = 200;

/** The endpoint's base: `…/v1/chat/completions` and `…/v1/` are `…/v1`, where the service posts and models are listed. Pure. */
const chatBase = (endpoint: string): string => endpoint.trim().replace(/\/+$/, '').replace(/\/chat\/completions$/, '');

/** Where the chat API key goes for this endpoint (security/secret-destination.ts). Pure. */
export const chatDestination = (endpoint: string): Destination | null => urlDestination(chatBase(endpoint));

/**
 * `…/v1` or `…/v1/chat/completions` → `…/v1/models` (OpenAI-compatible servers list models there), built
 * on the parsed URL so that `#`, `?` or user info in the text cannot make it another address. Pure.
 */
export function modelsUrl(endpoint: string): string {
  const url = new URL(chatBase(endpoint));
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/models`;
  return url.href;
}

/** The model ids of an OpenAI-compatible `GET /models` answer (`{ data: [{ id }] }`), or null when it is not one. Pure. */
export function parseModelList(body: unknown): string[] | null {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { data?: unknown }).data)) return null;
  const ids = (body as { data: unknown[] }).data.map((m) => (typeof m === 'object' && m !== null ? (m as { id?: unknown }).id : undefined));
  if (!ids.every((id): id is string => typeof id === 'string' && id !== '')) return null;
  // Model names, not a channel for whatever else a server sends: printable, at most 200 characters.
  // eslint-disable-next-line no-control-regex
  if (!ids.every((id) => id.length <= MAX_MODEL_ID && !/[\u0000-\u001f\u007f]/.test(id))) return null;
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b)).slice(0, MAX_MODELS);
}

/**
 * Lists the models of an OpenAI-compatible endpoint with its key (Bearer), bounded by a deadline that
 * covers the whole answer: "Test chat server" never hangs. Runs in core (the renderer has no network).
 */
export async function listChatModels(options: { endpoint: string; apiKey: string | null; timeoutMs?: number }): Promise<Result<{ models: string[] }>> {
  let url: string;
  try {
    url = modelsUrl(options.endpoint);
  } catch {
    return err(CHAT_PROBE_CODE.unreachable, 'The endpoint is not an http(s) URL.');
  }
  const where = new URL(url).origin;
  const timeoutMs = Math.min(options.timeoutMs ?? CHAT_PROBE_TIMEOUT_MS, CHAT_PROBE_TIMEOUT_MS);
  const signal = AbortSignal.timeout(timeoutMs);
  let status: number;
  let text: string;
  try {
    const res = await fetch(url, { headers: { accept: 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) }, signal, redirect: 'error' });
    status = res.status;
    text = await readCapped(res);
  } catch (cause) {
    if (signal.aborted) return err(CHAT_PROBE_CODE.timeout, `${url} did not answer within ${timeoutMs / 1000} s.`);
    // In the app's own words (security/probe-words.ts): the page chooses this address.
    return err(CHAT_PROBE_CODE.unreachable, `Nothing answered at ${url}: ${describeNetworkError(cause, where, timeoutMs).message} Is the model server running?`);
  }
  // Whatever the server wrote is not repeated, only its status: the page must not read other hosts through core.
  if (status === 401 || status === 403) {
    return err(CHAT_PROBE_CODE.endpointError, `${url} refused the request (HTTP ${status}): ${options.apiKey ? 'the API key is not accepted' : 'it needs an API key'}.`, { httpCode: status });
  }
  if (status < 200 || status > 299) return err(CHAT_PROBE_CODE.endpointError, `${url} answered ${describeHttpStatus(status)}: not a list of models. Check the URL: it usually ends in /v1.`, { httpCode: status });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const models = parseModelList(body);
  if (models === null) return err(CHAT_PROBE_CODE.endpointError, `${url} answered, but not as an OpenAI-compatible API (no "data" list of models). Check the URL: it usually ends in /v1.`);
  return ok({ models });
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
