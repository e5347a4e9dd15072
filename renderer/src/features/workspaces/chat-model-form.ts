import type { ChatSettingsInput } from '../../../../shared/ipc/chat-settings-models';
import { chatEndpointProblem, chatTimeoutProblem } from '../../../../shared/local-service/chat-option';
import { checkHostRules, describeHostRuleProblems } from '../../../../shared/local-service/host-rules';
import { TOOL_SERVER_HOST_RULES } from '../../../../shared/local-service/tool-server-hosts-option';

/** The chat model form as typed (text fields; '' = not set). */
export interface ChatForm {
  endpoint: string;
  model: string;
  timeout: string;
  /** Comma-separated host rules; '' = the service's default (loopback and its own domains). */
  toolServerHosts: string;
}

export interface ChatFormProblems {
  endpoint: string | null;
  timeout: string | null;
  toolServerHosts: string | null;
}

/** The saved list as the field shows it. */
export const hostsText = (hosts: readonly string[]): string => hosts.join(', ');

/** What is wrong at each field, by the rules core, the service and the environment use too. Pure. */
export function chatFormProblems(form: ChatForm): ChatFormProblems {
  const hosts = checkHostRules(form.toolServerHosts, TOOL_SERVER_HOST_RULES);
  return {
    endpoint: chatEndpointProblem(form.endpoint),
    timeout: chatTimeoutProblem(form.timeout),
    toolServerHosts: 'problems' in hosts ? `${describeHostRuleProblems(hosts.problems)}.` : null,
  };
}

/** Whether Save may send the form. */
export const chatFormValid = (p: ChatFormProblems): boolean => p.endpoint === null && p.timeout === null && p.toolServerHosts === null;

/**
 * What core saves: trimmed text, the timeout as a number, the host rules as the service matches them, the
 * key only when typed (write-only). Pure.
 */
export function chatFormToInput(form: ChatForm, apiKey: string, removeKey: boolean): ChatSettingsInput {
  const timeout = form.timeout.trim();
  const hosts = checkHostRules(form.toolServerHosts, TOOL_SERVER_HOST_RULES);
  return {
    endpoint: form.endpoint.trim(),
    model: form.model.trim(),
    timeoutMs: timeout === '' ? null : Number(timeout),
    // Never a silent default: entries that are not rules go as typed, and core refuses them.
    toolServerHosts: 'rules' in hosts ? hosts.rules : form.toolServerHosts.split(',').map((h) => h.trim()).filter((h) => h !== ''),
    ...(removeKey ? { removeApiKey: true } : apiKey !== '' ? { apiKey } : {}),
  };
}
