import { z } from 'zod';

/** How core authenticates a workspace's requests (spec "Authentication"). */
export const authModeSchema = z.enum([
  /** Every request signed with the Auth Secret from the vault. */
  'signature',
  /** Short-lived Bearer tokens minted in core with the Auth Key and Secret, one narrow scope per request. */
  'bearer',
  /** Signed in through the browser (OAuth with PKCE): a refresh token in the vault, no Auth Secret at all. */
  'browser',
]);
export type AuthMode = z.infer<typeof authModeSchema>;

const signatureAlgoSchema = z.enum(['sha1', 'sha256', 'sha384']);

/** A workspace's CA file as PEM text: absent keeps the stored one, null removes it. */
export const caPemInputSchema = z.string().max(262_144, 'The CA file is too large for a certificate (over 256 KiB).').nullable().optional();

/** Add or edit a remote workspace. The secret is write-only: empty on edit keeps the stored one. */
export const workspaceInputSchema = z.object({
  id: z.string().min(1).optional(),
  name: z.string().trim().min(1, 'Give the workspace a name.').max(100),
  endpoint: z
    .string()
    .trim()
    .url('The endpoint is a URL such as https://api2.example.com.')
    .refine((u) => /^https?:\/\//i.test(u), 'The endpoint must start with http:// or https://.'),
  /** The workspace slug used in content-delivery URLs (`https://{slug}.tlcdn.com/...`). */
  slug: z.string().trim().max(100).regex(/^[a-z0-9-]*$/, 'Lowercase letters, digits and dashes.').default(''),
  /** Required except for a browser sign-in (whose key the deployment chose). */
  authKey: z.string().trim().max(200),
  authSecret: z.string().max(500).optional(),
  authMode: authModeSchema.default('signature'),
  signatureAlgo: signatureAlgoSchema.default('sha384'),
  /** Bearer mode: the most the app's tokens may hold; null = whatever each request needs. */
  tokenScopes: z.array(z.string().min(1)).nullable().default(null),
  /**
   * A company deployment's own certificate authority: the PEM text of its CA file, trusted for this
   * workspace's requests only. Absent keeps the stored one; null removes it.
   */
  caPem: caPemInputSchema,
});
export type WorkspaceInput = z.input<typeof workspaceInputSchema>;

/** A CA file read in core: its PEM text (public) and the first certificate's subject and end. */
export const caFileSchema = z.object({ pem: z.string(), subject: z.string(), validTo: z.string() });
export type CaFile = z.infer<typeof caFileSchema>;

/**
 * The public half of a workspace's sign-in key (client assertions, RFC 7523): what a deployment's admin
 * registers. The private key stays in core's vault.
 */
export const clientKeySchema = z.object({
  clientId: z.string(),
  kid: z.string(),
  /** The public JWK, pretty-printed JSON. */
  publicJwk: z.string(),
  publicPem: z.string(),
});
export type ClientKey = z.infer<typeof clientKeySchema>;

export const connectionCheckSchema = z.object({
  id: z.enum(['reach', 'key', 'secret', 'clock', 'token', 'scopes']),
  label: z.string(),
  status: z.enum(['ok', 'fail', 'warn', 'skipped']),
  message: z.string(),
  code: z.string().optional(),
});
export type ConnectionCheck = z.infer<typeof connectionCheckSchema>;

export const connectionReportSchema = z.object({
  ok: z.boolean(),
  checks: z.array(connectionCheckSchema),
  /** Service clock minus ours, in seconds, when the service sent a Date header. */
  skewSeconds: z.number().nullable(),
});
export type ConnectionReport = z.infer<typeof connectionReportSchema>;

/** Test either a saved workspace (id) or the form's draft before it is saved. */
export const connectionTestRequestSchema = z.object({
  id: z.string().optional(),
  draft: workspaceInputSchema.partial({ name: true }).optional(),
});

/** A key a workspace may switch to (never its secret). */
export const keyChoiceSchema = z.object({
  id: z.string(),
  authKey: z.string(),
  description: z.string(),
  isActive: z.boolean(),
  /** null = every scope. */
  scopes: z.array(z.string()).nullable(),
  fullScope: z.boolean(),
});
export type KeyChoice = z.infer<typeof keyChoiceSchema>;

/**
 * Switch a workspace to another key: one of its account's keys by id (Local: any key of its own service;
 * remote: a key whose secret the current key may read), or a remote key typed with its secret.
 */
export const switchKeyRequestSchema = z
  .object({
    id: z.string().min(1),
    keyId: z.string().min(1).max(200).optional(),
    authKey: z.string().trim().min(1).max(200).optional(),
    authSecret: z.string().trim().min(1).max(500).optional(),
  })
  .refine((r) => (r.keyId !== undefined) !== (r.authKey !== undefined), 'Choose a key (keyId) or type one (authKey and authSecret).')
  .refine((r) => r.authKey === undefined || r.authSecret !== undefined, 'A typed Auth Key needs its Auth Secret.');

export const restoreAccessResultSchema = z.object({
  /** What the local service did: nothing (an active full-access key existed), reactivated one, or made one. */
  action: z.enum(['unchanged', 'reactivated', 'created']),
  authKey: z.string(),
  /** Local's tokens were limited to some scopes; full access lifts that limit too. */
  scopeLimitLifted: z.boolean(),
});

export const rotationStepSchema = z.enum(['create-key', 'store-secret', 'verify', 'switch', 'deactivate-old', 'done']);
export type RotationStep = z.infer<typeof rotationStepSchema>;

/** A key rotation as the app logs it. Never holds a secret (those are in the vault under their own ids). */
export const rotationSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  workspaceName: z.string(),
  oldKey: z.string(),
  oldKeyId: z.string().nullable(),
  newKey: z.string().nullable(),
  newKeyId: z.string().nullable(),
  /** The last step that completed. */
  completed: z.array(rotationStepSchema),
  state: z.enum(['running', 'interrupted', 'done', 'rolled-back', 'failed-rollback']),
  /** What stopped it, in words, with the service's code. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  oldKeyDeleted: z.boolean(),
  startedAt: z.string(),
  updatedAt: z.string(),
  log: z.array(z.object({ at: z.string(), message: z.string() })),
});
export type Rotation = z.infer<typeof rotationSchema>;
