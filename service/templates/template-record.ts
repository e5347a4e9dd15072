/** A Template as stored, and the records the API answers with (spec "Template", service-facts.md §10). */
export interface TemplateRow {
  id: string;
  name: string;
  /** Any JSON value: the Template's instructions (usually `{steps, allow_steps_override?, fields?, auth?}`). */
  content: unknown;
  requireSignatureAuth: 0 | 1;
  description: string;
  createdMs: number;
  modifiedMs: number;
  lastUsedMs: number | null;
  /** Set for built-in Templates only. */
  builtinVersion?: string;
}

/** `YYYY-MM-DD HH:mm:ss` (UTC), the date format of Template records and list params. */
export const templateDate = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');

/** The full record (list items and the fields every Template answer carries). */
export function templateRecord(t: TemplateRow, accountId: string | null): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    content: t.content,
    require_signature_auth: t.requireSignatureAuth,
    assembly_status_expiry: null,
    transcoding_result_expiry: null,
    account_id: t.builtinVersion ? null : accountId,
    ...(t.builtinVersion ? { builtin_version: t.builtinVersion } : {}),
    created: templateDate(t.createdMs),
    modified: templateDate(t.modifiedMs),
    last_used: t.lastUsedMs === null ? null : templateDate(t.lastUsedMs),
    deleted: null,
    description: t.description,
    encryption_version: null,
    json: null,
  };
}

export const TemplateOk = {
  created: 'TEMPLATE_CREATED',
  found: 'TEMPLATE_FOUND',
  updated: 'TEMPLATE_UPDATED',
  deleted: 'TEMPLATE_DELETED',
} as const;

export const TemplateError = {
  notFound: 'TEMPLATE_NOT_FOUND',
  invalidField: 'INVALID_TEMPLATE_FIELD',
  invalidJson: 'TEMPLATE_INVALID_JSON',
  listError: 'TEMPLATE_LIST_ERROR',
  deniesStepsOverride: 'TEMPLATE_DENIES_STEPS_OVERRIDE',
  noTemplateId: 'NO_TEMPLATE_ID',
  /** Ours: built-in Templates cannot be edited or deleted (the real code is not known). */
  builtinReadOnly: 'TEMPLATE_BUILTIN_READ_ONLY',
} as const;
