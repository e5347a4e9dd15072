import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ALLOWED_SCOPES, normalizeScope, scopeAllows } from '../auth-keys/auth-key-rules';
import { apiError, sendError, sendJson } from '../http/api-error';
import { readFormFields } from '../http/form-fields';
import type { ServiceDatabase } from '../store/database';
import { AUTH_KEY_INACTIVE, INSUFFICIENT_AUTH_SCOPE } from './authenticate';
import { tokenHash } from './bearer';
import { carriesAssertion } from './client-assertion';
import type { OAuthServer } from './oauth';
import { audienceOfResource, TOKEN_INVALID_TARGET } from './token-resource';

/** Six hours (spec Limits). */
export const TOKEN_LIFETIME_S = 21600;

const invalidCredentials = () => apiError('TOKEN_INVALID_CREDENTIALS', 'POST /token needs HTTP Basic auth with an Auth Key as user name and its Auth Secret as password.', 401);

function basicCredentials(req: IncomingMessage): { key: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) } : null;
}

const sameSecret = (a: string, b: string): boolean => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * POST /token, `client_credentials` (spec "Bearer tokens", service-facts §11): an opaque token for the
 * Basic-authenticated key, with the requested scopes (never wider than the key's; all of them when
 * none are asked for), `aud` stored (default `api2`).
 */
export async function mintToken(db: ServiceDatabase, req: IncomingMessage, res: ServerResponse, oauth?: OAuthServer): Promise<void> {
  const body = await readFormFields(req);
  // The public-client grants send no Basic credentials (spec "Bearer tokens").
  if (oauth && body.ok && body.fields.grant_type === 'authorization_code') return oauth.exchangeCode(req, res, body.fields);
  if (oauth && body.ok && body.fields.grant_type === 'refresh_token') return oauth.refresh(req, res, body.fields);
  // The spec's client_credentials authenticates with HTTP Basic only; an assertion there is a mistake, not a second factor.
  if (body.ok && body.fields.grant_type === 'client_credentials' && carriesAssertion(body.fields)) {
    return sendError(res, apiError('TOKEN_INVALID_REQUEST', 'client_credentials authenticates with HTTP Basic (Auth Key and Secret); client_assertion is for authorization_code and refresh_token.', 400));
  }
  const creds = basicCredentials(req);
  const account = creds ? db.getAccount(creds.key) : null;
  if (!creds || !account || !sameSecret(account.authSecret, creds.secret)) {
    res.setHeader('WWW-Authenticate', 'Basic realm="token"');
    return sendError(res, invalidCredentials());
  }
  if (account.isActive === false) return sendError(res, apiError(AUTH_KEY_INACTIVE, `The auth key "${account.authKey}" is inactive.`, 401));
  if (!body.ok) return sendError(res, apiError('TOKEN_INVALID_REQUEST', body.message, 400));
  const f = body.fields;
  if (f.grant_type !== 'client_credentials') {
    return sendError(res, apiError('TOKEN_UNSUPPORTED_GRANT_TYPE', `grant_type must be client_credentials (with Basic auth), authorization_code or refresh_token (got ${f.grant_type ?? 'none'}).`, 400));
  }
  const keyScopes = account.scope === null || account.scope === undefined ? [...ALLOWED_SCOPES] : account.scope.split(',').filter(Boolean);
  let scopes = keyScopes;
  if (f.scope !== undefined && f.scope.trim() !== '') {
    const asked = normalizeScope(f.scope);
    if (typeof asked === 'string') return sendError(res, apiError('TOKEN_INVALID_SCOPE', asked, 400));
    scopes = asked.scope.split(',');
    // One table (shared/api/scopes.ts): a `read` key may mint `assemblies:read`.
    const wider = scopes.filter((s) => !scopeAllows(account.scope ?? null, s));
    if (wider.length > 0) return sendError(res, apiError(INSUFFICIENT_AUTH_SCOPE, `The Auth Key does not have ${wider.join(', ')}: a token cannot be wider than its key.`, 403));
  }
  // A client may ask for a shorter life than the default, never a longer one.
  const lifetime = f.expires_in === undefined ? TOKEN_LIFETIME_S : Number(f.expires_in);
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > TOKEN_LIFETIME_S) {
    return sendError(res, apiError('TOKEN_INVALID_REQUEST', `expires_in must be 1 to ${TOKEN_LIFETIME_S} seconds.`, 400));
  }
  // `resource` names what the token is for: this service's API (aud=api2) or its tool endpoint (aud=mcp);
  // a foreign one is refused (issue 25: it was ignored and a token minted all the same).
  let aud = f.aud || 'api2';
  if (f.resource !== undefined && f.resource !== '') {
    const named = audienceOfResource(f.resource, oauth ? oauth.ownOrigins(req) : []);
    if ('problem' in named) return sendError(res, apiError(TOKEN_INVALID_TARGET, named.problem, 400));
    if (f.aud && f.aud !== named.aud) return sendError(res, apiError(TOKEN_INVALID_TARGET, `resource names aud=${named.aud}, but aud=${f.aud} was asked.`, 400));
    aud = named.aud;
  }
  const token = randomBytes(32).toString('base64url');
  db.saveToken({ tokenHash: tokenHash(token), authKey: account.authKey, scope: scopes.join(','), aud, expiresAtMs: Date.now() + lifetime * 1000 });
  db.touchAccount(account.authKey, Date.now());
  sendJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: lifetime, scope: scopes.join(' ') }, { 'Cache-Control': 'no-store' });
}
