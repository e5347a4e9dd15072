/**
 * The embedded service's /ai/chat settings (its `--chat-endpoint`, `--chat-model`, `--chat-timeout-ms`,
 * `--own-domains`, `--tool-server-allow-hosts` flags and ASSEMBLYLINE_CHAT_API_KEY), as core hands them to
 * the child in the start message. Hosts read them from the environment at their composition root; core
 * never does. Pure.
 */

import { isHttpUrl } from '../api/http-url';
import { parseToolServerHosts } from './tool-server-hosts-option';

export const CHAT_ENV = {
  endpoint: 'ASSEMBLYLINE_CHAT_ENDPOINT',
  model: 'ASSEMBLYLINE_CHAT_MODEL',
  apiKey: 'ASSEMBLYLINE_CHAT_API_KEY',
  timeoutMs: 'ASSEMBLYLINE_CHAT_TIMEOUT_MS',
  ownDomains: 'ASSEMBLYLINE_OWN_DOMAINS',
  toolServerHosts: 'ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS',
} as const;

export interface ChatStartOptions {
  readonly endpoint?: string;
  readonly model?: string;
  /** Goes only to the service's process, never to the renderer. */
  readonly apiKey?: string;
  readonly timeoutMs?: number;
  readonly ownDomains?: readonly string[];
  /** Hosts a step's tool servers may be on (`--tool-server-allow-hosts`); absent: loopback and the own domains. */
  readonly toolServerHosts?: readonly string[];
}

const isTimeout = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isNonEmptyStrings = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((h) => typeof h === 'string');

/**
 * The rules every source of these settings shares (environment, start message, the app's settings form):
 * what is wrong with a typed endpoint or timeout, or null when it is fine. Empty text is "not set" (null).
 */
export function chatEndpointProblem(text: string): string | null {
  const v = text.trim();
  if (v === '') return null;
  if (!isHttpUrl(v)) return 'An http(s) URL such as http://127.0.0.1:11434/v1';
  // The key goes where the endpoint says: user info or a fragment would make the text say two things.
  if (/^https?:\/\/[^/?#]*@/i.test(v)) return 'No user name or password in the URL: put the key in "API key"';
  if (v.includes('#')) return 'No "#" in the URL: it would cut off the path the service adds';
  return null;
}
export function chatTimeoutProblem(text: string): string | null {
  const v = text.trim();
  return v === '' || isTimeout(Number(v)) ? null : 'A whole number of milliseconds, at least 1';
}
/** True for a value chatTimeoutProblem accepts, as a number. */
export const isChatTimeout = isTimeout;

/** From the environment: undefined when no variable is set; throws naming the variable when one is malformed. */
export function chatOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): ChatStartOptions | undefined {
  const get = (name: string): string | undefined => (nonEmpty(env[name]) ? env[name]!.trim() : undefined);
  const endpoint = get(CHAT_ENV.endpoint);
  const endpointProblem = endpoint === undefined ? null : chatEndpointProblem(endpoint);
  if (endpointProblem !== null) throw new Error(`${CHAT_ENV.endpoint} must be an http(s) URL such as http://127.0.0.1:11434/v1 (${endpointProblem}); got "${endpoint}".`);
  const timeoutText = get(CHAT_ENV.timeoutMs);
  const timeoutMs = timeoutText === undefined ? undefined : Number(timeoutText);
  if (timeoutText !== undefined && chatTimeoutProblem(timeoutText) !== null) throw new Error(`${CHAT_ENV.timeoutMs} must be a whole number of milliseconds; got "${timeoutText}".`);
  const model = get(CHAT_ENV.model);
  const apiKey = get(CHAT_ENV.apiKey);
  const own = get(CHAT_ENV.ownDomains);
  const hostsText = get(CHAT_ENV.toolServerHosts);
  const hosts = hostsText === undefined ? undefined : parseToolServerHosts(hostsText);
  if (hosts !== undefined && 'problem' in hosts) throw new Error(`${CHAT_ENV.toolServerHosts} ${hosts.problem}.`);
  const options: ChatStartOptions = {
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(own !== undefined ? { ownDomains: own.split(/[\s,]+/).filter(Boolean) } : {}),
    ...(hosts !== undefined ? { toolServerHosts: hosts.hosts } : {}),
  };
  return Object.keys(options).length > 0 ? options : undefined;
}

/** The value of a start message; malformed keys are dropped (the service then says it is not configured), never guessed. */
export function parseChatOptions(value: unknown): ChatStartOptions | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const options: ChatStartOptions = {
    ...(isHttpUrl(v.endpoint) ? { endpoint: v.endpoint } : {}),
    ...(nonEmpty(v.model) ? { model: v.model } : {}),
    ...(nonEmpty(v.apiKey) ? { apiKey: v.apiKey } : {}),
    ...(isTimeout(v.timeoutMs) ? { timeoutMs: v.timeoutMs } : {}),
    ...(Array.isArray(v.ownDomains) && v.ownDomains.every(nonEmpty) ? { ownDomains: v.ownDomains as string[] } : {}),
    // Passed on as given: the service checks every rule and refuses to start with a bad one (the app shows why).
    ...(isNonEmptyStrings(v.toolServerHosts) ? { toolServerHosts: v.toolServerHosts } : {}),
  };
  return Object.keys(options).length > 0 ? options : undefined;
}
