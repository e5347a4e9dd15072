import { z } from 'zod';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';

export interface MintedToken {
  token: string;
  expiresAtMs: number;
  scopes: string[];
  /** Browser sign-in only: the refresh token that replaces the one presented. */
  refreshToken?: string;
  /** The key the deployment granted the tokens for, when it says (our local service does). */
  authKey?: string;
}

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive(),
  scope: z.string().default(''),
  refresh_token: z.string().optional(),
  auth_key: z.string().optional(),
});

/** A /token answer (any grant) as a result; errors keep the service's `{error, message}` (service-facts §11). */
export async function readTokenAnswer(response: Response, now: number): Promise<Result<MintedToken>> {
  const text = await response.text().catch(() => '');
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // reported below
  }
  if (!response.ok) {
    const body = json as { error?: unknown; message?: unknown } | null;
    if (body && typeof body.error === 'string') {
      return err(body.error, typeof body.message === 'string' ? body.message : `Token request failed (${response.status}).`, { httpCode: response.status });
    }
    return err(`SERVER_${response.status}`, `Token request failed (${response.status}): ${text.slice(0, 200)}`, { httpCode: response.status });
  }
  const parsed = tokenAnswer.safeParse(json);
  if (!parsed.success) return err(AppErrorCode.invalidResponse, 'The token endpoint sent an answer the app cannot read.');
  const a = parsed.data;
  return ok({
    token: a.access_token,
    expiresAtMs: now + a.expires_in * 1000,
    scopes: a.scope.split(/[\s,]+/).filter(Boolean),
    ...(a.refresh_token ? { refreshToken: a.refresh_token } : {}),
    ...(a.auth_key ? { authKey: a.auth_key } : {}),
  });
}

/** Every token request: a form POST, redirects refused, 15 s timeout, the answer read by readTokenAnswer. */
export async function postTokenForm(
  url: string,
  form: Record<string, string>,
  o: { headers?: Record<string, string>; fetch?: typeof fetch; now?: () => number } = {},
): Promise<Result<MintedToken>> {
  let response: Response;
  try {
    response = await (o.fetch ?? fetch)(url, {
      method: 'POST',
      redirect: 'error',
      headers: { ...o.headers, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (cause) {
    return err(AppErrorCode.network, `Could not reach ${url}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  return readTokenAnswer(response, (o.now ?? Date.now)());
}

/** The token URL of an endpoint; NS client rules: https, or http on a loopback host only; no credentials, query or hash. */
export function tokenUrl(endpoint: string): Result<string> {
  let url: URL;
  try {
    url = new URL(endpoint.replace(/\/token\/?$/, ''));
  } catch {
    return err(AppErrorCode.invalidRequest, `${endpoint} is not a URL.`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    return err(AppErrorCode.invalidRequest, 'Tokens are only requested over https (or http to this computer): the Auth Secret would travel in clear text.');
  }
  if (url.username || url.password || url.search || url.hash) return err(AppErrorCode.invalidRequest, 'The endpoint must not hold credentials, a query or a hash.');
  return ok(`${url.origin}${url.pathname.replace(/\/+$/, '')}/token`);
}

/**
 * POST /token with `client_credentials` (service-facts §11): HTTP Basic with the key and secret, scopes
 * space-joined, `aud=api2`, redirects refused, 15 s timeout.
 */
export async function mintClientCredentials(o: {
  endpoint: string;
  authKey: string;
  authSecret: string;
  scopes: string[] | null;
  fetch?: typeof fetch;
  now?: () => number;
}): Promise<Result<MintedToken>> {
  const url = tokenUrl(o.endpoint);
  if (!url.ok) return url;
  const form: Record<string, string> = { grant_type: 'client_credentials', aud: 'api2' };
  if (o.scopes && o.scopes.length > 0) form.scope = [...new Set(o.scopes)].join(' ');
  return postTokenForm(url.value, form, {
    headers: { Authorization: `Basic ${Buffer.from(`${o.authKey}:${o.authSecret}`).toString('base64')}` },
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.now ? { now: o.now } : {}),
  });
}

/** Signs client assertions for one client (the private key stays with whoever made this). */
export interface ClientAssertionSigner {
  clientId: string;
  sign: (tokenEndpoint: string) => Promise<Result<string>>;
}

/** The two form fields of a client assertion (RFC 7523 §2.2). */
export async function assertionFields(signer: ClientAssertionSigner, tokenEndpoint: string): Promise<Result<Record<string, string>>> {
  const jwt = await signer.sign(tokenEndpoint);
  if (!jwt.ok) return jwt;
  return ok({ client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: jwt.value });
}

/** The client id the app signs in with (a public client: no secret, PKCE instead). */
export const DESKTOP_CLIENT_ID = 'assemblyline-desktop';

/**
 * POST /token with `refresh_token`: a new access token and a new refresh token; the one presented stops
 * working at once, so the caller must keep the new one. `scopes` narrows this access token only.
 * `TOKEN_INVALID_GRANT` means: sign in again.
 */
export async function mintWithRefreshToken(o: {
  endpoint: string;
  refreshToken: string;
  scopes?: string[];
  /** A sign-in with a private key: its client id and a fresh assertion for the token URL (RFC 7523). */
  clientKey?: ClientAssertionSigner;
  fetch?: typeof fetch;
  now?: () => number;
}): Promise<Result<MintedToken>> {
  const url = tokenUrl(o.endpoint);
  if (!url.ok) return url;
  const form: Record<string, string> = { grant_type: 'refresh_token', refresh_token: o.refreshToken, client_id: o.clientKey?.clientId ?? DESKTOP_CLIENT_ID };
  if (o.clientKey) {
    const signed = await assertionFields(o.clientKey, url.value);
    if (!signed.ok) return signed;
    Object.assign(form, signed.value);
  }
  if (o.scopes && o.scopes.length > 0) form.scope = o.scopes.join(' ');
  return postTokenForm(url.value, form, { ...(o.fetch ? { fetch: o.fetch } : {}), ...(o.now ? { now: o.now } : {}) });
}
