import { err, ok, type Result } from '../../../shared/result';

/** The service's own /ai/chat codes (service/robots/chat-endpoint.ts): the same failure, the same code. */
export const CHAT_PROBE_CODE = { unreachable: 'AI_CHAT_UNREACHABLE', timeout: 'AI_CHAT_TIMEOUT', endpointError: 'AI_CHAT_ENDPOINT_ERROR' } as const;
/** "Test chat server" waits at most this long, whatever the step timeout is. */
export const CHAT_PROBE_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 2 * 1024 * 1024;
const MAX_MODELS = 500;

/** `…/v1` or `…/v1/chat/completions` → `…/v1/models` (OpenAI-compatible servers list models there). Pure. */
export function modelsUrl(endpoint: string): string {
  return `${endpoint.trim().replace(/\/+$/, '').replace(/\/chat\/completions$/, '')}/models`;
}

/** The model ids of an OpenAI-compatible `GET /models` answer (`{ data: [{ id }] }`), or null when it is not one. Pure. */
export function parseModelList(body: unknown): string[] | null {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { data?: unknown }).data)) return null;
  const ids = (body as { data: unknown[] }).data.map((m) => (typeof m === 'object' && m !== null ? (m as { id?: unknown }).id : undefined));
  if (!ids.every((id): id is string => typeof id === 'string' && id !== '')) return null;
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b)).slice(0, MAX_MODELS);
}

/**
 * Lists the models of an OpenAI-compatible endpoint with its key (Bearer), bounded by a deadline that
 * covers the whole answer: "Test chat server" never hangs. Runs in core (the renderer has no network).
 */
export async function listChatModels(options: { endpoint: string; apiKey: string | null; timeoutMs?: number }): Promise<Result<{ models: string[] }>> {
  const url = modelsUrl(options.endpoint);
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
    return err(CHAT_PROBE_CODE.unreachable, `Nothing answered at ${url}: ${reason(cause)}. Is the model server running?`);
  }
  if (status === 401 || status === 403) {
    return err(CHAT_PROBE_CODE.endpointError, `${url} refused the request (HTTP ${status}): ${options.apiKey ? 'the API key is not accepted' : 'it needs an API key'}.${snippet(text)}`, { httpCode: status });
  }
  if (status < 200 || status > 299) return err(CHAT_PROBE_CODE.endpointError, `${url} answered HTTP ${status}.${snippet(text)}`, { httpCode: status });
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

const reason = (cause: unknown): string => {
  const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause;
  return inner instanceof Error ? inner.message : String(inner);
};
const snippet = (text: string): string => {
  const t = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return t ? ` It said: ${t}` : '';
};
