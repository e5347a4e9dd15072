import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ChatSettingsInput, ChatSettingsView } from '../../../shared/ipc/chat-settings-models';
import { chatEndpointProblem, isChatTimeout, type ChatStartOptions } from '../../../shared/local-service/chat-option';
import { checkHostRuleList } from '../../../shared/local-service/host-rules';
import { TOOL_SERVER_HOST_RULES } from '../../../shared/local-service/tool-server-hosts-option';
import { ok, type Result } from '../../../shared/result';
import { mayReuseSecret } from '../security/secret-destination';
import type { Vault } from '../vault/vault';
import { chatDestination } from './chat-models';
import { writePrivateFile } from '../vault/private-files';

/** The vault account of the chat endpoint's API key (never in the settings file). */
export const CHAT_API_KEY_ACCOUNT = 'local-service:chat-api-key';

const fileSchema = z.object({
  endpoint: z.string().refine((v) => v === '' || chatEndpointProblem(v) === null).catch(''),
  model: z.string().catch(''),
  timeoutMs: z.number().refine(isChatTimeout).nullable().catch(null),
  // A damaged list is the default (loopback and own domains: the safe side), never a guess.
  toolServerHosts: z
    .array(z.string())
    .refine((hosts) => 'rules' in checkHostRuleList(hosts, TOOL_SERVER_HOST_RULES))
    .catch([]),
});
type SavedChat = z.infer<typeof fileSchema>;
const EMPTY: SavedChat = { endpoint: '', model: '', timeoutMs: null, toolServerHosts: [] };

/** Reads `chat-settings.json`; a missing or damaged file is "nothing saved", a damaged field only that field. */
export function parseSavedChat(text: string | null): SavedChat {
  if (text === null) return { ...EMPTY };
  try {
    const parsed = fileSchema.safeParse({ ...EMPTY, ...(JSON.parse(text) as object) });
    return parsed.success ? parsed.data : { ...EMPTY };
  } catch {
    return { ...EMPTY };
  }
}

/** Whether the environment decides the chat model: any of endpoint, model, key or timeout set there. */
export const environmentDecides = (env: ChatStartOptions | undefined): boolean =>
  env !== undefined && (env.endpoint !== undefined || env.model !== undefined || env.apiKey !== undefined || env.timeoutMs !== undefined);

/**
 * What the service is started with. The environment wins as a whole when it sets any chat variable (one
 * source, never a mix of an environment endpoint and a saved key); ASSEMBLYLINE_OWN_DOMAINS and
 * ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS always apply, the variable's list over the saved one.
 * Pure.
 */
export function effectiveChat(saved: SavedChat, apiKey: string | null, env: ChatStartOptions | undefined): ChatStartOptions | undefined {
  if (env && environmentDecides(env)) return env;
  const options: ChatStartOptions = {
    ...(saved.endpoint ? { endpoint: saved.endpoint } : {}),
    ...(saved.model ? { model: saved.model } : {}),
    ...(saved.endpoint && apiKey ? { apiKey } : {}),
    ...(saved.timeoutMs !== null ? { timeoutMs: saved.timeoutMs } : {}),
    ...(env?.ownDomains ? { ownDomains: env.ownDomains } : {}),
    ...(env?.toolServerHosts ? { toolServerHosts: env.toolServerHosts } : saved.toolServerHosts.length > 0 ? { toolServerHosts: saved.toolServerHosts } : {}),
  };
  return Object.keys(options).length > 0 ? options : undefined;
}

export interface ChatSettingsStore {
  /** The view without `pendingRestart` (the caller knows whether a restart waits). */
  view(): Promise<Omit<ChatSettingsView, 'pendingRestart'>>;
  /** The options the service's next start gets (key from the vault). */
  startOptions(): Promise<ChatStartOptions | undefined>;
  /**
   * The key "Test chat server" uses when none is typed: the environment's, else the stored one, and only for
   * the endpoint it belongs to (the page is untrusted: it must not send the key to a server of its choice).
   */
  storedKeyFor(endpoint: string): Promise<string | null>;
  save(input: ChatSettingsInput): Promise<Result<void>>;
}

/** The saved chat settings in `<dataDir>/chat-settings.json` and the key in the vault. */
export function openChatSettings(dataDir: string, vault: Vault, env: ChatStartOptions | undefined): ChatSettingsStore {
  const file = path.join(dataDir, 'chat-settings.json');
  let text: string | null;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = null;
  }
  let saved = parseSavedChat(text);
  const key = () => vault.get(CHAT_API_KEY_ACCOUNT);
  return {
    async view() {
      return {
        ...saved,
        hasApiKey: (await key()) !== null,
        toolServerHostsFromEnvironment: env?.toolServerHosts ? [...env.toolServerHosts] : null,
        environment: env && environmentDecides(env)
          ? { endpoint: env.endpoint ?? null, model: env.model ?? null, timeoutMs: env.timeoutMs ?? null, hasApiKey: env.apiKey !== undefined }
          : null,
      };
    },
    startOptions: async () => effectiveChat(saved, await key(), env),
    async storedKeyFor(endpoint) {
      const same = (a: string | undefined) => a !== undefined && mayReuseSecret(chatDestination(a), chatDestination(endpoint));
      if (env && environmentDecides(env)) return same(env.endpoint) ? (env.apiKey ?? null) : null;
      return same(saved.endpoint) ? key() : null;
    },
    async save(input) {
      // A stored key stays with the endpoint it was given for: a new endpoint without a typed key has none.
      const moved = !mayReuseSecret(chatDestination(saved.endpoint), chatDestination(input.endpoint));
      // The key first: a vault that refuses it must not leave new settings pointing at a keyless endpoint.
      if (input.removeApiKey || (input.apiKey === undefined && moved && (await key()) !== null)) {
        const removed = await vault.delete(CHAT_API_KEY_ACCOUNT);
        if (!removed.ok) return removed;
      } else if (input.apiKey !== undefined) {
        const stored = await vault.set(CHAT_API_KEY_ACCOUNT, input.apiKey);
        if (!stored.ok) return stored;
      }
      // The contract checked every rule; stored as the service matches them (lower case, no duplicates).
      const hosts = input.toolServerHosts === undefined ? { rules: saved.toolServerHosts } : checkHostRuleList(input.toolServerHosts, TOOL_SERVER_HOST_RULES);
      saved = { endpoint: input.endpoint.trim(), model: input.model.trim(), timeoutMs: input.timeoutMs, toolServerHosts: 'rules' in hosts ? hosts.rules : saved.toolServerHosts };
      await writePrivateFile(file, `${JSON.stringify(saved, null, 2)}\n`);
      return ok(undefined);
    },
  };
}
