import { randomBytes } from 'node:crypto';
import type { AccountRow, ServiceDatabase } from '../store/database';
import { ALLOWED_SCOPES, scopeAllows } from './auth-key-rules';

/**
 * The key the service reports as its own (the embedded service's `ready`, `npm run service`'s output),
 * and how the app that runs it gets full access back. Only the process that owns the data dir can call
 * these: they are never reachable over HTTP, so the API's own auth is not weakened.
 */

/** Every scope a key may hold (null = all; `read`/`write` cover every read/write scope). */
export const isFullScope = (scope: string | null | undefined): boolean =>
  scope === null || scope === undefined || ALLOWED_SCOPES.every((s) => scopeAllows(scope, s));

export interface OwnKeyChoice {
  account: AccountRow | null;
  /** Why the key chosen is not an active full-access one, in words; null when it is. */
  problem: string | null;
}

const short = (k: string) => `${k.slice(0, 12)}…`;

/**
 * Oldest active full-scope key first. Never a narrower key in silence: when there is no active full-access
 * key, the one chosen comes with the reason (and the app offers "Restore full access").
 */
export function pickOwnKey(accounts: readonly AccountRow[]): OwnKeyChoice {
  const full = accounts.filter((a) => isFullScope(a.scope));
  const activeFull = full.find((a) => a.isActive !== false);
  if (activeFull) return { account: activeFull, problem: null };
  if (full[0]) {
    return { account: full[0], problem: `The local service's full-access key ${short(full[0].authKey)} is inactive, so the app cannot use it.` };
  }
  const fallback = accounts.find((a) => a.isActive !== false) ?? accounts[0] ?? null;
  if (!fallback) return { account: null, problem: null };
  return { account: fallback, problem: `The local service has no key with every scope; the app uses ${short(fallback.authKey)}, which holds only ${fallback.scope || 'no scopes'}.` };
}

export type RestoreAction = 'unchanged' | 'reactivated' | 'created';

/**
 * Makes sure an active full-access key exists and answers it: an active one as it is; else the inactive
 * full-access key `prefer` names (or the oldest one) reactivated; else a new full-access key.
 */
export function restoreFullAccess(db: ServiceDatabase, prefer: string | null): { account: AccountRow; action: RestoreAction } {
  const accounts = db.allAccounts();
  const full = accounts.filter((a) => isFullScope(a.scope));
  const activeFull = full.find((a) => a.isActive !== false);
  if (activeFull) return { account: activeFull, action: 'unchanged' };
  const inactive = full.find((a) => a.authKey === prefer) ?? full[0];
  if (inactive) return { account: db.updateAccount(inactive.authKey, { isActive: true })!, action: 'reactivated' };
  const created: AccountRow = {
    authKey: randomBytes(16).toString('hex'),
    authSecret: randomBytes(20).toString('hex'),
    requireSignature: accounts[0]?.requireSignature ?? false,
    description: 'Assemblyline on this computer: full access, restored by the app',
    isActive: true,
    scope: null,
    signatureAlgo: 'sha384',
  };
  db.upsertAccount(created);
  return { account: db.getAccount(created.authKey)!, action: 'created' };
}
