import type { Result } from '../../../shared/result';
import { ok } from '../../../shared/result';
import type { MintedToken } from './client-credentials';

export interface TokenBroker {
  /** A token for a request needing `scope` (null: none in particular); `renew` skips the cache. */
  get(scope: string | null, renew?: boolean): Promise<Result<string>>;
  /** Forget every token (the key, secret or scopes changed). */
  clear(): void;
}

export interface TokenBrokerOptions {
  /** Mint a token holding `scopes` (null: all the grant allows). */
  mint: (scopes: string[] | null) => Promise<Result<MintedToken>>;
  /** The most the app's tokens may hold; null = whatever each request needs. */
  limit: string[] | null;
  /** Scopes are fixed by the grant (browser sign-in): one token for everything. */
  fixedScopes?: boolean;
  clock?: () => number;
}

/** Tokens are replaced once this little of their life is left, so none expires mid-request. */
export const renewBeforeMs = (lifetimeMs: number): number => Math.max(60_000, lifetimeMs * 0.1);

/**
 * Short-lived Bearer tokens, minted in core with the narrowest scope each request needs, cached per
 * scope and re-minted before they expire. A request whose scope the user's limit excludes gets a token
 * with the limit's scopes, so the service itself refuses it with INSUFFICIENT_AUTH_SCOPE and says why.
 */
export function createTokenBroker(o: TokenBrokerOptions): TokenBroker {
  const clock = o.clock ?? Date.now;
  const cache = new Map<string, { minted: MintedToken; mintedAt: number }>();
  const inflight = new Map<string, Promise<Result<MintedToken>>>();

  const scopesFor = (scope: string | null): string[] | null => {
    if (o.fixedScopes) return null;
    if (o.limit === null) return scope === null ? null : [scope];
    if (scope !== null && o.limit.includes(scope)) return [scope];
    return o.limit;
  };

  return {
    async get(scope, renew = false) {
      const scopes = scopesFor(scope);
      const key = scopes === null ? '*' : [...scopes].sort().join(' ');
      const cached = cache.get(key);
      const now = clock();
      if (!renew && cached && cached.minted.expiresAtMs - now > renewBeforeMs(cached.minted.expiresAtMs - cached.mintedAt)) {
        return ok(cached.minted.token);
      }
      let pending = inflight.get(key);
      if (!pending) {
        pending = o.mint(scopes);
        inflight.set(key, pending);
        void pending.finally(() => inflight.delete(key));
      }
      const minted = await pending;
      if (!minted.ok) return minted;
      cache.set(key, { minted: minted.value, mintedAt: now });
      return ok(minted.value.token);
    },
    clear: () => cache.clear(),
  };
}
