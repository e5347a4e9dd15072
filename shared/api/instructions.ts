import { z } from 'zod';

/** A step is an open record: robots have many parameters, and the service validates them. */
export const stepSchema = z.looseObject({
  robot: z.string(),
  use: z.unknown().optional(),
  result: z.union([z.boolean(), z.literal('debug')]).optional(),
});
export type Step = z.infer<typeof stepSchema>;

export const stepsSchema = z.record(z.string(), stepSchema);
export type Steps = z.infer<typeof stepsSchema>;

export const NOTIFICATION_PAYLOAD_OPTIONS = ['without_result_meta_data', 'without_results', 'without_upload_meta_data', 'without_uploads'] as const;

/** What the user chose to run: raw steps or a Template, plus custom fields. */
export const instructionsSchema = z
  .object({
    steps: stepsSchema.optional(),
    template_id: z.string().min(1).optional(),
    fields: z.record(z.string(), z.string()).optional(),
    notify_url: z.string().optional(),
    /**
     * `assembly_execution_progress` on the update stream (service-facts §5). Core asks for it on every
     * Assembly it creates (api-client `createAssembly`) unless this says false.
     */
    emit_execution_progress: z.boolean().optional(),
    /** What the notification leaves out (service-facts §3); empty or absent = the full status. */
    notification_payload: z.array(z.enum(NOTIFICATION_PAYLOAD_OPTIONS)).optional(),
    /**
     * The request's own limits (spec "Request params envelope", `auth`): core merges key, expires and nonce
     * into this object when it signs; a Template's limits apply where these are absent.
     */
    auth: z
      .object({
        max_size: z.number().int().min(0).optional(),
        max_number_of_files: z.number().int().min(1).optional(),
        referer: z.string().max(2048).optional(),
      })
      .optional(),
  })
  .refine((v) => v.steps !== undefined || v.template_id !== undefined, {
    message: 'Give either steps or a template_id.',
  });
export type Instructions = z.infer<typeof instructionsSchema>;
