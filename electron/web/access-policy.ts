import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Who may talk to the browser host. It listens on loopback, but any web page the user visits can reach
 * loopback too: the per-launch token keeps other pages out, the Host check defeats DNS rebinding (a
 * foreign name resolving to 127.0.0.1), and the Origin check stops cross-site requests and WebSockets.
 */

export const TOKEN_COOKIE = 'assemblyline_token';

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

export function readCookie(cookieHeader: string | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function sessionCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

export type AccessDecision =
  | { readonly allow: true; readonly via: 'cookie' | 'token' }
  | { readonly allow: false; readonly status: 403; readonly reason: string };

/** The whole gate, as one pure decision over what the request carries. */
export function decideAccess(input: {
  token: string;
  port: number;
  host: string | undefined;
  origin: string | undefined;
  cookie: string | undefined;
  queryToken: string | null;
}): AccessDecision {
  if (!isAllowedHost(input.host, input.port)) return { allow: false, status: 403, reason: 'Unknown Host header' };
  if (!isAllowedOrigin(input.origin, input.host, input.port)) {
    return { allow: false, status: 403, reason: 'Cross-origin request refused' };
  }
  if (tokenMatches(input.token, readCookie(input.cookie, TOKEN_COOKIE))) return { allow: true, via: 'cookie' };
  if (tokenMatches(input.token, input.queryToken)) return { allow: true, via: 'token' };
  return { allow: false, status: 403, reason: 'Missing or wrong token: open the URL printed at launch' };
}
