import type { ChatSettingsInput } from '../../../../shared/ipc/chat-settings-models';
import { chatEndpointProblem, chatTimeoutProblem } from '../../../../shared/local-service/chat-option';

/** The chat model form as typed (text fields; '' = not set). */
export interface ChatForm {
  endpoint: string;
  model: string;
  timeout: string;
}

/** What is wrong at each field, by the rules core and the environment use too (chat-option.ts). Pure. */
export function chatFormProblems(form: ChatForm): { endpoint: string | null; timeout: string | null } {
  return { endpoint: chatEndpointProblem(form.endpoint), timeout: chatTimeoutProblem(form.timeout) };
}

/** What core saves: trimmed text, the timeout as a number, the key only when typed (write-only). Pure. */
export function chatFormToInput(form: ChatForm, apiKey: string, removeKey: boolean): ChatSettingsInput {
  const timeout = form.timeout.trim();
  return {
    endpoint: form.endpoint.trim(),
    model: form.model.trim(),
    timeoutMs: timeout === '' ? null : Number(timeout),
    ...(removeKey ? { removeApiKey: true } : apiKey !== '' ? { apiKey } : {}),
  };
}
