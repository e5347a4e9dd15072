import { z } from 'zod';

/**
 * A Template record as the service sends it (spec "Template", service-facts.md §10): in list items and,
 * with `ok: "TEMPLATE_FOUND"`/`TEMPLATE_CREATED`/`TEMPLATE_UPDATED`, as a whole answer. Lenient on
 * types the sources disagree on (numbers as strings, nulls), strict on id and name.
 */
export const templateRecordSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  content: z.unknown(),
  require_signature_auth: z.union([z.number(), z.string(), z.boolean()]).nullable().optional(),
  description: z.string().nullable().optional(),
  created: z.string().nullable().optional(),
  modified: z.string().nullable().optional(),
  last_used: z.string().nullable().optional(),
  builtin_version: z.string().nullable().optional(),
});
export type TemplateRecord = z.infer<typeof templateRecordSchema>;

export const templateListRecordSchema = z.looseObject({
  items: z.array(templateRecordSchema),
  count: z.number(),
});
