// Which hosts a chat step's tool servers may be on (`--tool-server-allow-hosts`). Without the operator's
// list: loopback and the service's own domains — a step (anyone with an Auth Key, or a Template) must not
// make the user's machine send requests into the LAN or to arbitrary Internet hosts. Host names are
// matched by the notify allow-list's matcher (same rules, one implementation). Pure.

import type { McpServer } from '../../shared/api/mcp-servers';
import { ANY_TOOL_SERVER_HOST } from '../../shared/local-service/tool-server-hosts-option';
import { hostAllowed } from '../notifications/notify-url';

/** Loopback, and each own domain with its subdomains (as `auth: "service"` counts them). */
export function defaultToolServerHosts(ownDomains: readonly string[]): string[] {
  const own = ownDomains.map((d) => d.toLowerCase().replace(/^\.+|\.$/g, '')).filter((d) => d !== '');
  // An IP address has no subdomains.
  return ['loopback', ...own.flatMap((d) => (/^[\d.]+$|:/.test(d) ? [d] : [d, `*.${d}`]))];
}

/** Whether a tool server URL's host is on the list; an empty list allows nothing. */
export function toolServerAllowed(url: string, allowed: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/\.$/, '');
  } catch {
    return false;
  }
  return allowed.includes(ANY_TOOL_SERVER_HOST) || (allowed.length > 0 && hostAllowed(host, allowed));
}

/** The first entry outside the list, with why (it names the host and the flag), or null when all may be called. */
export function refusedToolServer(servers: readonly McpServer[], allowed: readonly string[]): string | null {
  for (const [i, server] of servers.entries()) {
    if (toolServerAllowed(server.url, allowed)) continue;
    let host = server.url;
    try {
      host = new URL(server.url).hostname;
    } catch {
      // Validation already refused non-URLs; keep the text as given.
    }
    const list = allowed.length > 0 ? allowed.join(', ') : 'no host';
    return `mcp_servers[${i}] is on "${host}", and this service calls tool servers only on ${list}. To allow it, start the service with --tool-server-allow-hosts (or ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS; in the app: Workspaces, Chat model, "Tool servers may be on") listing "${host}"; no request was sent to it.`;
  }
  return null;
}
