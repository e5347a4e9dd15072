// One request to the operator's OpenAI-compatible chat-completions endpoint (a local model server such
// as llama.cpp, Ollama or vLLM), bounded by a timeout so a silent server fails the step, never hangs it.

export interface ChatConfig {
  /** Base URL (`http://127.0.0.1:11434/v1`) or the full `/chat/completions` URL; null = not configured. */
  endpoint: string | null;
  /** Sent as `model` unless the step names one. */
  model: string;
  /** Sent as `Authorization: Bearer` to the endpoint when set. */
  apiKey: string | null;
  /** Per request to the endpoint and to each tool server. */
  timeoutMs: number;
}

export const DEFAULT_CHAT_MODEL = 'default';
export const DEFAULT_CHAT_TIMEOUT_MS = 120_000;

export const ChatCode = {
  notConfigured: 'AI_CHAT_NOT_CONFIGURED',
  timeout: 'AI_CHAT_TIMEOUT',
  unreachable: 'AI_CHAT_UNREACHABLE',
  endpointError: 'AI_CHAT_ENDPOINT_ERROR',
  invalidJson: 'AI_CHAT_INVALID_JSON',
  toolServerError: 'AI_CHAT_TOOL_SERVER_ERROR',
  toolRoundsExceeded: 'AI_CHAT_TOOL_ROUNDS_EXCEEDED',
  /** A tool server outside `--tool-server-allow-hosts` (robots/tool-server-hosts.ts); ours, like the MCP_SERVER_* rules. */
  toolServerHostNotAllowed: 'MCP_SERVER_HOST_NOT_ALLOWED',
} as const;

export class ChatError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `…/v1` → `…/v1/chat/completions`; a URL already ending in /chat/completions is kept. */
export const completionsUrl = (endpoint: string): string => {
  const trimmed = endpoint.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
};

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: unknown;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** POSTs one chat-completions request; the assistant message of the first choice. */
export async function completeChat(config: ChatConfig & { endpoint: string }, body: Record<string, unknown>, signal: AbortSignal): Promise<ChatMessage> {
  const url = completionsUrl(config.endpoint);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(config.timeoutMs)]),
    });
  } catch (e) {
    if (signal.aborted) throw e;
    if ((e as Error).name === 'TimeoutError') throw new ChatError(ChatCode.timeout, `The chat endpoint ${url} gave no answer within ${config.timeoutMs} ms.`);
    throw new ChatError(ChatCode.unreachable, `The chat endpoint ${url} could not be reached: ${(e as { cause?: Error }).cause?.message ?? (e as Error).message}.`);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    if (signal.aborted) throw e;
    if ((e as Error).name === 'TimeoutError') throw new ChatError(ChatCode.timeout, `The chat endpoint ${url} did not finish its answer within ${config.timeoutMs} ms.`);
    throw new ChatError(ChatCode.unreachable, `The chat endpoint ${url} broke off its answer: ${(e as Error).message}.`);
  }
  if (!res.ok) throw new ChatError(ChatCode.endpointError, `The chat endpoint ${url} answered HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}.`);
  let parsed: { choices?: { message?: ChatMessage }[] };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new ChatError(ChatCode.endpointError, `The chat endpoint ${url} did not answer with JSON.`);
  }
  const message = parsed.choices?.[0]?.message;
  if (!message || typeof message !== 'object') throw new ChatError(ChatCode.endpointError, `The chat endpoint ${url} answered without choices[0].message.`);
  return message;
}
