import type { IncomingMessage, ServerResponse } from 'node:http';
import { importJWK, type JWK } from 'jose';
import { ErrorCode } from '../../shared/api/codes';
import { apiError, sendError, sendJson, type ApiError } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import { authorizedParams } from './authorized-params';

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

const record = (clientId: string, row: { jwks: string; createdMs: number; modifiedMs: number }) => ({
  client_id: clientId,
  jwks: JSON.parse(row.jwks) as unknown,
  token_endpoint_auth_method: 'private_key_jwt',
  created: new Date(row.createdMs).toISOString(),
  modified: new Date(row.modifiedMs).toISOString(),
});

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
  const notFound = () => sendError(res, apiError('OAUTH_CLIENT_NOT_FOUND', `No keys are registered for the client "${clientId}".`, 404));
  if (method === 'PUT') {
    const jwks = await checkJwks(auth.params.jwks);
    if (typeof jwks === 'string') {
      sendError(res, invalid(jwks));
      return true;
    }
    db.saveClientJwks(clientId, JSON.stringify(jwks), Date.now());
    sendJson(res, 200, { ok: 'OAUTH_CLIENT_SAVED', message: 'The client keys were registered.', client: record(clientId, db.clientJwks(clientId)!) });
  } else if (method === 'GET') {
    const row = db.clientJwks(clientId);
    if (!row) notFound();
    else sendJson(res, 200, { ok: 'OAUTH_CLIENT_FOUND', message: 'Client found.', client: record(clientId, row) });
  } else if (method === 'DELETE') {
    if (!db.deleteClientJwks(clientId)) notFound();
    else sendJson(res, 200, { ok: 'OAUTH_CLIENT_DELETED', message: 'The client keys were removed.' });
  } else {
    sendError(res, apiError(ErrorCode.server404, 'unknown method / url', 404));
  }
  return true;
}
