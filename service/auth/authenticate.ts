import { ErrorCode } from '../../shared/api/codes';
import { apiError, type ApiError } from '../http/api-error';
import { checkReferer } from './referer';
import { scopeAllows } from '../auth-keys/auth-key-rules';
import { parseExpires, parseSignature, verifySignature } from './signature';

/** Ours: the real code for an inactive key is not known. */
export const AUTH_KEY_INACTIVE = 'AUTH_KEY_INACTIVE';
export const INSUFFICIENT_AUTH_SCOPE = 'INSUFFICIENT_AUTH_SCOPE';
/** Ours, after the enum's INVALID_AUTH_*_PARAMETER pattern: a nonce that is not a string or an integer. */
export const INVALID_AUTH_NONCE = 'INVALID_AUTH_NONCE_PARAMETER';
/** In the enum (service-facts §9): an auth.key that is there but not a string. */
export const INVALID_AUTH_KEY = 'INVALID_AUTH_KEY_PARAMETER';
/**
 * How far ahead a signed request may expire. SDKs sign for 5 min (PY) to 1 day (NS, which DST can make
 * 25 h); beyond this a captured request would stay replayable, and its nonce stored, for years.
 */
export const MAX_EXPIRES_AHEAD_MS = 48 * 3600_000;
/** Request signatures of a key without `signature_algo` (spec: "sha384 for ordinary keys"). */
export const DEFAULT_SIGNATURE_ALGO = 'sha384';
const MAX_NONCE_LENGTH = 255;
import type { AccountRow } from '../store/database';

export interface AuthInput {
  params: string | undefined;
  signature: string | undefined;
  referer: string | undefined;
  nowMs: number;
  /** Endpoints where the spec says signature auth is "required" (e.g. GET /assemblies). */
  signatureRequired?: boolean;
  /**
   * The account setting "Require a correct Signature" (spec "Signature authentication" 1): every key of the
   * account, those made later included, must sign. A key's own stored flag counts too.
   */
  accountRequiresSignature?: boolean;
  findAccount(authKey: string): AccountRow | null;
  /** false when the nonce was already used within its expiry. */
  rememberNonce(authKey: string, nonce: string, expiresAtMs: number): boolean;
  /** The scope the endpoint needs (`auth/required-scope.ts`); a key without it gets INSUFFICIENT_AUTH_SCOPE. */
  requiredScope?: string | null;
  /** `Authorization: Bearer <token>`: satisfies signature auth; scopes still apply (spec "Bearer tokens"). */
  bearer?: string | null;
  findToken?(token: string): { authKey: string; scope: string; expiresAtMs: number } | null;
}

export interface AuthedParams {
  rawParams: string;
  params: Record<string, unknown>;
  account: AccountRow;
  maxSize: number | null;
  maxNumberOfFiles: number | null;
}

export type AuthResult = { ok: true; value: AuthedParams } | { ok: false; error: ApiError };

const fail = (code: string, message: string, httpCode: number): AuthResult => ({ ok: false, error: apiError(code, message, httpCode) });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const NONCE_DEFAULT_TTL_MS = 24 * 3600_000;
/** A value for a message: strings as they are, anything else as JSON (never `[object Object]`). */
const shown = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v));

/** `auth.nonce` or top-level `nonce` (spec: string or integer): the text to remember, null for none, or the problem. */
export function nonceOf(v: unknown): { nonce: string | null } | { problem: string } {
  if (v === undefined || v === null || v === '') return { nonce: null };
  if (typeof v === 'number' && Number.isSafeInteger(v)) return { nonce: String(v) };
  if (typeof v !== 'string') return { problem: `The nonce must be a string or an integer (got ${shown(v)}).` };
  if (v.length > MAX_NONCE_LENGTH) return { problem: `The nonce may hold at most ${MAX_NONCE_LENGTH} characters (got ${v.length}).` };
  return { nonce: v };
}

/** A non-negative number, or a numeric string (form-encoded SDKs); undefined when absent, NaN when invalid. */
export function limitValue(v: unknown, min: number, integer: boolean): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) return NaN;
  return n;
}

/**
 * A Bearer request: the token names the key and the scopes. It replaces the signature only (spec "Bearer
 * tokens" 2): the `auth` rules that follow (nonce, limits, referer) hold as for a signed request.
 */
function bearerAccount(input: AuthInput, token: string, params: Record<string, unknown>): { account: AccountRow } | { error: AuthResult } {
  const found = input.findToken?.(token) ?? null;
  if (!found) return { error: fail('BEARER_TOKEN_INVALID', 'The Bearer token is not valid: mint a new one at POST /token.', 401) };
  if (found.expiresAtMs <= input.nowMs) return { error: fail('BEARER_TOKEN_EXPIRED', 'The Bearer token has expired: mint a new one at POST /token.', 401) };
  const account = input.findAccount(found.authKey);
  if (!account) return { error: fail('BEARER_TOKEN_INVALID', 'The Auth Key of this Bearer token no longer exists.', 401) };
  if (account.isActive === false) return { error: fail(AUTH_KEY_INACTIVE, `The auth key "${account.authKey}" of this Bearer token is inactive.`, 401) };
  const auth = isObject(params.auth) ? params.auth : {};
  if (typeof auth.key === 'string' && auth.key !== '' && auth.key !== account.authKey) {
    return { error: fail('BEARER_TOKEN_AUTH_KEY_MISMATCH', 'params.auth.key names another Auth Key than the Bearer token: leave it out, or send the key of the token.', 401) };
  }
  if (input.requiredScope && !scopeAllows(found.scope, input.requiredScope)) {
    return { error: fail(INSUFFICIENT_AUTH_SCOPE, `This Bearer token does not have the scope ${input.requiredScope} this endpoint needs (it has: ${found.scope || 'none'}).`, 403) };
  }
  return { account };
}

/** Checks `params` + `signature` as the real service does (service-facts.md §1). Pure apart from the two callbacks. */
export function authenticate(input: AuthInput): AuthResult {
  const { params: raw, signature } = input;
  if (raw === undefined || raw === '') return fail(ErrorCode.noParams, 'No params field was provided. Please provide a params field with JSON-encoded Assembly instructions.', 400);
  let params: unknown;
  try {
    params = JSON.parse(raw);
  } catch {
    return fail(ErrorCode.invalidParams, 'The params field could not be parsed as JSON.', 400);
  }
  if (!isObject(params)) return fail(ErrorCode.noObjectParams, 'The params field must be a JSON object.', 400);
  // Checked for every request, Bearer ones too: a nonce is a string or an integer, nothing else.
  const nonce = nonceOf((isObject(params.auth) ? params.auth.nonce : undefined) ?? params.nonce);
  if ('problem' in nonce) return fail(INVALID_AUTH_NONCE, nonce.problem, 400);
  let account: AccountRow;
  let auth: Record<string, unknown>;
  let expiresAt: number | null = null;
  if (input.bearer) {
    if (params.auth !== undefined && !isObject(params.auth)) return fail('NO_OBJECT_AUTH_PARAMETER', 'The auth parameter must be an object.', 400);
    const found = bearerAccount(input, input.bearer, params);
    if ('error' in found) return found.error;
    account = found.account;
    auth = isObject(params.auth) ? params.auth : {};
  } else {
    const signed = signedAccount(input, raw, params, signature);
    if ('error' in signed) return signed.error;
    ({ account, auth, expiresAt } = signed);
  }

  if (nonce.nonce !== null) {
    const ttlEnd = expiresAt ?? input.nowMs + NONCE_DEFAULT_TTL_MS;
    if (!input.rememberNonce(account.authKey, nonce.nonce, Math.max(ttlEnd, input.nowMs))) {
      return fail(ErrorCode.signatureReuse, 'This nonce was already used with this auth key. Send a new nonce with each request.', 401);
    }
  }

  const maxSize = limitValue(auth.max_size, 0, false);
  if (Number.isNaN(maxSize)) return fail(ErrorCode.invalidMaxSize, 'auth.max_size must be a number of bytes (>= 0).', 400);
  const maxFiles = limitValue(auth.max_number_of_files, 1, true);
  if (Number.isNaN(maxFiles)) return fail(ErrorCode.invalidMaxFiles, 'auth.max_number_of_files must be an integer >= 1.', 400);

  if (auth.referer !== undefined && auth.referer !== null) {
    if (typeof auth.referer !== 'string') return fail(ErrorCode.invalidReferer, 'auth.referer must be a regular expression string.', 400);
    const check = checkReferer(auth.referer, input.referer);
    if (check === 'invalid') return fail(ErrorCode.invalidReferer, `auth.referer "${auth.referer}" is not a valid regular expression.`, 400);
    if (check === 'timeout') return fail(ErrorCode.invalidReferer, `auth.referer "${auth.referer}" took too long to evaluate and was rejected.`, 400);
    if (check === 'mismatch') return fail(ErrorCode.refererMismatch, 'The Referer header does not match auth.referer.', 403);
  }

  // A Bearer request may leave auth.key out; the Assembly still records its key.
  const out = input.bearer ? { ...params, auth: { ...auth, key: account.authKey } } : params;
  return { ok: true, value: { rawParams: raw, params: out, account, maxSize: maxSize ?? null, maxNumberOfFiles: maxFiles ?? null } };
}

/** A key/secret request: the key, its signature (or the account's rule that none is needed), its scope. */
function signedAccount(input: AuthInput, raw: string, params: Record<string, unknown>, signature: string | undefined): { account: AccountRow; auth: Record<string, unknown>; expiresAt: number | null } | { error: AuthResult } {
  const err = (r: AuthResult) => ({ error: r });
  const auth = params.auth;
  if (auth === undefined) return err(fail(ErrorCode.noAuth, 'No auth parameter was provided in params.', 400));
  if (!isObject(auth)) return err(fail('NO_OBJECT_AUTH_PARAMETER', 'The auth parameter must be an object.', 400));
  if (auth.key === undefined || auth.key === null || auth.key === '') return err(fail(ErrorCode.noAuthKey, 'No auth.key parameter was provided in params.', 400));
  if (typeof auth.key !== 'string') return err(fail(INVALID_AUTH_KEY, `auth.key must be a string (got ${shown(auth.key)}).`, 400));
  const account = input.findAccount(auth.key);
  if (!account) return err(fail(ErrorCode.unknownAuthKey, `The auth key "${auth.key}" is unknown.`, 401));
  if (account.isActive === false) return err(fail(AUTH_KEY_INACTIVE, `The auth key "${auth.key}" is inactive: reactivate it, or use another key.`, 401));

  let expiresAt: number | null = null;
  const hasSignature = typeof signature === 'string' && signature !== '';
  if (hasSignature) {
    if (auth.expires === undefined || auth.expires === null || auth.expires === '') {
      return err(fail(ErrorCode.noAuthExpires, 'A signed request needs auth.expires in params.', 400));
    }
    expiresAt = parseExpires(auth.expires);
    if (expiresAt === null) return err(fail(ErrorCode.invalidAuthExpires, `auth.expires ${shown(auth.expires)} is not a valid date (use ISO 8601 or YYYY/MM/DD HH:MM:SS+00:00).`, 400));
    // One algorithm per key, so nobody can fall back to a weaker one the key's owner did not choose.
    const keyAlgo = account.signatureAlgo ?? DEFAULT_SIGNATURE_ALGO;
    const algo = parseSignature(signature)?.algo;
    if (algo && algo !== keyAlgo) {
      const why = account.signatureAlgo ? '' : ` (its signature_algo is not set, which means ${DEFAULT_SIGNATURE_ALGO}; set it to ${algo} to sign that way)`;
      return err(fail(ErrorCode.invalidSignature, `This Auth Key signs with ${keyAlgo}${why}: send a "${keyAlgo}:" signature (got ${algo}).`, 401));
    }
    if (!verifySignature(raw, signature, account.authSecret)) return err(fail(ErrorCode.invalidSignature, 'The signature does not match the params (HMAC of the raw params string with the auth secret).', 401));
    if (expiresAt < input.nowMs) return err(fail(ErrorCode.authExpired, `The request expired at ${shown(auth.expires)} (auth.expires is in the past).`, 401));
    if (expiresAt > input.nowMs + MAX_EXPIRES_AHEAD_MS) {
      return err(fail(ErrorCode.invalidAuthExpires, `auth.expires ${shown(auth.expires)} is more than ${MAX_EXPIRES_AHEAD_MS / 3600_000} hours ahead: sign requests for a shorter time (SDKs use 5 minutes to 1 day).`, 400));
    }
  } else if (account.requireSignature || input.accountRequiresSignature || input.signatureRequired) {
    return err(fail(ErrorCode.noSignatureField, input.signatureRequired ? 'This endpoint requires a signature: send the signature field next to params.' : 'This account requires a signature: send the signature field next to params.', 401));
  }

  if (input.requiredScope && !scopeAllows(account.scope ?? null, input.requiredScope)) {
    return err(fail(INSUFFICIENT_AUTH_SCOPE, `The auth key "${auth.key}" does not have the scope ${input.requiredScope} this endpoint needs.`, 403));
  }
  return { account, auth, expiresAt };
}
