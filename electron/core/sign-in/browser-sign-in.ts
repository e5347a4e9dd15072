import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import { assertionFields, DESKTOP_CLIENT_ID, postTokenForm, tokenUrl, type ClientAssertionSigner } from '../auth/client-credentials';

const metadataSchema = z.looseObject({
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});
export type SignInMetadata = z.infer<typeof metadataSchema>;

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  expiresAtMs: number;
  scopes: string[];
  /** The key the deployment granted the tokens for, when it says (our local service does). */
  authKey?: string;
}

/** The deployment's OAuth metadata (RFC 8414), or null when it does not offer browser sign-in. */
export async function discoverSignIn(endpoint: string, doFetch: typeof fetch = fetch): Promise<SignInMetadata | null> {
  try {
    const res = await doFetch(`${endpoint.replace(/\/+$/, '')}/.well-known/oauth-authorization-server`, { redirect: 'error', signal: AbortSignal.timeout(5000) });
    if (!res.ok) return null;
    const parsed = metadataSchema.safeParse(await res.json());
    if (!parsed.success) return null;
    // The code and tokens travel to these: https, or http to this computer only (as for every token request).
    if (!tokenUrl(parsed.data.token_endpoint).ok || !tokenUrl(parsed.data.authorization_endpoint).ok) return null;
    // PKCE with S256 is the only way a desktop app signs in without a secret.
    const methods = parsed.data.code_challenge_methods_supported;
    return methods === undefined || methods.includes('S256') ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether the deployment says it takes client assertions signed with a private key (RFC 8414 + RFC 7523). */
export const offersPrivateKeyJwt = (meta: SignInMetadata | null): boolean => meta?.token_endpoint_auth_methods_supported?.includes('private_key_jwt') === true;

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font:16px system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;color-scheme:light dark"><div><h1 style="font-size:20px">${title}</h1><p>${text}</p></div>`;

/**
 * What a browser-signed-in workspace does (Assemblies, notifications, Templates, credentials, keys, bill,
 * queue): asked for by name, since a sign-in that names no scope gets only `assemblies:read` (issue 25).
 */
export const APP_SIGN_IN_SCOPES = [
  'assemblies:read',
  'assemblies:write',
  'assembly_notifications:write',
  'templates:read',
  'templates:write',
  'template_credentials:read',
  'template_credentials:write',
  'auth_keys:read',
  'auth_keys:write',
  'billing:read',
  'queues:read',
  'dam:read',
  'dam:write',
];

/**
 * "Sign in with browser" (OAuth 2 authorization code with PKCE, RFC 7636 / RFC 8252): a loopback server
 * on 127.0.0.1 receives the redirect, the system browser shows the deployment's consent page, and the
 * code is exchanged for tokens here. No secret is typed or stored; the server always closes.
 */
export async function signInWithBrowser(o: {
  endpoint: string;
  scopes?: string[];
  openExternal: (url: string) => Promise<void>;
  /** Sign in as this client with a signed assertion instead of as the app's public client id. */
  clientKey?: ClientAssertionSigner;
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}): Promise<Result<SignedIn>> {
  const doFetch = o.fetch ?? fetch;
  if (o.signal?.aborted) return err('SIGN_IN_CANCELED', 'The sign-in was canceled.');
  const meta = await discoverSignIn(o.endpoint, doFetch);
  if (!meta) return err('SIGN_IN_UNAVAILABLE', `${o.endpoint} does not offer browser sign-in: use an Auth Key and Secret instead.`);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  const clientId = o.clientKey?.clientId ?? DESKTOP_CLIENT_ID;

  let server: Server | null = null;
  try {
    const callback = await new Promise<Result<{ code: string; redirectUri: string }>>((resolve, reject) => {
      const onAbort = () => finish(err('SIGN_IN_CANCELED', 'The sign-in was canceled.'));
      const finish = (r: Result<{ code: string; redirectUri: string }>) => {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
        resolve(r);
      };
      const timer = setTimeout(() => finish(err('SIGN_IN_CANCELED', 'Nobody answered in the browser in time: start the sign-in again.')), o.timeoutMs ?? 5 * 60_000);
      timer.unref();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      if (o.signal?.aborted) onAbort(); // canceled while the metadata was read
      let redirectUri = '';
      server = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        if (url.pathname !== '/callback') {
          res.writeHead(404).end();
          return;
        }
        // Another tab or page cannot finish this sign-in: the state must match.
        if (url.searchParams.get('state') !== state) {
          res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8' }).end(page('Sign-in not recognized', 'This answer does not belong to the sign-in Assemblyline started.'));
          return;
        }
        const error = url.searchParams.get('error');
        const code = url.searchParams.get('code');
        if (error || !code) {
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page('Not signed in', 'You can close this tab and return to Assemblyline.'));
          finish(err(error === 'access_denied' ? 'SIGN_IN_DENIED' : 'SIGN_IN_FAILED', `The deployment answered ${error ?? 'without a code'}${url.searchParams.get('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}.`));
          return;
        }
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page('Signed in', 'You can close this tab and return to Assemblyline.'));
        finish(ok({ code, redirectUri }));
      });
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        redirectUri = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/callback`;
        const url = new URL(meta.authorization_endpoint);
        const params: Record<string, string> = {
          response_type: 'code',
          client_id: clientId,
          redirect_uri: redirectUri,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state,
          scope: (o.scopes && o.scopes.length > 0 ? o.scopes : APP_SIGN_IN_SCOPES).join(' '),
        };
        for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
        o.openExternal(url.toString()).catch((e: unknown) => finish(err(AppErrorCode.internal, `Could not open the browser: ${e instanceof Error ? e.message : String(e)}`)));
      });
    });
    if (!callback.ok) return callback;

    const form: Record<string, string> = { grant_type: 'authorization_code', code: callback.value.code, code_verifier: verifier, client_id: clientId, redirect_uri: callback.value.redirectUri };
    if (o.clientKey) {
      // The assertion's aud is the token endpoint the deployment published.
      const signed = await assertionFields(o.clientKey, meta.token_endpoint);
      if (!signed.ok) return signed;
      Object.assign(form, signed.value);
    }
    const minted = await postTokenForm(meta.token_endpoint, form, { fetch: doFetch });
    if (!minted.ok) return minted;
    const { token, refreshToken, expiresAtMs, scopes, authKey } = minted.value;
    if (!refreshToken) return err(AppErrorCode.invalidResponse, 'The deployment issued no refresh token, so the sign-in could not last.');
    return ok({ accessToken: token, refreshToken, expiresAtMs, scopes, ...(authKey ? { authKey } : {}) });
  } catch (cause) {
    return err(AppErrorCode.internal, `The sign-in could not start: ${cause instanceof Error ? cause.message : String(cause)}`);
  } finally {
    const s = server as Server | null;
    if (s) {
      s.closeAllConnections();
      s.close();
    }
  }
}
