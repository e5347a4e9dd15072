// Which tool servers get a minted token (spec "Tool-server auto-authentication for chat steps"): only
// entries with `auth: "service"`, no `Authorization` header of their own, and a host of the service's own
// domains over HTTPS. Locally the service itself is plain http on loopback, so http is accepted for
// loopback hosts only (the same exception the SDKs make for /token, service-facts §11). Pure.

import { SERVICE_AUTH, type McpServer } from '../../shared/api/mcp-servers';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** A domain covers itself and its subdomains (`example.com` → `mcp.example.com`); ports do not matter. */
export function isOwnHost(url: string, ownDomains: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  const secure = u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.test(host));
  if (!secure) return false;
  return ownDomains.some((d) => {
    const own = d.toLowerCase().replace(/^\.+|\.$/g, '');
    return own !== '' && (host === own || host.endsWith(`.${own}`));
  });
}

const hasAuthorization = (headers: Record<string, string>): boolean => Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');

/**
 * The headers to send to one tool server: its own `headers`, plus `Authorization: Bearer <minted>` when it
 * asks for `auth: "service"`, has no Authorization header and is one of ours. `mint` runs only then.
 */
export function toolServerHeaders(server: McpServer, ownDomains: readonly string[], mint: () => string | null): { headers: Record<string, string>; injected: boolean } {
  const headers = { ...(server.headers ?? {}) };
  if (server.auth !== SERVICE_AUTH || hasAuthorization(headers) || !isOwnHost(server.url, ownDomains)) return { headers, injected: false };
  const token = mint();
  if (token === null) return { headers, injected: false };
  return { headers: { ...headers, Authorization: `Bearer ${token}` }, injected: true };
}
