import { createHmac, randomBytes } from 'node:crypto';

/** Hash algorithms an Auth Key may sign with (spec "Signature authentication" §8). */
export type SignatureAlgo = 'sha1' | 'sha256' | 'sha384';

/**
 * `"<algo>:<hex HMAC>"` over the exact params string. The service verifies against the raw string it
 * receives, so callers must send this very string and never re-serialize it.
 */
export function signParams(paramsJson: string, secret: string, algo: SignatureAlgo = 'sha384'): string {
  const hex = createHmac(algo, Buffer.from(secret, 'utf8')).update(Buffer.from(paramsJson, 'utf8')).digest('hex');
  return `${algo}:${hex}`;
}

export interface BuildParamsOptions {
  authKey: string;
  /** Milliseconds since the epoch; injected so tests and expiry maths are deterministic. */
  now: number;
  /** How long the signature stays valid. */
  expiresInMinutes?: number;
  /** Injected for tests; a random 16-byte hex value by default. */
  nonce?: string;
}

/**
 * Params with `auth` first (key, expires, nonce) and the rest after it, serialized once. The nonce makes
 * each request's signature unique, so a retried request is never rejected as SIGNATURE_REUSE_DETECTED.
 */
export function buildParams(body: Record<string, unknown>, options: BuildParamsOptions): string {
  const expires = new Date(options.now + (options.expiresInMinutes ?? 60) * 60_000).toISOString();
  const nonce = options.nonce ?? randomBytes(16).toString('hex');
  const { auth: extraAuth, ...rest } = body;
  // A Bearer request leaves the key out (the token names it) but keeps the params envelope.
  const key = options.authKey ? { key: options.authKey } : {};
  const auth = { ...(isRecord(extraAuth) ? extraAuth : {}), ...key, expires, nonce };
  return JSON.stringify({ auth, ...rest });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
