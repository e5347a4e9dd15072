import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, exportSPKI, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';

/**
 * A workspace's private key for signing in as a public client with client assertions (RFC 7523,
 * spec "Bearer tokens" client_assertion). The private JWK lives in the vault only; what leaves core is
 * the public half (JWK and PEM) and the client id it is registered under.
 */
export interface ClientKeyPublic {
  clientId: string;
  kid: string;
  /** The public JWK as registered (`kty`, `crv`, `x`, `y`, `kid`, `alg`, `use`). */
  publicJwk: JWK;
  /** SubjectPublicKeyInfo PEM, for deployments that take keys in that form. */
  publicPem: string;
}

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const ALG = 'ES256';
/** Assertions live one minute: the spec allows five, and each is made for one request anyway. */
const ASSERTION_LIFETIME_S = 60;

/** Vault account of a client key's private JWK (by kid, so a key can exist before its workspace). */
export const clientKeyAccount = (kid: string): string => `client-key:${kid}`;

/** The client id a key signs in as: ours plus the key's thumbprint, so each key is its own client. */
export const clientIdFor = (kid: string): string => `assemblyline-desktop-${kid.slice(0, 16)}`;

/** A new ES256 key pair: the private JWK (for the vault) and its public view. */
export async function createClientKey(): Promise<{ privateJwk: string; view: ClientKeyPublic }> {
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  const privateJwk = JSON.stringify({ ...jwk, kid, alg: ALG, use: 'sig' });
  return { privateJwk, view: await publicView(privateJwk) };
}

/** The public half of a stored private JWK. */
export async function publicView(privateJwk: string): Promise<ClientKeyPublic> {
  const { d: _d, ...pub } = JSON.parse(privateJwk) as JWK;
  const kid = pub.kid ?? (await calculateJwkThumbprint(pub));
  const key = await importJWK({ ...pub, ext: true }, ALG);
  if (key instanceof Uint8Array) throw new Error('A client key must be asymmetric.');
  return { clientId: clientIdFor(kid), kid, publicJwk: { ...pub, kid }, publicPem: await exportSPKI(key) };
}

/**
 * A fresh assertion for one token request: iss = sub = the client id, aud = the token endpoint,
 * a random jti, expiring in a minute (spec: within five minutes, each jti once).
 */
export async function signClientAssertion(o: { privateJwk: string; tokenEndpoint: string; now?: number }): Promise<Result<string>> {
  try {
    const jwk = JSON.parse(o.privateJwk) as JWK;
    const kid = jwk.kid ?? (await calculateJwkThumbprint(jwk));
    const key = await importJWK(jwk, ALG);
    const now = Math.floor((o.now ?? Date.now()) / 1000);
    const clientId = clientIdFor(kid);
    const jwt = await new SignJWT({ jti: randomBytes(16).toString('base64url') })
      .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(o.tokenEndpoint)
      .setIssuedAt(now)
      .setExpirationTime(now + ASSERTION_LIFETIME_S)
      .sign(key);
    return ok(jwt);
  } catch (cause) {
    return err(AppErrorCode.internal, `The stored client key could not sign: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}
