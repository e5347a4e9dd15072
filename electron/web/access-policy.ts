import { randomBytes, timingSafeEqual } from 'node:crypto';
import { TOKEN_PROTOCOL_PREFIX } from './page/page-bridge-logic';

/**
 * Who may talk to the browser host. It listens on loopback, but any web page the user visits, and every
 * other local process, can reach loopback too. So:
 * - the per-launch token is never a cookie (cookies ignore ports: every other 127.0.0.1 server the browser
 *   visits would receive it). The page gets it in the URL fragment, which is never sent anywhere, keeps it
 *   in its own tab's sessionStorage, and carries it explicitly: a header on staging requests, a WebSocket
 *   subprotocol on the bridge;
 * - `npm start` opens a one-time code, not the token, so a browser's command line holds nothing lasting;
 * - the Host check defeats DNS rebinding (a foreign name resolving to 127.0.0.1), the Origin check stops
 *   cross-site requests and WebSockets. The app's static files (open source, no data) need no token.
 */

// A cross-origin page cannot send the token header without a CORS preflight, which the gate refuses.
export { BRIDGE_PROTOCOL, TOKEN_HEADER, TOKEN_PROTOCOL_PREFIX } from './page/page-bridge-logic';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response timing. */
export function tokenMatches(expected: string, candidate: string | null | undefined): boolean {
  if (typeof candidate !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(candidate);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Only our own loopback names with our port; anything else is a rebinding attempt or a stray proxy. */
export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  return hostHeader === `127.0.0.1:${port}` || hostHeader === `localhost:${port}`;
}

/** An Origin, when the browser sends one, must be the origin the page was loaded from (our own). */
export function isAllowedOrigin(origin: string | undefined, hostHeader: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return isAllowedHost(hostHeader, port) && origin === `http://${hostHeader}`;
}

/** The token among a `Sec-WebSocket-Protocol` list (`assemblyline, assemblyline-token.<t>`), or null. */
export function tokenFromProtocols(header: string | undefined): string | null {
  for (const p of (header ?? '').split(',')) {
    const t = p.trim();
    if (t.startsWith(TOKEN_PROTOCOL_PREFIX)) return t.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return null;
}

export type AccessDecision = { readonly allow: true } | { readonly allow: false; readonly status: 403; readonly reason: string };

/**
 * The whole gate, as one pure decision over what the request carries. `presented` is the token the
 * request carries (header or subprotocol); `open` requests (the app's static files, the one-time code
 * exchange) need none but still pass the Host and Origin checks.
 */
export function decideAccess(input: {
  token: string;
  port: number;
  host: string | undefined;
  origin: string | undefined;
  presented: string | null;
  open: boolean;
}): AccessDecision {
  if (!isAllowedHost(input.host, input.port)) return { allow: false, status: 403, reason: 'Unknown Host header' };
  if (!isAllowedOrigin(input.origin, input.host, input.port)) {
    return { allow: false, status: 403, reason: 'Cross-origin request refused' };
  }
  if (input.open || tokenMatches(input.token, input.presented)) return { allow: true };
  return { allow: false, status: 403, reason: 'Missing or wrong token: open the address Assemblyline printed when it started' };
}

/**
 * One-time codes for `npm start`'s browser: the code in the opened URL is exchanged once for the token
 * (a redirect to `/#token=…`), then dead, so a command line that shows it gives nothing. Issuing a new
 * code ends the one before.
 */
export function createOneTimeCodes(): { issue(): string; redeem(code: string | null): boolean } {
  let current: string | null = null;
  return {
    issue: () => (current = randomBytes(24).toString('base64url')),
    redeem(code) {
      if (current === null || !tokenMatches(current, code)) return false;
      current = null;
      return true;
    },
  };
}
