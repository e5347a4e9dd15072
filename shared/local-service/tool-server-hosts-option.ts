/**
 * `--tool-server-allow-hosts` / ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS: the hosts a chat step's `mcp_servers`
 * may be on. The same rules as `--notify-allow-hosts` (exact names, `*.example.com` for subdomains,
 * `loopback`), plus `*` for any host. Checked here so a typo (a URL, a port, an empty list) stops the start
 * instead of silently refusing every tool server. Pure; the service matches hosts with the notify matcher.
 */

/** Any host: the operator's explicit opt-out of the allow-list. */
export const ANY_TOOL_SERVER_HOST = '*';

const LABEL = '[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?';
const HOST_NAME = new RegExp(`^${LABEL}(\\.${LABEL})*\\.?$`);
const IPV6 = /^\[?[0-9a-f:.]*:[0-9a-f:.]*:[0-9a-f:.]*\]?$/;

/** What is wrong with one rule, or null. */
function ruleProblem(rule: string): string | null {
  if (rule === ANY_TOOL_SERVER_HOST || rule === 'loopback') return null;
  const name = rule.startsWith('*.') ? rule.slice(2) : rule;
  if (HOST_NAME.test(name) || (!rule.startsWith('*.') && IPV6.test(name))) return null;
  return `has "${rule}", which is not a host name (no scheme, port or path; "*.example.com" for subdomains, "loopback", or "*" for any host)`;
}

/** The rules of a comma-separated list (lower-cased), or what is wrong with it. */
export function parseToolServerHosts(text: string): { hosts: string[] } | { problem: string } {
  const hosts = text
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  if (hosts.length === 0) return { problem: 'lists no host (name at least one, e.g. "loopback", or "*" for any host)' };
  for (const h of hosts) {
    const problem = ruleProblem(h);
    if (problem !== null) return { problem };
  }
  return { hosts };
}

/** A start message's value: the list when every rule is well-formed, else undefined (dropped, never guessed). */
export function validToolServerHosts(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every((h) => typeof h === 'string')) return undefined;
  const parsed = parseToolServerHosts((value as string[]).join(','));
  return 'hosts' in parsed && parsed.hosts.length === value.length ? parsed.hosts : undefined;
}
