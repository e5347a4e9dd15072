import { z } from 'zod';
import { CREDENTIAL_NAME_HINT, isCredentialName } from '../api/credential-name';

/** A Template as the renderer sees it (spec "Template"): content is any JSON value. */
export const templateSchema = z.object({
  id: z.string(),
  name: z.string(),
  content: z.unknown(),
  requireSignatureAuth: z.union([z.literal(0), z.literal(1)]),
  description: z.string(),
  /** `YYYY-MM-DD HH:mm:ss` (UTC), as the service writes them. */
  created: z.string().nullable(),
  modified: z.string().nullable(),
  lastUsed: z.string().nullable(),
  /** Set for built-in Templates (read-only, ids `builtin/<slug>@<version>`). */
  builtinVersion: z.string().nullable(),
});
export type Template = z.infer<typeof templateSchema>;

export const templateSortSchema = z.enum(['created', 'id', 'last_used', 'modified', 'name']);
export const includeBuiltinSchema = z.enum(['all', 'exclusively-all', 'exclusively-latest', 'latest', 'none']);

/** GET /templates params (spec "GET /templates params"); the service checks them again. */
export const templateListQuerySchema = z.object({
  workspaceId: z.string().optional(),
  page: z.number().int().min(1).default(1),
  pagesize: z.number().int().min(1).max(850).default(50),
  sort: templateSortSchema.default('created'),
  order: z.enum(['asc', 'desc']).default('desc'),
  keywords: z.string().max(1000).optional(),
  /** `YYYY-MM-DD HH:mm:ss` (UTC). */
  fromdate: z.string().optional(),
  todate: z.string().optional(),
  includeBuiltin: includeBuiltinSchema.default('none'),
});
export type TemplateListQuery = z.input<typeof templateListQuerySchema>;

export const templateListSchema = z.object({ items: z.array(templateSchema), count: z.number().int().nonnegative() });
export type TemplateList = z.infer<typeof templateListSchema>;

export const templateInputSchema = z.object({
  name: z.string().min(1).max(255),
  content: z.unknown(),
  requireSignatureAuth: z.union([z.literal(0), z.literal(1)]).default(0),
  description: z.string().max(1000).optional(),
});
export type TemplateInput = z.input<typeof templateInputSchema>;

/** Template credentials as the renderer sees them: secret values never, only which ones are stored. */
export const credentialSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  /** Non-secret values (host, user, bucket…), as text. */
  values: z.record(z.string(), z.string()),
  /** Names of secret fields that hold a value in the service. */
  secretsSet: z.array(z.string()),
  /**
   * `value` when the stored content is one JSON value rather than fields (the spec allows any JSON
   * value: a token string, a list…). The value itself is write-only, as secrets are.
   */
  contentKind: z.enum(['fields', 'value']).optional(),
  created: z.string().nullable(),
  modified: z.string().nullable(),
});
export type Credential = z.infer<typeof credentialSchema>;

/** Create or edit. On edit, a secret field left empty keeps the stored value; `clear` removes fields. */
export const credentialInputSchema = z.object({
  name: z.string().refine(isCredentialName, CREDENTIAL_NAME_HINT),
  type: z.string().min(1),
  values: z.record(z.string().min(1).max(100), z.string().max(20_000)),
  clear: z.array(z.string()).default([]),
  /**
   * Content as one value instead of fields: JSON text (`["a","b"]`, `42`, `"text"`) is that value, any
   * other text is stored as a string. On edit, empty keeps the stored value. Absent: fields (`values`).
   */
  value: z.string().max(100_000).optional(),
});
export type CredentialInput = z.input<typeof credentialInputSchema>;

/**
 * "Test credential": a saved credential (`id`, its content read in core), the form's unsaved content
 * (`draft`), or both (an edit: the draft over the stored content, empty secrets keep theirs).
 * `path` is the folder to check (SFTP: the login folder when left out).
 */
export const credentialTestRequestSchema = z
  .object({
    workspaceId: z.string().optional(),
    id: z.string().min(1).optional(),
    draft: credentialInputSchema.pick({ type: true, values: true, clear: true }).optional(),
    path: z.string().max(1024).optional(),
  })
  .refine((r) => r.id !== undefined || r.draft !== undefined, 'Give the id of saved credentials or the form content to test.');

export const credentialCheckSchema = z.object({
  id: z.enum(['settings', 'reach', 'authenticate', 'read', 'write', 'support']),
  label: z.string(),
  status: z.enum(['ok', 'fail', 'warn', 'skipped']),
  message: z.string(),
  code: z.string().optional(),
});
export type CredentialCheck = z.infer<typeof credentialCheckSchema>;

export const credentialTestReportSchema = z.object({
  /** No check failed. */
  ok: z.boolean(),
  /** False when the app cannot test this type from here (the checks say why). */
  tested: z.boolean(),
  /** What was tested, e.g. "deploy@sftp.example.com:22 /exports". */
  target: z.string(),
  checks: z.array(credentialCheckSchema),
});
export type CredentialTestReport = z.infer<typeof credentialTestReportSchema>;

/** An Auth Key as the renderer sees it (spec "Auth Key"); its secret never crosses the bridge. */
export const authKeySchema = z.object({
  id: z.string(),
  authKey: z.string(),
  description: z.string(),
  isActive: z.boolean(),
  smartCdn: z.boolean(),
  /** Scopes it holds; null = every scope. */
  scopes: z.array(z.string()).nullable(),
  signatureAlgo: z.enum(['sha1', 'sha256', 'sha384']).nullable(),
  canShowSecret: z.boolean(),
  created: z.string().nullable(),
  modified: z.string().nullable(),
  lastUsed: z.string().nullable(),
});
export type AuthKey = z.infer<typeof authKeySchema>;

export const authKeyChangeSchema = z.object({
  description: z.string().max(255).optional(),
  /** null = every scope. */
  scopes: z.array(z.string()).nullable().optional(),
  smartCdn: z.boolean().optional(),
  signatureAlgo: z.enum(['sha1', 'sha256', 'sha384']).nullable().optional(),
  isActive: z.boolean().optional(),
});
export type AuthKeyChange = z.input<typeof authKeyChangeSchema>;

/** A content-delivery URL to sign in core, with a key allowed for it. */
export const cdnUrlRequestSchema = z.object({
  workspaceId: z.string().optional(),
  keyId: z.string().min(1),
  workspaceSlug: z.string().min(1).max(100),
  template: z.string().min(1).max(300),
  input: z.string().min(1).max(2000),
  params: z.record(z.string().min(1).max(100), z.string().max(2000)).default({}),
  expiresInSeconds: z.number().int().min(1).max(31_536_000),
});

/** What a signed content-delivery URL served, fetched by core (the page loads no remote images). */
export const cdnPreviewSchema = z.object({
  status: z.number().int(),
  contentType: z.string().nullable(),
  size: z.number().int().nonnegative(),
  /** `X-Cache`: HIT or MISS on the local service. */
  cache: z.string().nullable(),
  /** Images only, up to 8 MB. */
  dataUrl: z.string().nullable(),
  /** The service's error code and message when the URL served no file (e.g. the Template failed). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type CdnPreviewResult = z.infer<typeof cdnPreviewSchema>;

/** What "Try this Template here first" changed in the Local workspace's copy (shared/api/template-trial). */
export const trialChangeSchema = z.object({
  step: z.string().nullable(),
  kind: z.enum(['swapped', 'removed', 'kept-needs-credentials']),
  from: z.string(),
  to: z.string().nullable(),
  reason: z.string(),
});

const trialStepSideSchema = z.object({
  results: z.number().int().nonnegative(),
  bytes: z.number().nonnegative(),
  dimensions: z.array(z.string()),
  mediaSeconds: z.number().nullable(),
  error: z.string().nullable(),
});

/** One side of a try: the run this app started on that workspace (its Assembly view: #/assemblies/<id>). */
const trialRunSchema = z.object({
  workspaceId: z.string(),
  runId: z.string(),
  assemblyId: z.string().nullable(),
  /** The run's state: CREATING, ASSEMBLY_UPLOADING, ASSEMBLY_COMPLETED, or the error code. */
  state: z.string(),
  ended: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** The Assembly's execution_duration (seconds) once it ran. */
  executionSeconds: z.number().nullable(),
});

/** A try: the remote Template, its local copy, both runs, and the comparison per step so far. */
export const templateTrialSchema = z.object({
  id: z.string(),
  templateId: z.string(),
  templateName: z.string(),
  localTemplateId: z.string(),
  files: z.number().int().nonnegative(),
  changes: z.array(trialChangeSchema),
  remote: trialRunSchema,
  local: trialRunSchema,
  /** Both runs ended. */
  ended: z.boolean(),
  steps: z.array(
    z.object({ step: z.string(), remoteRobot: z.string().nullable(), localRobot: z.string().nullable(), remote: trialStepSideSchema.nullable(), local: trialStepSideSchema.nullable() }),
  ),
});
export type TemplateTrial = z.infer<typeof templateTrialSchema>;
