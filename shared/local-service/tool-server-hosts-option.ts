/**
 * `--tool-server-allow-hosts` / ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS / the app's "Tool servers may be on":
 * the hosts a chat step's `mcp_servers` may be on. The rules of every host allow-list (host-rules.ts: exact
 * names, `*.example.com` for subdomains, `loopback`), plus `*` for any host. Checked here so a typo (a URL, a
 * port, an empty list) stops the start instead of silently refusing every tool server. Pure; the service
 * matches hosts with the notify matcher.
 */

import { checkHostRules, hostRulesProblemText } from './host-rules';

/** Any host: the operator's explicit opt-out of the allow-list. */
export const ANY_TOOL_SERVER_HOST = '*';

/** This list's rule options: `*` is a rule here. */
export const TOOL_SERVER_HOST_RULES = { allowAny: true } as const;

/** The rules of a comma-separated list (lower-cased), or what is wrong with it (to follow the flag's name). */
export function parseToolServerHosts(text: string): { hosts: string[] } | { problem: string } {
  const checked = checkHostRules(text, TOOL_SERVER_HOST_RULES);
  if ('problems' in checked) return { problem: hostRulesProblemText(checked.problems) };
  if (checked.rules.length === 0) return { problem: 'lists no host (name at least one, e.g. "loopback", or "*" for any host)' };
  return { hosts: checked.rules };
}
