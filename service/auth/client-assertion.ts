// Client assertions on POST /token (spec "Bearer tokens" client_assertion; RFC 7523 §3): a JWT signed
// with one of the client's registered keys. Each rule has its own error code so a client can tell which
// one its assertion broke; the spec names none, so the codes are ours (docs/local-service.md).
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JSONWebKeySet } from 'jose';
import { apiError, type ApiError } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import { sameOrigin } from './token-resource';

export const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Spec Limits: "Client assertion lifetime: up to five minutes." */
export const ASSERTION_MAX_LIFETIME_S = 300;
/** Clocks of one machine agree; a remote client's may drift a little. */
const CLOCK_SKEW_S = 5;
/** Asymmetric algorithms only: a shared-secret (HS*) assertion would need the client's secret here. */
export const ASSERTION_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'Ed25519'];

export const AssertionCode = {
  type: 'TOKEN_INVALID_CLIENT_ASSERTION_TYPE',
  malformed: 'TOKEN_CLIENT_ASSERTION_MALFORMED',
  subject: 'TOKEN_CLIENT_ASSERTION_SUBJECT',
  unknownClient: 'TOKEN_INVALID_CLIENT',
  signature: 'TOKEN_CLIENT_ASSERTION_SIGNATURE',
  audience: 'TOKEN_CLIENT_ASSERTION_AUDIENCE',
  expired: 'TOKEN_CLIENT_ASSERTION_EXPIRED',
  lifetime: 'TOKEN_CLIENT_ASSERTION_LIFETIME',
  replayed: 'TOKEN_CLIENT_ASSERTION_REPLAYED',
  required: 'TOKEN_CLIENT_ASSERTION_REQUIRED',
} as const;

const fail = (code: string, message: string, status = 401): ApiError => apiError(code, message, status);

/** Whether a token request carries an assertion at all (either field). */
export const carriesAssertion = (f: Record<string, string>): boolean => f.client_assertion !== undefined || f.client_assertion_type !== undefined;

/**
 * Whether `aud` names this token endpoint: `<origin>/token` of the service as reached or its public
 * base URL (loopback names of one port count as one), no query or fragment; an array must contain one.
 */
export function audienceNamesEndpoint(aud: unknown, ownOrigins: readonly string[]): boolean {
  const list = Array.isArray(aud) ? aud : [aud];
  return list.some((a) => {
    if (typeof a !== 'string') return false;
    let url: URL;
    try {
      url = new URL(a);
    } catch {
      return false;
    }
    if (url.search || url.hash || url.pathname.replace(/\/+$/, '') !== '/token') return false;
    return ownOrigins.some((o) => {
      try {
        return sameOrigin(new URL(o), url);
      } catch {
        return false;
      }
    });
  });
}

/**
 * Checks `client_assertion` for the client the request names (`client_id`, or the assertion's `iss` when
 * it is left out, as the spec allows) and records its `jti`. Answers the client id or the broken rule.
 */
export async function verifyClientAssertion(
  db: ServiceDatabase,
  f: Record<string, string>,
  ownOrigins: readonly string[],
  nowMs = Date.now(),
): Promise<{ clientId: string } | ApiError> {
  if (f.client_assertion_type !== JWT_BEARER) {
    return fail(AssertionCode.type, `client_assertion_type must be ${JWT_BEARER} when client_assertion is sent (got ${f.client_assertion_type ?? 'none'}).`, 400);
  }
  const jwt = f.client_assertion ?? '';
  if (!jwt) return fail(AssertionCode.type, 'client_assertion_type was sent without a client_assertion.', 400);
  let claims: ReturnType<typeof decodeJwt>;
  try {
    decodeProtectedHeader(jwt);
    claims = decodeJwt(jwt);
  } catch {
    return fail(AssertionCode.malformed, 'client_assertion is not a signed JWT (three base64url parts with a JSON header and claims).');
  }
  const clientId = f.client_id || (typeof claims.iss === 'string' ? claims.iss : '');
  if (!clientId || claims.iss !== clientId || claims.sub !== clientId) {
    return fail(AssertionCode.subject, `The assertion's iss and sub must both be the client id${clientId ? ` "${clientId}"` : ''} (got iss ${JSON.stringify(claims.iss ?? null)}, sub ${JSON.stringify(claims.sub ?? null)}).`);
  }
  const registered = db.clientJwks(clientId);
  if (!registered) return fail(AssertionCode.unknownClient, `No public keys are registered for the client "${clientId}": register its JWKS (PUT /oauth_clients/{client_id}) first.`);
  const now = Math.floor(nowMs / 1000);
  try {
    await jwtVerify(jwt, createLocalJWKSet(JSON.parse(registered.jwks) as JSONWebKeySet), {
      algorithms: ASSERTION_ALGORITHMS,
      currentDate: new Date(nowMs),
      clockTolerance: CLOCK_SKEW_S,
    });
  } catch (e) {
    if (e instanceof errors.JWTExpired) return fail(AssertionCode.expired, `The assertion expired at ${new Date(Number(claims.exp) * 1000).toISOString()}: sign a new one for each request.`);
    if (e instanceof errors.JOSEAlgNotAllowed) return fail(AssertionCode.malformed, `The assertion's algorithm is not accepted: use one of ${ASSERTION_ALGORITHMS.join(', ')}.`);
    if (e instanceof errors.JWTClaimValidationFailed) return fail(AssertionCode.lifetime, `The assertion is not valid yet (${e.claim}).`);
    if (e instanceof errors.JWTInvalid || e instanceof errors.JWSInvalid) return fail(AssertionCode.malformed, `client_assertion is malformed: ${e.message}`);
    return fail(AssertionCode.signature, `No key registered for "${clientId}" verifies the assertion's signature.`);
  }
  if (!audienceNamesEndpoint(claims.aud, ownOrigins)) {
    return fail(AssertionCode.audience, `The assertion's aud must be this token endpoint (${ownOrigins[0] ?? ''}/token) (got ${JSON.stringify(claims.aud ?? null)}).`);
  }
  if (typeof claims.exp !== 'number') return fail(AssertionCode.lifetime, 'The assertion has no exp: it must expire within five minutes.');
  if (claims.exp - now > ASSERTION_MAX_LIFETIME_S + CLOCK_SKEW_S) {
    return fail(AssertionCode.lifetime, `The assertion expires ${claims.exp - now} s from now: at most ${ASSERTION_MAX_LIFETIME_S} s is accepted.`);
  }
  if (typeof claims.jti !== 'string' || claims.jti === '' || claims.jti.length > 255) {
    return fail(AssertionCode.malformed, 'The assertion needs a jti (a unique string of at most 255 characters).');
  }
  if (!db.rememberAssertionJti(clientId, claims.jti, claims.exp * 1000, nowMs)) {
    return fail(AssertionCode.replayed, `The assertion's jti "${claims.jti}" was already used: each assertion is accepted once.`);
  }
  return { clientId };
}
