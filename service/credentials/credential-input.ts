import { CREDENTIAL_TYPES } from '../../shared/api/credential-forms';
import { credentialNameProblem } from '../../shared/api/credential-name';
import { apiError, type ApiError } from '../http/api-error';

export { CREDENTIAL_TYPES };

export const CredentialError = {
  invalid: 'TEMPLATE_CREDENTIALS_INVALID',
  notRead: 'TEMPLATE_CREDENTIALS_NOT_READ',
  nameTaken: 'TEMPLATE_CREDENTIALS_NAME_TAKEN',
} as const;

const invalid = (message: string): ApiError => apiError(CredentialError.invalid, message, 400);

export interface CredentialInput {
  name?: string;
  type?: string;
  /** Any JSON value (spec: "content (any JSON value)"); undefined on an edit that leaves it. */
  content?: unknown;
}

/** Deeper than this, content is refused (the same cap as Template content and params). */
const MAX_CONTENT_DEPTH = 64;

/** How deeply `value` nests arrays and objects, without recursion (stops counting past `cap`). */
function depthOf(value: unknown, cap: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    deepest = Math.max(deepest, d + 1);
    if (deepest > cap) return deepest;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

/**
 * `content` as sent: any JSON value (spec "Template credentials"; service-facts §7 shows objects only,
 * the spec wins). A string that starts like a JSON object or array (`{`, `[`) is that JSON text, as
 * form-encoded SDKs send an object, and must parse; any other string is the value itself (a token).
 */
export function parseCredentialContent(raw: unknown): { ok: true; content: unknown } | { ok: false; message: string } {
  let content = raw;
  if (typeof raw === 'string' && /^\s*[[{]/.test(raw)) {
    try {
      content = JSON.parse(raw);
    } catch {
      return { ok: false, message: 'content starts like a JSON object or array but is not valid JSON; send the object itself, or a string that does not start with { or [.' };
    }
  }
  if (typeof content === 'number' && !Number.isFinite(content)) return { ok: false, message: 'content must be a JSON value.' };
  if (depthOf(content, MAX_CONTENT_DEPTH) > MAX_CONTENT_DEPTH) return { ok: false, message: `content nests deeper than ${MAX_CONTENT_DEPTH} levels.` };
  return { ok: true, content };
}

/**
 * Create/edit params: `name` (the rule in shared/api/credential-name.ts: at least 4 characters of latin
 * letters, digits, dashes and underscores, as the real service accepts),
 * `type` from the list, `content` any JSON value (parseCredentialContent), required on create.
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
  if (params.content !== undefined) {
    const parsed = parseCredentialContent(params.content);
    if (!parsed.ok) return invalid(parsed.message);
    input.content = parsed.content;
  } else if (mode === 'create') {
    return invalid('content is required: any JSON value, e.g. {"host": "…", "user": "…"} or a token string.');
  }
  return input;
}
