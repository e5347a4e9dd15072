import { z } from 'zod';

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
