import type { AdminAnswer, AdminOp, OwnedKeyMessage } from '../../../shared/local-service/child-messages';
import { err, ok, type Result } from '../../../shared/result';
import type { ServiceReady } from '../ports/service-process';
import type { Vault } from '../vault/vault';
import { LOCAL_WORKSPACE_ID, type WorkspaceStore } from '../workspaces/workspace-store';

/** The admin channel to the embedded service could not be used (it restarts, or answered an error). */
export const LOCAL_SERVICE_UNAVAILABLE = 'LOCAL_SERVICE_UNAVAILABLE';

/** A key of the local service the page may see: no secret. */
export interface LocalKeyChoice {
  id: string;
  authKey: string;
  description: string;
  isActive: boolean;
  scopes: string[] | null;
  fullScope: boolean;
}

export interface LocalAccessDeps {
  workspaces: WorkspaceStore;
  vault: Vault;
  /** The supervisor's admin request to the running child (electron/core/local-service/supervisor.ts). */
  admin(op: AdminOp): Promise<AdminAnswer>;
  /** The service's URL (the same across restarts). */
  url(): string | null;
  /** A new key must not be served from an old client's token cache. */
  forgetClient(workspaceId: string): void;
}

export interface LocalAccess {
  /** The Local workspace's secret, when core holds it for the key Local uses now. */
  secretFor(authKey: string): string | null;
  /** Why Local has no full access (the page shows it with "Restore full access"); null when it has. */
  problem(): string | null;
  /** A child listened (first start or restart): take its key, or keep the one the user switched to. */
  adopt(ready: ServiceReady): Promise<void>;
  /** Reactivate or create a full-access key and switch Local to it. */
  restore(): Promise<Result<{ action: 'unchanged' | 'reactivated' | 'created'; authKey: string; scopeLimitLifted: boolean }>>;
  /** The keys Local may switch to (no secrets). */
  choices(): Promise<Result<LocalKeyChoice[]>>;
  /** Switch Local to another active key of its service (kept across restarts while it stays active). */
  switchTo(keyId: string): Promise<Result<void>>;
  /** A key of Local's service changed through the app: note it when it is the one Local signs with. */
  keyChanged(authKey: string, isActive: boolean): void;
}

const short = (k: string) => `${k.slice(0, 12)}…`;
const unavailable = (cause: unknown) =>
  err(LOCAL_SERVICE_UNAVAILABLE, `The local service could not be asked: ${cause instanceof Error ? cause.message : String(cause)}. Try again in a moment.`);

/**
 * How core keeps the Local workspace able to reach its own service. The service is ours: core reads its
 * keys and restores full access through the child process's IPC channel (service/child-entry.ts), never
 * through the API, whose auth stays exactly as strict as the spec's.
 */
export function createLocalAccess(deps: LocalAccessDeps): LocalAccess {
  let current: { authKey: string; authSecret: string } | null = null;
  let problem: string | null = null;

  async function use(key: { authKey: string; authSecret: string }, chosen: boolean): Promise<void> {
    current = { authKey: key.authKey, authSecret: key.authSecret };
    const local = deps.workspaces.get(LOCAL_WORKSPACE_ID);
    const url = deps.url() ?? local?.endpoint ?? '';
    if (local?.endpoint !== url || local.authKey !== key.authKey || (local.keyChosen ?? false) !== chosen) {
      await deps.workspaces.ensureLocal(url, key.authKey, chosen);
    }
    // Without a secure vault the secret stays in memory only (`current`), so Local keeps working.
    if ((await deps.vault.status()).secure && (await deps.vault.get(LOCAL_WORKSPACE_ID)) !== key.authSecret) await deps.vault.set(LOCAL_WORKSPACE_ID, key.authSecret);
    deps.forgetClient(LOCAL_WORKSPACE_ID);
  }

  async function keys(): Promise<OwnedKeyMessage[]> {
    const answer = await deps.admin({ op: 'keys' });
    if (answer.op !== 'keys') throw new Error('the local service answered another request');
    return [...answer.keys];
  }

  return {
    secretFor: (authKey) => (current?.authKey === authKey ? current.authSecret : null),
    problem: () => problem,

    async adopt(ready) {
      const local = deps.workspaces.get(LOCAL_WORKSPACE_ID);
      if (local?.keyChosen && local.authKey && local.authKey !== ready.authKey) {
        // The user switched Local to this key: keep it while it is active, and say so when it is not.
        const mine = (await keys().catch(() => [])).find((k) => k.authKey === local.authKey);
        if (mine?.isActive) {
          problem = null;
          return use(mine, true);
        }
        problem = `The key you switched Local to (${short(local.authKey)}) is ${mine ? 'inactive' : 'gone'}; Local uses ${short(ready.authKey)} again.${ready.accessProblem ? ` ${ready.accessProblem}` : ''}`;
        return use(ready, false);
      }
      problem = ready.accessProblem;
      await use(ready, false);
    },

    async restore() {
      const local = deps.workspaces.get(LOCAL_WORKSPACE_ID);
      let answer: AdminAnswer;
      try {
        answer = await deps.admin({ op: 'restore-full-access', prefer: local?.authKey ?? null });
      } catch (cause) {
        return unavailable(cause);
      }
      if (answer.op !== 'restore-full-access') return unavailable(new Error('the local service answered another request'));
      problem = null;
      await use(answer.key, false);
      // "Full access" must mean it: tokens limited to a few scopes would still lock screens out.
      const limited = local?.tokenScopes ?? null;
      if (limited !== null && local) await deps.workspaces.setLocalAuth(local.authMode === 'bearer' ? 'bearer' : 'signature', null);
      return ok({ action: answer.action, authKey: answer.key.authKey, scopeLimitLifted: limited !== null });
    },

    async choices() {
      try {
        return ok((await keys()).map(({ authSecret: _secret, ...k }) => ({ ...k, scopes: k.scopes ? [...k.scopes] : null })));
      } catch (cause) {
        return unavailable(cause);
      }
    },

    keyChanged(authKey, isActive) {
      if (deps.workspaces.get(LOCAL_WORKSPACE_ID)?.authKey !== authKey) return;
      problem = isActive ? null : `The key Local signs with (${short(authKey)}) is inactive: switch Local to another key, or restore full access.`;
    },

    async switchTo(keyId) {
      let all: OwnedKeyMessage[];
      try {
        all = await keys();
      } catch (cause) {
        return unavailable(cause);
      }
      const key = all.find((k) => k.id === keyId);
      if (!key) return err('AUTH_KEYS_NOT_FOUND', `The local service has no Auth Key with id ${keyId}.`);
      if (!key.isActive) return err('AUTH_KEY_INACTIVE', `The key ${short(key.authKey)} is inactive: activate it first, or choose an active key.`);
      problem = null;
      await use(key, true);
      return ok(undefined);
    },
  };
}
