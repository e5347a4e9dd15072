import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ALLOWED_SCOPES, normalizeScope, scopeAllows } from '../auth-keys/auth-key-rules';
import { apiError, sendError, sendJson } from '../http/api-error';
import type { AccountRow, ServiceDatabase } from '../store/database';
import { AUTH_KEY_INACTIVE } from './authenticate';
import { tokenHash } from './bearer';
import { consentPage, messagePage } from './oauth-pages';

/** One-time codes live a minute; refresh tokens a month (OAuth 2.1 defaults in the range deployments use). */
const CODE_LIFETIME_MS = 60_000;
const CONSENT_LIFETIME_MS = 10 * 60_000;
const REFRESH_LIFETIME_MS = 30 * 24 * 3600_000;

export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  /** Normalized, comma-joined; null = every scope of the key chosen. */
  scope: string | null;
  aud: string;
}

interface PendingCode extends AuthorizeRequest {
  authKey: string;
  grantId: string;
  expiresAtMs: number;
  used: boolean;
}

/** RFC 8252: a native app's redirect is a loopback address (any port) or https. */
export function redirectAllowed(uri: string): boolean {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return false;
  }
  if (u.hash) return false;
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(u.hostname);
}

const sha256url = (s: string) => createHash('sha256').update(s).digest('base64url');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const noStore = { 'Cache-Control': 'no-store' };
/** `formOrigin`: where the answer redirects to; browsers apply form-action to a form's redirects too. */
const csp = (formOrigin = '') => `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${formOrigin ? ` ${formOrigin}` : ''}; frame-ancestors 'none'`;

function sendHtml(res: ServerResponse, status: number, html: string, formOrigin = ''): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp(formOrigin), 'X-Frame-Options': 'DENY', ...noStore });
  res.end(html);
}

function redirect(res: ServerResponse, to: string, params: Record<string, string>): void {
  const u = new URL(to);
  for (const [k, v] of Object.entries(params)) if (v !== '') u.searchParams.set(k, v);
  res.writeHead(302, { Location: u.toString(), ...noStore });
  res.end();
}

/**
 * The public-client grants of POST /token (spec "Bearer tokens": `authorization_code` with PKCE,
 * `refresh_token`) behind a consent page. The user of the local service is whoever sits at this
 * computer, so consent is a click; the key the tokens act for is chosen on the page.
 */
export function createOAuth(db: ServiceDatabase) {
  const consents = new Map<string, AuthorizeRequest & { expiresAtMs: number }>();
  const codes = new Map<string, PendingCode>();

  const prune = (now: number) => {
    for (const [k, v] of consents) if (v.expiresAtMs < now) consents.delete(k);
    for (const [k, v] of codes) if (v.expiresAtMs < now - CODE_LIFETIME_MS) codes.delete(k);
  };

  const activeKeys = (): AccountRow[] => db.allAccounts().filter((a) => a.isActive !== false);

  function issue(res: ServerResponse, o: { authKey: string; scope: string; aud: string; clientId: string; grantId: string }): void {
    const now = Date.now();
    const access = randomBytes(32).toString('base64url');
    const refresh = randomBytes(32).toString('base64url');
    db.saveToken({ tokenHash: tokenHash(access), authKey: o.authKey, scope: o.scope, aud: o.aud, expiresAtMs: now + 21600_000, grantId: o.grantId });
    db.saveRefreshToken({ hash: tokenHash(refresh), grantId: o.grantId, authKey: o.authKey, scope: o.scope, aud: o.aud, clientId: o.clientId, expiresAtMs: now + REFRESH_LIFETIME_MS });
    db.touchAccount(o.authKey, now);
    sendJson(
      res,
      200,
      { access_token: access, token_type: 'Bearer', expires_in: 21600, scope: o.scope.split(',').join(' '), refresh_token: refresh, auth_key: o.authKey },
      noStore,
    );
  }

  return {
    /** RFC 8414 metadata: how a client learns this deployment offers browser sign-in. */
    metadata(req: IncomingMessage, res: ServerResponse): void {
      const issuer = `http://${req.headers.host ?? 'localhost'}`;
      sendJson(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
        scopes_supported: [...ALLOWED_SCOPES],
      });
    },

    /** GET /authorize: validate, then show the consent page (errors before a valid redirect never redirect). */
    authorizePage(res: ServerResponse, q: URLSearchParams): void {
      prune(Date.now());
      const clientId = q.get('client_id') ?? '';
      const redirectUri = q.get('redirect_uri') ?? '';
      if (!clientId || clientId.length > 300) return sendHtml(res, 400, messagePage('Sign-in refused', 'The request names no client (client_id).'));
      if (!redirectAllowed(redirectUri)) {
        return sendHtml(res, 400, messagePage('Sign-in refused', 'The redirect address must be https, or http to this computer (127.0.0.1, [::1] or localhost).'));
      }
      const state = q.get('state') ?? '';
      const fail = (error: string, description: string) => redirect(res, redirectUri, { error, error_description: description, state });
      if (q.get('response_type') !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
      if (q.get('code_challenge_method') !== 'S256') return fail('invalid_request', 'PKCE with code_challenge_method=S256 is required.');
      const challenge = q.get('code_challenge') ?? '';
      if (!/^[A-Za-z0-9_-]{43,128}$/.test(challenge)) return fail('invalid_request', 'code_challenge must be 43 to 128 base64url characters.');
      let scope: string | null = null;
      const asked = q.get('scope');
      if (asked && asked.trim()) {
        const n = normalizeScope(asked);
        if (typeof n === 'string') return fail('invalid_scope', n);
        scope = n.scope;
      }
      const resource = q.get('resource');
      const aud = resource ? (/\/mcp\b/.test(resource) ? 'mcp' : 'api2') : 'api2';
      const keys = activeKeys();
      if (keys.length === 0) return sendHtml(res, 403, messagePage('No active key', 'This service has no active Auth Key to sign in with.'));
      const consentId = randomBytes(24).toString('base64url');
      consents.set(consentId, { clientId, redirectUri, codeChallenge: challenge, state, scope, aud, expiresAtMs: Date.now() + CONSENT_LIFETIME_MS });
      sendHtml(res, 200, consentPage({ consentId, clientId, redirectUri, scope, keys }), new URL(redirectUri).origin);
    },

    /** POST /authorize: the user's answer. */
    async decide(res: ServerResponse, fields: Record<string, string>): Promise<void> {
      const now = Date.now();
      prune(now);
      const consent = consents.get(fields.consent ?? '');
      if (!consent) return sendHtml(res, 400, messagePage('This page has expired', 'Start the sign-in again from the app.'));
      consents.delete(fields.consent!);
      if (fields.decision !== 'allow') return redirect(res, consent.redirectUri, { error: 'access_denied', error_description: 'The user declined.', state: consent.state });
      const key = activeKeys().find((k) => k.authKey === fields.auth_key);
      if (!key) return sendHtml(res, 400, messagePage('Sign-in refused', 'Choose an active Auth Key.'));
      const keyScopes = key.scope === null || key.scope === undefined ? [...ALLOWED_SCOPES] : key.scope.split(',').filter(Boolean);
      const granted = consent.scope === null ? keyScopes : consent.scope.split(',');
      const wider = granted.filter((s) => !scopeAllows(key.scope ?? null, s));
      if (wider.length > 0) return redirect(res, consent.redirectUri, { error: 'invalid_scope', error_description: `The key ${key.authKey} does not have ${wider.join(', ')}.`, state: consent.state });
      const code = randomBytes(32).toString('base64url');
      codes.set(tokenHash(code), { ...consent, scope: granted.join(','), authKey: key.authKey, grantId: randomBytes(12).toString('hex'), expiresAtMs: now + CODE_LIFETIME_MS, used: false });
      redirect(res, consent.redirectUri, { code, state: consent.state });
    },

    /** POST /token, grant_type=authorization_code. */
    exchangeCode(res: ServerResponse, f: Record<string, string>): void {
      if (!f.code || !f.code_verifier || !f.client_id || !f.redirect_uri) {
        return sendError(res, apiError('TOKEN_INVALID_REQUEST', 'authorization_code needs code, code_verifier, client_id and redirect_uri.', 400));
      }
      const pending = codes.get(tokenHash(f.code));
      const invalid = (why: string) => sendError(res, apiError('TOKEN_INVALID_GRANT', why, 400));
      if (!pending) return invalid('The code is unknown or has expired: sign in again.');
      if (pending.used) {
        // A code presented twice may have been stolen: end everything issued with it.
        db.revokeGrant(pending.grantId);
        return invalid('The code was already used; the tokens issued with it are revoked.');
      }
      pending.used = true;
      if (pending.expiresAtMs < Date.now()) return invalid('The code has expired: sign in again.');
      if (pending.clientId !== f.client_id || pending.redirectUri !== f.redirect_uri) return invalid('client_id or redirect_uri differ from the authorization request.');
      if (!same(sha256url(f.code_verifier), pending.codeChallenge)) return invalid('code_verifier does not match the code_challenge (PKCE).');
      if (f.resource && (/\/mcp\b/.test(f.resource) ? 'mcp' : 'api2') !== pending.aud) return invalid('resource differs from the authorization request.');
      const account = db.getAccount(pending.authKey);
      if (!account || account.isActive === false) return sendError(res, apiError(AUTH_KEY_INACTIVE, `The auth key "${pending.authKey}" is inactive.`, 401));
      issue(res, { authKey: pending.authKey, scope: pending.scope ?? '', aud: pending.aud, clientId: pending.clientId, grantId: pending.grantId });
    },

    /** POST /token, grant_type=refresh_token: a new pair; the presented refresh token stops working. */
    refresh(res: ServerResponse, f: Record<string, string>): void {
      if (!f.refresh_token || !f.client_id) return sendError(res, apiError('TOKEN_INVALID_REQUEST', 'refresh_token needs refresh_token and client_id.', 400));
      const row = db.useRefreshToken(tokenHash(f.refresh_token));
      const invalid = (why: string) => sendError(res, apiError('TOKEN_INVALID_GRANT', why, 400));
      if (!row) return invalid('The refresh token is unknown: sign in again.');
      if (row.used) {
        // Reuse of a rotated refresh token: treat the grant as compromised (OAuth 2.1 §4.3.1).
        db.revokeGrant(row.grantId);
        return invalid('The refresh token was already used; this sign-in is revoked. Sign in again.');
      }
      if (row.expiresAtMs < Date.now()) return invalid('The refresh token has expired: sign in again.');
      if (row.clientId !== f.client_id) return invalid('client_id differs from the one the token was issued to.');
      const account = db.getAccount(row.authKey);
      if (!account || account.isActive === false) return sendError(res, apiError(AUTH_KEY_INACTIVE, `The auth key "${row.authKey}" is inactive.`, 401));
      let scope = row.scope;
      if (f.scope && f.scope.trim()) {
        const n = normalizeScope(f.scope);
        if (typeof n === 'string') return sendError(res, apiError('TOKEN_INVALID_SCOPE', n, 400));
        const wider = n.scope.split(',').filter((s) => !row.scope.split(',').includes(s));
        if (wider.length > 0) return invalid(`The sign-in did not grant ${wider.join(', ')}.`);
        scope = n.scope;
      }
      issue(res, { authKey: row.authKey, scope, aud: row.aud, clientId: row.clientId, grantId: row.grantId });
    },
  };
}

export type OAuthServer = ReturnType<typeof createOAuth>;
