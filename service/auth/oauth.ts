import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ALLOWED_SCOPES, normalizeScope, scopeAllows } from '../auth-keys/auth-key-rules';
import { apiError, sendError, sendJson } from '../http/api-error';
import type { AccountRow, ServiceDatabase } from '../store/database';
import { AUTH_KEY_INACTIVE } from './authenticate';
import { tokenHash } from './bearer';
import { ASSERTION_ALGORITHMS, AssertionCode, carriesAssertion, verifyClientAssertion } from './client-assertion';
import { consentPage, messagePage } from './oauth-pages';
import { TOKEN_INVALID_TARGET, audienceOfResource, resourceMismatch } from './token-resource';

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

const LOOPBACK_HOSTS = ['127.0.0.1', '[::1]', 'localhost'];

/**
 * What a sign-in that names no scope is granted (issue 25): reading Assemblies. Every other scope must be
 * asked for, and the consent page lists what is asked.
 */
export const DEFAULT_CONSENT_SCOPE = 'assemblies:read';

const isLoopbackRedirect = (u: URL): boolean => u.protocol === 'http:' && LOOPBACK_HOSTS.includes(u.hostname);

/**
 * Where /authorize may send a client's code (issue 25): a URI registered for it (PUT /oauth_clients/{id}
 * `redirect_uris`; a registered loopback URI matches on any port, RFC 8252 §7.3), else only a loopback
 * address on this computer (a native app's own listener, as the app's sign-in uses). An https redirect
 * nobody registered would hand the user's consent to whatever site wrote the link. Pure.
 */
export function redirectRegistered(uri: string, registered: readonly string[] | null): boolean {
  if (!redirectAllowed(uri)) return false;
  const u = new URL(uri);
  if (!registered || registered.length === 0) return isLoopbackRedirect(u);
  return registered.some((r) => {
    const g = new URL(r);
    if (isLoopbackRedirect(g) && isLoopbackRedirect(u)) return g.hostname === u.hostname && g.pathname === u.pathname && g.search === u.search;
    return g.href === u.href;
  });
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
  return u.protocol === 'http:' && LOOPBACK_HOSTS.includes(u.hostname);
}

/**
 * Whether a request reached the consent page under a name the service answers to. A web page that
 * rebinds its own DNS name to 127.0.0.1 shares an origin with the service but still sends its own
 * name as Host, so it is turned away here (DNS rebinding).
 */
function hostAllowed(req: IncomingMessage, publicHost: string): boolean {
  const host = req.headers.host ?? '';
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.includes(hostname) || (publicHost !== '' && host === publicHost);
}

/**
 * Whether the answer to the consent page came from somewhere else than the page itself. Browsers send
 * `Sec-Fetch-Site` and `Origin` with a form post; a script on another site cannot fake either.
 */
function crossSitePost(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.headers.origin;
  if (typeof origin !== 'string') return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true; // "null" (sandboxed or opaque origin) and garbage
  }
}

const sha256url = (s: string) => createHash('sha256').update(s).digest('base64url');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const noStore = { 'Cache-Control': 'no-store' };
/** `formOrigin`: where the answer redirects to; browsers apply form-action to a form's redirects too. */
const csp = (formOrigin = '') => `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${formOrigin ? ` ${formOrigin}` : ''}; frame-ancestors 'none'`;

function sendHtml(res: ServerResponse, status: number, html: string, formOrigin = ''): void {
  // The API answers every origin (CORS *); the consent page must not: its one-time form token
  // would let any web page read it and answer Allow on the user's behalf.
  res.removeHeader('Access-Control-Allow-Origin');
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp(formOrigin), 'X-Frame-Options': 'DENY', ...noStore });
  res.end(html);
}

function redirect(res: ServerResponse, to: string, params: Record<string, string>): void {
  const u = new URL(to);
  for (const [k, v] of Object.entries(params)) if (v !== '') u.searchParams.set(k, v);
  res.removeHeader('Access-Control-Allow-Origin');
  res.writeHead(302, { Location: u.toString(), ...noStore });
  res.end();
}

/**
 * The public-client grants of POST /token (spec "Bearer tokens": `authorization_code` with PKCE,
 * `refresh_token`) behind a consent page. The user of the local service is whoever sits at this
 * computer, so consent is a click; the key the tokens act for is chosen on the page.
 */
export function createOAuth(db: ServiceDatabase, publicUrl: () => string = () => '') {
  const consents = new Map<string, AuthorizeRequest & { expiresAtMs: number }>();
  const codes = new Map<string, PendingCode>();

  const prune = (now: number) => {
    for (const [k, v] of consents) if (v.expiresAtMs < now) consents.delete(k);
    for (const [k, v] of codes) if (v.expiresAtMs < now - CODE_LIFETIME_MS) codes.delete(k);
  };

  const activeKeys = (): AccountRow[] => db.allAccounts().filter((a) => a.isActive !== false);
  const scopesOf = (key: AccountRow): string[] => (key.scope === null || key.scope === undefined ? [...ALLOWED_SCOPES] : key.scope.split(',').filter(Boolean));
  /** The scopes asked that the key does not hold (none when every scope of the key is asked for). */
  const lacking = (key: AccountRow, scope: string | null): string[] => (scope === null ? [] : scope.split(',').filter((s) => !scopeAllows(key.scope ?? null, s)));
  const publicHost = (): string => {
    try {
      return new URL(publicUrl()).host;
    } catch {
      return '';
    }
  };
  /** The service's own URL as this request reached it (the public base URL when that is how it came). */
  const issuerOf = (req: IncomingMessage): string => {
    const pub = publicUrl().replace(/\/+$/, '');
    const host = req.headers.host ?? '';
    if (pub && host === publicHost()) return pub;
    if (host && hostAllowed(req, '')) return `http://${host}`;
    return pub || 'http://127.0.0.1';
  };
  /** Origins a `resource` may name: the service as this request reached it, and its public base URL. */
  const ownOrigins = (req: IncomingMessage): string[] => [issuerOf(req), publicUrl()].filter(Boolean);
  /**
   * The client a token request authenticated with an assertion (null: none sent), or false once the
   * refusal is answered. Left out, `client_id` is the assertion's (spec: "unless a client assertion names the client").
   */
  async function assertedClient(req: IncomingMessage, res: ServerResponse, f: Record<string, string>): Promise<string | null | false> {
    if (!carriesAssertion(f)) return null;
    const checked = await verifyClientAssertion(db, f, ownOrigins(req));
    if ('code' in checked) {
      sendError(res, checked);
      return false;
    }
    f.client_id = checked.clientId;
    return checked.clientId;
  }
  const wrongTarget = (res: ServerResponse, why: string) => sendError(res, apiError(TOKEN_INVALID_TARGET, why, 400));

  /** Stores the request under a new one-time form token and shows the consent page for it. */
  function showConsent(res: ServerResponse, status: number, request: AuthorizeRequest, error?: string): void {
    const consentId = randomBytes(24).toString('base64url');
    consents.set(consentId, { ...request, expiresAtMs: Date.now() + CONSENT_LIFETIME_MS });
    const keys = activeKeys().map((key) => ({ key, lacks: lacking(key, request.scope) }));
    // A client is known when its owner registered it (keys or redirect URIs); any other name is only what the link says.
    const verified = db.clientJwks(request.clientId) !== null || db.clientRedirects(request.clientId) !== null;
    sendHtml(res, status, consentPage({ consentId, clientId: request.clientId, verified, redirectUri: request.redirectUri, scope: request.scope, keys, error }), new URL(request.redirectUri).origin);
  }

  /**
   * Answers a token request with a new access token (`scope`) and a new refresh token, which keeps
   * the scopes of the whole sign-in (`grantScope`): narrowing one access token narrows nothing else.
   */
  function issue(res: ServerResponse, o: { authKey: string; scope: string; grantScope: string; aud: string; clientId: string; grantId: string }): void {
    const now = Date.now();
    const access = randomBytes(32).toString('base64url');
    const refresh = randomBytes(32).toString('base64url');
    db.saveToken({ tokenHash: tokenHash(access), authKey: o.authKey, scope: o.scope, aud: o.aud, expiresAtMs: now + 21600_000, grantId: o.grantId });
    db.saveRefreshToken({ hash: tokenHash(refresh), grantId: o.grantId, authKey: o.authKey, scope: o.grantScope, aud: o.aud, clientId: o.clientId, expiresAtMs: now + REFRESH_LIFETIME_MS });
    db.touchAccount(o.authKey, now);
    sendJson(
      res,
      200,
      { access_token: access, token_type: 'Bearer', expires_in: 21600, scope: o.scope.split(',').join(' '), refresh_token: refresh, auth_key: o.authKey },
      noStore,
    );
  }

  return {
    /** This service's own origins as `req` reached it (what a `resource` may name). */
    ownOrigins,
    /** RFC 8414 metadata: how a client learns this deployment offers browser sign-in. */
    metadata(req: IncomingMessage, res: ServerResponse): void {
      const issuer = issuerOf(req);
      sendJson(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
        scopes_supported: [...ALLOWED_SCOPES],
      });
    },

    /** GET /authorize: validate, then show the consent page (errors before a valid redirect never redirect). */
    authorizePage(req: IncomingMessage, res: ServerResponse, q: URLSearchParams): void {
      prune(Date.now());
      if (!hostAllowed(req, publicHost())) return sendHtml(res, 421, messagePage('Wrong address', 'This sign-in page is only served at the address of the service itself.'));
      const clientId = q.get('client_id') ?? '';
      const redirectUri = q.get('redirect_uri') ?? '';
      if (!clientId || clientId.length > 300) return sendHtml(res, 400, messagePage('Sign-in refused', 'The request names no client (client_id).'));
      if (!redirectAllowed(redirectUri)) {
        return sendHtml(res, 400, messagePage('Sign-in refused', 'The redirect address must be https, or http to this computer (127.0.0.1, [::1] or localhost).'));
      }
      const registered = db.clientRedirects(clientId);
      if (!redirectRegistered(redirectUri, registered)) {
        return sendHtml(
          res,
          400,
          messagePage(
            'Sign-in refused',
            registered
              ? `${redirectUri} is not one of the redirect addresses registered for ${clientId}.`
              : `${clientId} has no registered redirect addresses, so it may only return to this computer (http://127.0.0.1, [::1] or localhost). Its owner registers others with PUT /oauth_clients/{client_id} (redirect_uris).`,
          ),
        );
      }
      const state = q.get('state') ?? '';
      const fail = (error: string, description: string) => redirect(res, redirectUri, { error, error_description: description, state });
      if (q.get('response_type') !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
      if (q.get('code_challenge_method') !== 'S256') return fail('invalid_request', 'PKCE with code_challenge_method=S256 is required.');
      const challenge = q.get('code_challenge') ?? '';
      if (!/^[A-Za-z0-9_-]{43,128}$/.test(challenge)) return fail('invalid_request', 'code_challenge must be 43 to 128 base64url characters.');
      let scope: string | null = DEFAULT_CONSENT_SCOPE;
      const asked = q.get('scope');
      if (asked && asked.trim()) {
        const n = normalizeScope(asked);
        if (typeof n === 'string') return fail('invalid_scope', n);
        scope = n.scope;
      }
      const resource = q.get('resource');
      const named = resource ? audienceOfResource(resource, ownOrigins(req)) : { aud: 'api2' as const };
      if ('problem' in named) return fail('invalid_target', named.problem);
      const aud = named.aud;
      if (activeKeys().length === 0) return sendHtml(res, 403, messagePage('No active key', 'This service has no active Auth Key to sign in with.'));
      showConsent(res, 200, { clientId, redirectUri, codeChallenge: challenge, state, scope, aud });
    },

    /** POST /authorize: the user's answer. */
    async decide(req: IncomingMessage, res: ServerResponse, fields: Record<string, string>): Promise<void> {
      const now = Date.now();
      prune(now);
      if (!hostAllowed(req, publicHost()) || crossSitePost(req)) {
        return sendHtml(res, 403, messagePage('Sign-in refused', 'This answer did not come from the consent page of this service.'));
      }
      const consent = consents.get(fields.consent ?? '');
      if (!consent) return sendHtml(res, 400, messagePage('This page has expired', 'Start the sign-in again from the app.'));
      consents.delete(fields.consent!);
      const request: AuthorizeRequest = consent;
      if (fields.decision !== 'allow') return redirect(res, request.redirectUri, { error: 'access_denied', error_description: 'The user declined.', state: request.state });
      const key = activeKeys().find((k) => k.authKey === fields.auth_key);
      // A key that cannot grant what is asked: say so on the page and let the user pick another (or Deny).
      if (!key) return showConsent(res, 400, request, 'Choose an active Auth Key.');
      const missing = lacking(key, request.scope);
      if (missing.length > 0) return showConsent(res, 400, request, `The key ${key.authKey} does not have ${missing.join(', ')}: choose a key that has every scope asked, or Deny.`);
      const granted = request.scope === null ? scopesOf(key) : request.scope.split(',');
      const code = randomBytes(32).toString('base64url');
      codes.set(tokenHash(code), { ...request, scope: granted.join(','), authKey: key.authKey, grantId: randomBytes(12).toString('hex'), expiresAtMs: now + CODE_LIFETIME_MS, used: false });
      redirect(res, request.redirectUri, { code, state: request.state });
    },

    /** POST /token, grant_type=authorization_code. */
    async exchangeCode(req: IncomingMessage, res: ServerResponse, f: Record<string, string>): Promise<void> {
      const asserted = await assertedClient(req, res, f);
      if (asserted === false) return;
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
      const target = resourceMismatch(f.resource, pending.aud, ownOrigins(req));
      if (target) return wrongTarget(res, target);
      const account = db.getAccount(pending.authKey);
      if (!account || account.isActive === false) return sendError(res, apiError(AUTH_KEY_INACTIVE, `The auth key "${pending.authKey}" is inactive.`, 401));
      const scope = pending.scope ?? '';
      if (asserted) db.bindGrantToAssertion(pending.grantId);
      issue(res, { authKey: pending.authKey, scope, grantScope: scope, aud: pending.aud, clientId: pending.clientId, grantId: pending.grantId });
    },

    /**
     * POST /token, grant_type=refresh_token: a new pair; the presented refresh token stops working.
     * Every check runs before the token is used up, so a refused request (key inactive, scope too
     * wide) leaves the sign-in working.
     */
    async refresh(req: IncomingMessage, res: ServerResponse, f: Record<string, string>): Promise<void> {
      const asserted = await assertedClient(req, res, f);
      if (asserted === false) return;
      if (!f.refresh_token || !f.client_id) return sendError(res, apiError('TOKEN_INVALID_REQUEST', 'refresh_token needs refresh_token and client_id.', 400));
      const hash = tokenHash(f.refresh_token);
      const row = db.findRefreshToken(hash);
      const invalid = (why: string) => sendError(res, apiError('TOKEN_INVALID_GRANT', why, 400));
      const reused = (grantId: string) => {
        // Reuse of a rotated refresh token: treat the grant as compromised (OAuth 2.1 §4.3.1).
        db.revokeGrant(grantId);
        return invalid('The refresh token was already used; this sign-in is revoked. Sign in again.');
      };
      if (!row) return invalid('The refresh token is unknown: sign in again.');
      if (row.used) return reused(row.grantId);
      if (row.expiresAtMs < Date.now()) return invalid('The refresh token has expired: sign in again.');
      if (row.clientId !== f.client_id) return invalid('client_id differs from the one the token was issued to.');
      if (!asserted && db.grantNeedsAssertion(row.grantId)) {
        return sendError(res, apiError(AssertionCode.required, `This sign-in authenticated with a client assertion: every refresh of it must carry one (client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer).`, 401));
      }
      // Omitted: the sign-in's own resource. Named: it must be that one (spec "Bearer tokens", resource).
      const target = resourceMismatch(f.resource, row.aud, ownOrigins(req));
      if (target) return wrongTarget(res, target);
      const account = db.getAccount(row.authKey);
      // A deactivated key keeps its sign-ins: refused now, the same refresh token works once it is active again.
      if (!account || account.isActive === false) return sendError(res, apiError(AUTH_KEY_INACTIVE, `The auth key "${row.authKey}" is inactive.`, 401));
      let scope = row.scope;
      if (f.scope && f.scope.trim()) {
        const n = normalizeScope(f.scope);
        if (typeof n === 'string') return sendError(res, apiError('TOKEN_INVALID_SCOPE', n, 400));
        const wider = n.scope.split(',').filter((s) => !scopeAllows(row.scope, s));
        if (wider.length > 0) return invalid(`The sign-in did not grant ${wider.join(', ')}.`);
        scope = n.scope;
      }
      // Used up atomically: of two requests racing with the same token, the second counts as reuse.
      const used = db.useRefreshToken(hash);
      if (!used || used.used) return reused(row.grantId);
      if (asserted) db.bindGrantToAssertion(row.grantId);
      issue(res, { authKey: row.authKey, scope, grantScope: row.scope, aud: row.aud, clientId: row.clientId, grantId: row.grantId });
    },
  };
}

export type OAuthServer = ReturnType<typeof createOAuth>;
