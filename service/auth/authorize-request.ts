import type { IncomingMessage } from 'node:http';
import type { ServiceDatabase } from '../store/database';
import { authenticate, type AuthResult } from './authenticate';
import { requiredScope } from './required-scope';
import { bearerOf, tokenLookup } from './bearer';

/**
 * Authenticates a request to an account endpoint (Templates, credentials) from its `params` and
 * `signature` fields. One place, so that Bearer tokens and scopes apply to every such endpoint alike.
 */
export function authorizeRequest(db: ServiceDatabase, req: IncomingMessage, fields: Record<string, string>, signatureRequired: boolean): AuthResult {
  const nowMs = Date.now();
  const path = new URL(req.url ?? '/', 'http://local').pathname;
  const result = authenticate({
    params: fields.params,
    signature: fields.signature,
    referer: typeof req.headers.referer === 'string' ? req.headers.referer : undefined,
    nowMs,
    signatureRequired,
    findAccount: (k) => db.getAccount(k),
    rememberNonce: (k, n, exp) => db.rememberNonce(k, n, exp, nowMs),
    bearer: bearerOf(req),
    findToken: tokenLookup(db),
    requiredScope: requiredScope(req.method ?? 'GET', path),
  });
  if (result.ok) db.touchAccount(result.value.account.authKey, nowMs);
  return result;
}
