import { z } from 'zod';

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
});
export type DraftChoice = z.infer<typeof draftChoiceSchema>;
