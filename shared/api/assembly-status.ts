import { z } from 'zod';

/**
 * The Assembly status record as the service sends it (service-facts.md §4). Every field is optional
 * and unknown fields are kept: new fields and new error codes must never break parsing.
 */
export const fileMetaSchema = z.looseObject({
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
  duration: z.number().nullable().optional(),
  aspect_ratio: z.union([z.number(), z.string()]).nullable().optional(),
  has_alpha: z.boolean().nullable().optional(),
  relative_path: z.string().nullable().optional(),
});
export type FileMeta = z.infer<typeof fileMetaSchema>;

export const assemblyFileSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  basename: z.string().nullable().optional(),
  ext: z.string().nullable().optional(),
  size: z.number().optional(),
  mime: z.string().nullable().optional(),
  type: z.string().nullable().optional(),
  field: z.string().nullable().optional(),
  md5hash: z.string().nullable().optional(),
  sha256: z.string().nullable().optional(),
  /** Base64 ThumbHash of an image (none over 40 megapixels): the app's placeholder while a preview loads. */
  thumbhash: z.string().nullable().optional(),
  has_alpha: z.boolean().nullable().optional(),
  original_id: z.union([z.string(), z.array(z.string())]).optional(),
  original_name: z.string().nullable().optional(),
  original_basename: z.string().nullable().optional(),
  original_path: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  ssl_url: z.string().nullable().optional(),
  is_tus_file: z.boolean().optional(),
  tus_upload_url: z.string().nullable().optional(),
  user_meta: z.record(z.string(), z.unknown()).optional(),
  meta: fileMetaSchema.optional(),
});
export type AssemblyFile = z.infer<typeof assemblyFileSchema>;

export const tusUploadSchema = z.looseObject({
  filename: z.string().optional(),
  fieldname: z.string().optional(),
  size: z.number().optional(),
  offset: z.number().optional(),
  finished: z.boolean().optional(),
  upload_url: z.string().optional(),
});

export const assemblyStatusSchema = z.looseObject({
  ok: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  http_code: z.number().optional(),
  assembly_id: z.string().optional(),
  parent_id: z.string().nullable().optional(),
  account_id: z.string().optional(),
  template_id: z.string().nullable().optional(),
  assembly_url: z.string().optional(),
  assembly_ssl_url: z.string().optional(),
  websocket_url: z.string().optional(),
  update_stream_url: z.string().nullable().optional(),
  tus_url: z.string().optional(),
  bytes_received: z.number().optional(),
  bytes_expected: z.union([z.number(), z.string()]).nullable().optional(),
  upload_duration: z.number().optional(),
  execution_duration: z.number().optional(),
  start_date: z.string().optional(),
  execution_start: z.string().nullable().optional(),
  num_input_files: z.number().optional(),
  expected_tus_uploads: z.number().optional(),
  started_tus_uploads: z.number().optional(),
  finished_tus_uploads: z.number().optional(),
  tus_uploads: z.array(tusUploadSchema).optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
  params: z.string().optional(),
  uploads: z.array(assemblyFileSchema).optional(),
  results: z.record(z.string(), z.array(assemblyFileSchema)).optional(),
  warnings: z.array(z.looseObject({ level: z.string(), msg: z.string() })).optional(),
  step: z.string().optional(),
});
export type AssemblyStatus = z.infer<typeof assemblyStatusSchema>;

/** Error body of any endpoint (spec "Errors"). */
export const apiErrorBodySchema = z.looseObject({
  error: z.string(),
  message: z.string().optional(),
  http_code: z.number().optional(),
  reason: z.string().optional(),
  info: z.looseObject({ retryIn: z.number().optional() }).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
