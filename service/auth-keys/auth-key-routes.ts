import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { authorizedParams } from '../auth/authorized-params';
import { apiError, sendError, sendJson, type ApiError } from '../http/api-error';
import type { AccountRow, ServiceDatabase } from '../store/database';
import { ALLOWED_SCOPES, checkDescription, flag, normalizeScope, resolveAlgo } from './auth-key-rules';

export interface AuthKeyRouteContext {
  db: ServiceDatabase;
}

const ONE = /^\/auth_keys\/([0-9a-f]{32})\/?$/;
/** The signing key itself (the vendor SDK's `DELETE /auth_keys/self`, params `{ action: 'revoke_auth_key' }`). */
const SELF = /^\/auth_keys\/self\/?$/;
const SHOW_SECRET = /^\/auth_keys\/(?:([0-9a-f]{32})\/show_secret|show_secret\/([0-9a-f]{32}))\/?$/;

const iso = (v: string | null | undefined): string | null => (v ? new Date(v).toISOString() : null);

/** The Auth Key record of the spec. The secret is never part of it. */
export const authKeyRecord = (a: AccountRow): Record<string, unknown> => ({
  id: a.id,
  auth_key: a.authKey,
  description: a.description ?? '',
  is_active: a.isActive !== false,
  is_allowed_for_smartcdn: a.smartCdn === true,
  scope: a.scope ?? null,
  signature_algo: a.signatureAlgo ?? null,
  can_show_auth_secret: a.canShowSecret !== false,
  created: iso(a.createdAt),
  modified: iso(a.modifiedAt),
  last_used: iso(a.lastUsedAt),
});

const invalid = (message: string): ApiError => apiError('AUTH_KEY_INVALID', message, 400);
const notFound = (id: string): ApiError => apiError('AUTH_KEYS_NOT_FOUND', `No Auth Key with id ${id}.`, 404);

/** Create/update fields (spec "Create and update request fields"), checked against the current key on update. */
function keyChange(params: Record<string, unknown>, current: AccountRow | null): Partial<AccountRow> | ApiError {
  const change: Partial<AccountRow> = {};
  if (params.description !== undefined) {
    const problem = checkDescription(params.description);
    if (problem) return invalid(problem);
    change.description = params.description as string;
  }
  for (const [key, field] of [
    ['is_active', 'isActive'],
    ['is_allowed_for_smartcdn', 'smartCdn'],
    // The record's can_show_auth_secret (issue 25: no request could set it). Omitted keeps the current value.
    ['can_show_auth_secret', 'canShowSecret'],
  ] as const) {
    const v = flag(params[key], key);
    if (typeof v === 'string') return invalid(v);
    if (v !== undefined) change[field] = v;
  }
  if (params.scope !== undefined && params.scope !== null) {
    const scope = normalizeScope(params.scope);
    if (typeof scope === 'string') return invalid(scope);
    change.scope = scope.scope;
  }
  const smartCdn = change.smartCdn ?? current?.smartCdn ?? false;
  const algo = resolveAlgo(params.signature_algo, smartCdn, current ? { algo: current.signatureAlgo ?? null, smartCdn: current.smartCdn === true } : null);
  if (typeof algo === 'string') return invalid(algo);
  change.signatureAlgo = algo.algo;
  return change;
}

/**
 * Auth Key management (spec "Auth Key"; the paths are ours, following the docs' page names, see
 * docs/local-service.md). Signature auth and the `auth_keys:*` scopes are required.
 */
export async function routeAuthKeys(ctx: AuthKeyRouteContext, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
  if (!path.startsWith('/auth_keys')) return false;
  const method = req.method ?? 'GET';
  const auth = await authorizedParams(ctx.db, req, query);
  if (!auth.ok) {
    sendError(res, auth.error);
    return true;
  }
  const caller = (auth.params.auth as { key: string }).key;
  const one = ONE.exec(path)?.[1];
  const secretOf = SHOW_SECRET.exec(path);
  const activeCount = () => ctx.db.allAccounts().filter((a) => a.isActive !== false).length;

  if ((path === '/auth_keys' || path === '/auth_keys/') && method === 'GET') {
    const keys = ctx.db.allAccounts().map(authKeyRecord);
    sendJson(res, 200, { ok: 'AUTH_KEYS_FOUND', message: 'Auth Keys found.', auth_keys: keys, count: keys.length });
  } else if ((path === '/auth_keys' || path === '/auth_keys/') && method === 'POST') {
    const change = keyChange(auth.params, null);
    if ('code' in change) {
      sendError(res, change);
      return true;
    }
    const key: AccountRow = {
      authKey: randomBytes(16).toString('hex'),
      authSecret: randomBytes(20).toString('hex'),
      requireSignature: false,
      scope: null,
      ...change,
    };
    ctx.db.upsertAccount(key);
    const created = ctx.db.getAccount(key.authKey)!;
    // The secret is given once here, so a rotation can store it without a second request.
    sendJson(res, 200, { ok: 'AUTH_KEY_CREATED', message: 'The Auth Key was created.', auth_key: authKeyRecord(created), auth_secret: created.authSecret });
  } else if (path === '/auth_keys/scopes' && method === 'GET') {
    sendJson(res, 200, { ok: 'AUTH_KEY_SCOPES_FOUND', scopes: ALLOWED_SCOPES });
  } else if (secretOf && method === 'POST') {
    const id = secretOf[1] ?? secretOf[2]!;
    const key = ctx.db.accountById(id);
    if (!key) sendError(res, notFound(id));
    else if (key.canShowSecret === false) sendError(res, apiError('AUTH_SECRET_NOT_RETRIEVED', 'This Auth Key does not allow showing its secret.', 403));
    else sendJson(res, 200, { ok: 'AUTH_SECRET_RETRIEVED', message: 'Auth secret retrieved.', auth_key: key.authKey, auth_secret: key.authSecret });
  } else if (one && method === 'GET') {
    const key = ctx.db.accountById(one);
    if (!key) sendError(res, notFound(one));
    else sendJson(res, 200, { ok: 'AUTH_KEY_FOUND', message: 'Auth Key found.', auth_key: authKeyRecord(key) });
  } else if (one && method === 'PUT') {
    const key = ctx.db.accountById(one);
    if (!key) {
      sendError(res, notFound(one));
      return true;
    }
    const change = keyChange(auth.params, key);
    if ('code' in change) {
      sendError(res, change);
      return true;
    }
    // The spec's state table puts no condition on active → inactive (issue 25), the last active key included:
    // the app restores access over its admin channel; `npm run service --auth-key <key>` reactivates the key given.
    const updated = ctx.db.updateAccount(key.authKey, change)!;
    sendJson(res, 200, { ok: 'AUTH_KEY_UPDATED', message: 'The Auth Key was updated.', auth_key: authKeyRecord(updated) });
  } else if (SELF.test(path) && method === 'DELETE') {
    // Revokes the key that signed this request (service-facts, npm addendum); never the last active one.
    const key = ctx.db.getAccount(caller);
    if (!key) sendError(res, apiError('AUTH_KEY_NOT_DELETED', 'The signing key is gone.', 400));
    else if (key.isActive !== false && activeCount() <= 1) sendError(res, apiError('AUTH_KEY_NOT_DELETED', 'This is the last active Auth Key: nothing could sign a request after it is gone. Create another one first.', 400));
    else if (!ctx.db.deleteAccount(key.authKey)) sendError(res, apiError('AUTH_KEY_NOT_DELETED', 'The Auth Key could not be deleted.', 400));
    else sendJson(res, 200, { ok: 'AUTH_KEY_DELETED', message: 'The signing Auth Key was deleted.', auth_key: key.authKey });
  } else if (one && method === 'DELETE') {
    const key = ctx.db.accountById(one);
    if (!key) sendError(res, notFound(one));
    else if (key.authKey === caller) sendError(res, apiError('AUTH_KEY_NOT_DELETED', 'An Auth Key cannot delete itself: sign this request with another key.', 400));
    else if (key.isActive !== false && activeCount() <= 1) sendError(res, apiError('AUTH_KEY_NOT_DELETED', 'This is the last active Auth Key.', 400));
    else if (!ctx.db.deleteAccount(key.authKey)) sendError(res, apiError('AUTH_KEY_NOT_DELETED', 'The Auth Key could not be deleted.', 400));
    else sendJson(res, 200, { ok: 'AUTH_KEY_DELETED', message: 'The Auth Key was deleted.' });
  } else {
    sendError(res, apiError(ErrorCode.server404, 'unknown method / url', 404));
  }
  return true;
}
