import { checkHostRuleList, hostRulesProblemText } from '../shared/local-service/host-rules';
import { NOTIFY_HOST_RULES } from '../shared/local-service/notify-options';
import { TOOL_SERVER_HOST_RULES } from '../shared/local-service/tool-server-hosts-option';

/**
 * The host allow-lists as startLocalService gets them (the CLI checked its flags already, naming them; the
 * embedded service gets them in core's start message): a bad entry would match nothing and refuse every
 * notification or tool server without a word, so the start is refused instead, saying which entry and why.
 */
export function hostListsProblem(options: { notifyHosts?: readonly string[] | undefined; toolServerHosts?: readonly string[] | undefined }): string | null {
  const notify = options.notifyHosts ? checkHostRuleList(options.notifyHosts, NOTIFY_HOST_RULES) : null;
  if (notify && 'problems' in notify) return `The notify allow-list (--notify-allow-hosts, ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS) ${hostRulesProblemText(notify.problems)}`;
  const tools = options.toolServerHosts ? checkHostRuleList(options.toolServerHosts, TOOL_SERVER_HOST_RULES) : null;
  if (tools && 'problems' in tools) {
    return `The tool-server allow-list (--tool-server-allow-hosts, ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS, or the app's Chat model settings) ${hostRulesProblemText(tools.problems)}`;
  }
  return null;
}
