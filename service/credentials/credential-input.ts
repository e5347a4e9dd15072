import { CREDENTIAL_TYPES } from '../../shared/api/credential-forms';
import { credentialNameProblem } from '../../shared/api/credential-name';
import { apiError, type ApiError } from '../http/api-error';

export { CREDENTIAL_TYPES };

export const CredentialError = {
  invalid: 'TEMPLATE_CREDENTIALS_INVALID',
  notRead: 'TEMPLATE_CREDENTIALS_NOT_READ',
  nameTaken: 'TEMPLATE_CREDENTIALS_NAME_TAKEN',
} as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const invalid = (message: string): ApiError => apiError(CredentialError.invalid, message, 400);

export interface CredentialInput {
  name?: string;
  type?: string;
  content?: Record<string, unknown>;
}

/**
 * Create/edit params: `name` (the rule in shared/api/credential-name.ts: at least 4 characters of latin
 * letters, digits, dashes and underscores, as the real service accepts),
 * `type` from the list, `content` an object (a JSON string is accepted too, as form-encoded SDKs send).
 */
export function parseCredentialInput(params: Record<string, unknown>, mode: 'create' | 'edit'): CredentialInput | ApiError {
  const input: CredentialInput = {};
  if (params.name !== undefined || mode === 'create') {
    if (typeof params.name !== 'string') return invalid('name must be a string.');
    const problem = credentialNameProblem(params.name);
    if (problem) return invalid(`name: ${problem}`);
    input.name = params.name;
  }
  if (params.type !== undefined || mode === 'create') {
    if (typeof params.type !== 'string' || !(CREDENTIAL_TYPES as readonly string[]).includes(params.type)) {
      return invalid(`type must be one of ${CREDENTIAL_TYPES.join(', ')}.`);
    }
    input.type = params.type;
  }
  if (params.content !== undefined || mode === 'create') {
    let content = params.content;
    if (typeof content === 'string') {
      try {
        content = JSON.parse(content);
      } catch {
        return invalid('content is not valid JSON.');
      }
    }
    if (!isObject(content)) return invalid('content must be an object, e.g. {"host": "…", "user": "…"}.');
    input.content = content;
  }
  return input;
}
