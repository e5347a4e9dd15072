import type { IncomingMessage, ServerResponse } from 'node:http';
import { importJWK, type JWK } from 'jose';
import { ErrorCode } from '../../shared/api/codes';
import { apiError, sendError, sendJson, type ApiError } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import { authorizedParams } from './authorized-params';
import { redirectAllowed } from './oauth';

const ONE = /^\/oauth_clients\/([^/]+)\/?$/;
const MAX_KEYS = 10;
/** Members that only a private (or symmetric) key has: registering one would publish a secret. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

const invalid = (message: string): ApiError => apiError('OAUTH_CLIENT_INVALID', message, 400);

/**
 * The `jwks` of a registration, checked: 1 to 10 public EC, RSA or OKP keys that import, `kid`s unique.
 * Pure apart from jose's import; answers the normalized JWKS or the reason.
 */
export async function checkJwks(value: unknown): Promise<{ keys: JWK[] } | string> {
  let jwks = value;
  if (typeof jwks === 'string') {
    try {
      jwks = JSON.parse(jwks);
    } catch {
      return 'jwks must be a JSON Web Key Set: {"keys": [ … ]}.';
    }
  }
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_KEYS) return `jwks must be {"keys": [ … ]} with 1 to ${MAX_KEYS} public keys.`;
  const kids = new Set<string>();
  for (const [i, key] of keys.entries()) {
    if (typeof key !== 'object' || key === null || Array.isArray(key)) return `jwks.keys[${i}] is not a JSON Web Key.`;
    const jwk = key as JWK;
    if (!['EC', 'RSA', 'OKP'].includes(String(jwk.kty))) return `jwks.keys[${i}]: kty must be EC, RSA or OKP (got ${JSON.stringify(jwk.kty ?? null)}).`;
    const secret = PRIVATE_MEMBERS.filter((m) => m in jwk);
    if (secret.length > 0) return `jwks.keys[${i}] holds private key material (${secret.join(', ')}): register the public key only.`;
    if (jwk.kid !== undefined) {
      if (typeof jwk.kid !== 'string' || kids.has(jwk.kid)) return `jwks.keys[${i}]: kid must be a string, unique in the set.`;
      kids.add(jwk.kid);
    }
    try {
      // EdDSA keys import under their curve's algorithm; the others under a placeholder of their type.
      await importJWK(jwk, jwk.alg ?? (jwk.kty === 'EC' ? { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[String(jwk.crv)] : jwk.kty === 'RSA' ? 'RS256' : 'EdDSA'));
    } catch (e) {
      return `jwks.keys[${i}] is not a usable public key: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return { keys: keys as JWK[] };
}

const MAX_REDIRECTS = 10;

/**
 * `redirect_uris` of a registration: 1 to 10 absolute https URLs, or http ones to this computer (RFC 8252;
 * any port then matches), no fragment. Pure; the list or the reason.
 */
export function checkRedirectUris(value: unknown): string[] | string {
  let list = value;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      list = [list];
    }
  }
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_REDIRECTS) return `redirect_uris must be 1 to ${MAX_REDIRECTS} URLs.`;
  for (const [i, uri] of list.entries()) {
    if (typeof uri !== 'string' || uri.length > 2000 || !redirectAllowed(uri)) {
      return `redirect_uris[${i}] must be an https URL, or http to this computer (127.0.0.1, [::1] or localhost), without a #fragment.`;
    }
  }
  return [...new Set(list as string[])];
}

function record(db: ServiceDatabase, clientId: string) {
  const row = db.clientJwks(clientId);
  const redirects = db.clientRedirects(clientId);
  if (!row && !redirects) return null;
  return {
    client_id: clientId,
    jwks: row ? (JSON.parse(row.jwks) as unknown) : null,
    redirect_uris: redirects ?? [],
    token_endpoint_auth_method: row ? 'private_key_jwt' : 'none',
    ...(row ? { created: new Date(row.createdMs).toISOString(), modified: new Date(row.modifiedMs).toISOString() } : {}),
  };
}

/**
 * Public keys of OAuth clients that sign client assertions (our paths: the spec says the keys are the
 * client's "published keys" and not how a deployment learns them). Signature auth and the `auth_keys:*`
 * scopes are required: registering a client's keys is managing who may sign in.
 */
export async function routeOAuthClients(db: ServiceDatabase, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
  const m = ONE.exec(path);
  if (!m) return false;
  const method = req.method ?? 'GET';
  let clientId: string;
  try {
    clientId = decodeURIComponent(m[1]!);
  } catch {
    clientId = '';
  }
  const auth = await authorizedParams(db, req, query);
  if (!auth.ok) {
    sendError(res, auth.error);
    return true;
  }
  if (!clientId || clientId.length > 300) {
    sendError(res, invalid('The client id must be 1 to 300 characters.'));
    return true;
  }
  const notFound = () => sendError(res, apiError('OAUTH_CLIENT_NOT_FOUND', `No client "${clientId}" is registered.`, 404));
  if (method === 'PUT') {
    // Keys (client assertions) and/or redirect URIs (where /authorize may send this client's codes).
    const hasJwks = auth.params.jwks !== undefined;
    const hasRedirects = auth.params.redirect_uris !== undefined;
    if (!hasJwks && !hasRedirects) {
      sendError(res, invalid('Register jwks (the client\'s public keys), redirect_uris, or both.'));
      return true;
    }
    const jwks = hasJwks ? await checkJwks(auth.params.jwks) : null;
    if (typeof jwks === 'string') {
      sendError(res, invalid(jwks));
      return true;
    }
    const redirects = hasRedirects ? checkRedirectUris(auth.params.redirect_uris) : null;
    if (typeof redirects === 'string') {
      sendError(res, invalid(redirects));
      return true;
    }
    const now = Date.now();
    if (jwks) db.saveClientJwks(clientId, JSON.stringify(jwks), now);
    if (redirects) db.saveClientRedirects(clientId, redirects, now);
    sendJson(res, 200, { ok: 'OAUTH_CLIENT_SAVED', message: 'The client was registered.', client: record(db, clientId) });
  } else if (method === 'GET') {
    const client = record(db, clientId);
    if (!client) notFound();
    else sendJson(res, 200, { ok: 'OAUTH_CLIENT_FOUND', message: 'Client found.', client });
  } else if (method === 'DELETE') {
    const removed = [db.deleteClientJwks(clientId), db.deleteClientRedirects(clientId)];
    if (!removed.some(Boolean)) notFound();
    else sendJson(res, 200, { ok: 'OAUTH_CLIENT_DELETED', message: 'The client registration was removed.' });
  } else {
    sendError(res, apiError(ErrorCode.server404, 'unknown method / url', 404));
  }
  return true;
}
