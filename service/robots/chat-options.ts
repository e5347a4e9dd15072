import type { ChatOptions } from '../index';
import { CHAT_ENV } from '../../shared/local-service/chat-option';
import { parseToolServerHosts } from '../../shared/local-service/tool-server-hosts-option';

/**
 * /ai/chat's settings from the command line, else the environment (`--chat-endpoint` /
 * ASSEMBLYLINE_CHAT_ENDPOINT, like `--price-list`); the API key only from ASSEMBLYLINE_CHAT_API_KEY (a flag
 * would show it in `ps`).
 * A bad value stops the service with the flag it names.
 */
export function chatOptionsFrom(flags: Record<string, unknown>, env: NodeJS.ProcessEnv): ChatOptions {
  const pick = (flag: string, name: string): string | undefined => {
    const v = flags[flag] ?? env[name];
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  };
  const endpoint = pick('chat-endpoint', CHAT_ENV.endpoint);
  if (endpoint !== undefined) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(endpoint).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new Error(`--chat-endpoint must be an http(s) URL such as http://127.0.0.1:11434/v1, got "${endpoint}"`);
  }
  const timeout = pick('chat-timeout-ms', CHAT_ENV.timeoutMs);
  const timeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs < 1)) throw new Error(`--chat-timeout-ms must be a whole number of milliseconds, got "${timeout}"`);
  const model = pick('chat-model', CHAT_ENV.model);
  const apiKey = env[CHAT_ENV.apiKey];
  const own = pick('own-domains', CHAT_ENV.ownDomains);
  // The flag as given (an empty one is an error, not "unset"), else a non-empty variable.
  const flagHosts = flags['tool-server-allow-hosts'];
  const hostsSource = typeof flagHosts === 'string' ? '--tool-server-allow-hosts' : CHAT_ENV.toolServerHosts;
  const hostsText = typeof flagHosts === 'string' ? flagHosts : env[CHAT_ENV.toolServerHosts]?.trim() || undefined;
  const hosts = hostsText === undefined ? undefined : parseToolServerHosts(hostsText);
  if (hosts !== undefined && 'problem' in hosts) throw new Error(`${hostsSource} ${hosts.problem}`);
  return {
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(own !== undefined ? { ownDomains: own.split(/[\s,]+/).filter(Boolean) } : {}),
    ...(hosts !== undefined ? { toolServerHosts: hosts.hosts } : {}),
  };
}
