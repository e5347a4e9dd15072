/**
 * The one rule for every secret core stores (an Auth Secret, a browser sign-in's refresh token, a Template
 * credential's password, key or headers, the chat API key): it is only ever sent to the destination it
 * was saved with. The page is untrusted, so a request that changes the destination (a draft with another
 * host, a saved setting moved elsewhere) gets no stored secret: the user types it again. Every channel
 * that sends a stored secret asks `mayReuseSecret` (docs/security.md "A stored secret goes only where it
 * was given").
 *
 * A destination is compared in its canonical form: what the URL standard treats as the same place is the
 * same (scheme and host case, an explicit default port, IPv6 and IPv4 spellings, a trailing slash, a
 * fragment, which is never sent). Anything else is a change, on the safe side: another host, port, scheme
 * or path, user info, a trailing dot on the host. Text that is not one clear destination (spaces, control
 * characters, a host with a path in it) has none, and no stored secret goes to it.
 */

/** The code of an answer or check that withheld a stored secret because the destination moved. */
export const SECRET_NOT_FOR_DESTINATION = 'SECRET_NOT_FOR_DESTINATION';

export type Destination = string & { readonly __destination: unique symbol };

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443, 'ftp:': 21, 'sftp:': 22 };

// Control characters, spaces and backslashes are never part of a destination someone typed on purpose.
// eslint-disable-next-line no-control-regex
const UNCLEAR = /[\s\\\u0000-\u001f\u007f]/;

const canonical = (u: URL, port: string): Destination => {
  const user = u.username || u.password ? `${u.username}${u.password ? `:${u.password}` : ''}@` : '';
  return `${u.protocol}//${user}${u.hostname}:${port}${u.pathname.replace(/\/+$/, '')}${u.search}` as Destination;
};

/** Where requests to this http(s) URL go, or null when the text is not one. Pure. */
export function urlDestination(text: string): Destination | null {
  const t = text.trim();
  if (t === '' || UNCLEAR.test(t)) return null;
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  return canonical(u, u.port || String(DEFAULT_PORTS[u.protocol]));
}

/**
 * Where a connection to `host` and `port` goes (SFTP, FTP, an S3-compatible endpoint's host), labelled
 * with its protocol; null when `host` is not a bare host name or address, or the port is not 1 to 65535.
 * Pure.
 */
export function hostDestination(protocol: string, host: string, port: string | number | undefined, defaultPort: number): Destination | null {
  const h = host.trim();
  if (h === '' || UNCLEAR.test(h) || /[/?#@]/.test(h)) return null;
  const p = port === undefined || String(port).trim() === '' ? defaultPort : Number(String(port).trim());
  if (!Number.isInteger(p) || p < 1 || p > 65535) return null;
  // A bare IPv6 address gets its brackets; `host:port` in the host field is no bare host.
  const bracketed = h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
  let u: URL;
  try {
    // Parsed as http, the special scheme whose host rules (case, IPv4 and IPv6 forms) apply to any TCP host.
    u = new URL(`http://${bracketed}/`);
  } catch {
    return null;
  }
  if (u.port !== '' || u.username !== '' || u.pathname !== '/') return null;
  return `${protocol}://${u.hostname}:${p}` as Destination;
}

/** The rule itself: a stored secret saved for `savedFor` may go to `sendTo` only when they are one place. Pure. */
export function mayReuseSecret(savedFor: Destination | null, sendTo: Destination | null): boolean {
  return savedFor !== null && sendTo !== null && savedFor === sendTo;
}

/** How a destination is named to the user ("sftp.example.com:22", "https://api.example.com/v1"). Pure. */
export function describeDestination(d: Destination | null): string {
  if (d === null) return 'no clear address';
  // User info may hold a password typed into a URL: never repeat it.
  return d.replace(/^([a-z]+:\/\/)[^/@]*@/, '$1').replace(/^(sftp|ftp|tcp):\/\//, '');
}
