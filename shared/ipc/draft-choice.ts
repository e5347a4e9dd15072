import { z } from 'zod';
import { NOTIFICATION_PAYLOAD_OPTIONS } from '../api/instructions';

export const MAX_OPTION_FIELDS = 200;

/**
 * The Upload view's "Options" as typed (checked and turned into params by renderer/src/features/upload/upload-options.ts):
 * kept with the choice so a restart finds them as they were left.
 */
export const uploadOptionsSchema = z.object({
  notifyUrl: z.string().max(10_000),
  /** `notification_payload`: what the notification leaves out. */
  leaveOut: z.array(z.enum(NOTIFICATION_PAYLOAD_OPTIONS)),
  /** As typed: "500 MB", "1.5 GiB", "1048576"; empty = no limit. */
  maxSize: z.string().max(100),
  maxNumberOfFiles: z.string().max(100),
  referer: z.string().max(10_000),
  fields: z.array(z.object({ key: z.string().max(1000), value: z.string().max(10_000) })).max(MAX_OPTION_FIELDS),
  /** `ffmpeg_stack` for the steps that take it; empty = each step's own (the service default v6.0.0). */
  stackVersion: z.string().max(100),
});
export type UploadOptions = z.infer<typeof uploadOptionsSchema>;

export const EMPTY_UPLOAD_OPTIONS: UploadOptions = { notifyUrl: '', leaveOut: [], maxSize: '', maxNumberOfFiles: '', referer: '', fields: [], stackVersion: '' };

/**
 * The Upload view's "What to do": a preset, custom steps (the editor's text, as typed, valid or not), or a
 * Template with its fields. Core keeps it on disk beside the draft's files (drafts:choice / drafts:saveChoice),
 * so a reload or a restart finds the Upload view as the user left it.
 */
export const draftChoiceSchema = z.object({
  /** A preset's id, `custom` or `template`. */
  presetId: z.string().min(1).max(200),
  customText: z.string().max(1_000_000),
  templateId: z.string().min(1).max(200).nullable(),
  templateFields: z
    .record(z.string().max(200), z.string().max(10_000))
    .refine((fields) => Object.keys(fields).length <= 200, { message: 'At most 200 fields.' }),
  /** Absent in a draft saved before Options existed: none set. */
  /** Absent in a draft saved before Options existed: none set. */
  options: uploadOptionsSchema.optional(),
});
export type DraftChoice = z.infer<typeof draftChoiceSchema>;
