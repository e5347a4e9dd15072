import { AppErrorCode, err, type Result } from '../../../shared/result';
import { createApiClient, type ApiClient } from '../api/api-client';
import { mintClientCredentials, mintWithRefreshToken, type ClientAssertionSigner, type MintedToken } from '../auth/client-credentials';
import { signClientAssertion } from '../sign-in/client-key';
import { createTokenBroker, type TokenBroker } from '../auth/token-broker';
import { createServerClock, type ServerClock } from '../net/server-clock';
import { transportFor } from '../net/transport';
import type { StoredWorkspace } from './workspace-store';

/** Vault account names: the Auth Secret under the workspace id, a browser sign-in's refresh token beside it. */
export const refreshTokenAccount = (workspaceId: string): string => `${workspaceId}#refresh`;

export interface WorkspaceClientDeps {
  /** The Auth Secret (signature and bearer modes). */
  getSecret: () => Promise<string | null>;
  /** Browser mode: read and replace the stored refresh token (each refresh issues a new one). */
  getRefreshToken?: () => Promise<string | null>;
  setRefreshToken?: (token: string) => Promise<void>;
  /** Browser mode with a client key: the private JWK from the vault (it never leaves core). */
  getClientKey?: (kid: string) => Promise<string | null>;
  fetch?: typeof fetch;
  clock?: () => number;
  /** The deployment's time, learned from its answers (default: a new one over `clock`). */
  serverClock?: ServerClock;
  maxRetries?: number;
  timeoutMs?: number;
}

/** The API client of a workspace in its auth mode; bearer and browser modes get a token broker. */
export function createWorkspaceClient(w: StoredWorkspace, deps: WorkspaceClientDeps): { api: ApiClient; broker: TokenBroker | null } {
  // Signatures and client assertions are judged by the deployment's clock: sign by its time (net/server-clock.ts).
  const serverClock = deps.serverClock ?? createServerClock(deps.clock ?? Date.now);
  const clock = serverClock.now;
  // The workspace's trust (its CA file) for every request of it, token minting included.
  const transport = deps.fetch ? { fetch: deps.fetch, ca: null } : transportFor(w.caPem);
  // Token answers correct the clock too (the API client reads its own answers' Date).
  const observing: typeof fetch = async (input, init) => {
    const sentAt = serverClock.local();
    const response = await transport.fetch(input, init);
    serverClock.observe(response.headers.get('date'), sentAt, serverClock.local());
    return response;
  };
  deps = { ...deps, fetch: observing };
  let broker: TokenBroker | null = null;
  if (w.authMode === 'bearer') {
    broker = createTokenBroker({
      limit: w.tokenScopes,
      clock,
      mint: async (scopes): Promise<Result<MintedToken>> => {
        const secret = await deps.getSecret();
        if (!secret) return err(AppErrorCode.vaultUnavailable, `No Auth Secret is stored for "${w.name}": add it in Workspaces to mint tokens.`);
        return mintClientCredentials({ endpoint: w.endpoint, authKey: w.authKey, authSecret: secret, scopes, now: clock, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
      },
    });
  } else if (w.authMode === 'browser') {
    const key = w.clientKey;
    const clientKey: ClientAssertionSigner | undefined = key
      ? {
          clientId: key.clientId,
          sign: async (tokenEndpoint) => {
            const privateJwk = (await deps.getClientKey?.(key.kid)) ?? null;
            if (!privateJwk) return err('SIGN_IN_REQUIRED', `The private key of "${w.name}" is no longer in the system keychain: sign in again in Workspaces.`);
            return signClientAssertion({ privateJwk, tokenEndpoint, now: clock() });
          },
        }
      : undefined;
    broker = createTokenBroker({
      limit: null,
      fixedScopes: true,
      clock,
      mint: async (): Promise<Result<MintedToken>> => {
        const refresh = (await deps.getRefreshToken?.()) ?? null;
        if (!refresh) return err('SIGN_IN_REQUIRED', `"${w.name}" is signed out: sign in with the browser again in Workspaces.`);
        const mint = () => mintWithRefreshToken({ endpoint: w.endpoint, refreshToken: refresh, now: clock, ...(clientKey ? { clientKey } : {}), ...(deps.fetch ? { fetch: deps.fetch } : {}) });
        const offsetBefore = serverClock.offsetMs();
        let minted = await mint();
        // A client assertion timed by a clock the answer showed to be off: once more, by the deployment's time.
        if (!minted.ok && clientKey && serverClock.offsetMs() !== offsetBefore) minted = await mint();
        if (minted.ok && minted.value.refreshToken) await deps.setRefreshToken?.(minted.value.refreshToken);
        if (!minted.ok && minted.error.code === 'TOKEN_INVALID_GRANT') {
          return err('SIGN_IN_REQUIRED', `The sign-in of "${w.name}" has ended (${minted.error.message}): sign in with the browser again in Workspaces.`);
        }
        return minted;
      },
    });
  }
  const api = createApiClient({
    endpoint: w.endpoint,
    authKey: w.authKey,
    signatureAlgo: w.signatureAlgo ?? 'sha384',
    getSecret: deps.getSecret,
    serverClock,
    ...(broker ? { getBearer: (scope: string | null, renew: boolean) => broker.get(scope, renew) } : {}),
    transport,
    ...(deps.maxRetries !== undefined ? { maxRetries: deps.maxRetries } : {}),
    ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
  });
  return { api, broker };
}
