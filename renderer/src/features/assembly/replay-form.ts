import type { ReplayOptions } from '../../../../shared/ipc/assembly-models';
import { parseJsonWithPosition } from '../../lib/json-position';

/** The replay form: run with the steps it ran with, with new steps, or under another Template. */
export interface ReplayForm {
  readonly mode: 'same' | 'steps' | 'template';
  readonly stepsText: string;
  readonly templateId: string;
  /** Read the Template again as it is now (the original's or the one chosen). */
  readonly reparse: boolean;
  readonly notifyUrl: string;
}

export const EMPTY_REPLAY_FORM: ReplayForm = { mode: 'same', stepsText: '', templateId: '', reparse: false, notifyUrl: '' };

export type ReplayFormResult = { readonly ok: true; readonly options: ReplayOptions } | { readonly ok: false; readonly field: 'steps' | 'template' | 'notifyUrl'; readonly message: string };

/**
 * The form → the replay options, or what is wrong and where. New steps are the steps object itself or
 * `{"steps": {…}}` (a whole Assembly's params pasted); a notify_url must be http(s), as the service says.
 */
export function replayOptionsOf(form: ReplayForm): ReplayFormResult {
  const options: { -readonly [K in keyof ReplayOptions]: ReplayOptions[K] } = {};
  if (form.mode === 'steps') {
    if (form.stepsText.trim() === '') return { ok: false, field: 'steps', message: 'Type the new steps as JSON.' };
    const parsed = parseJsonWithPosition(form.stepsText);
    if (!parsed.ok) return { ok: false, field: 'steps', message: parsed.error.message };
    const value = parsed.value as Record<string, unknown> | null;
    const steps = value && typeof value === 'object' && !Array.isArray(value) && typeof value.steps === 'object' && value.steps !== null ? value.steps : value;
    if (!steps || typeof steps !== 'object' || Array.isArray(steps) || Object.keys(steps).length === 0) {
      return { ok: false, field: 'steps', message: 'The steps are a JSON object of named steps, like {"resized": {"robot": "/image/resize", …}}.' };
    }
    options.steps = steps as Record<string, unknown>;
  }
  if (form.mode === 'template') {
    if (form.templateId.trim() === '') return { ok: false, field: 'template', message: 'Choose a Template.' };
    options.templateId = form.templateId.trim();
  }
  if (form.reparse && form.mode !== 'steps') options.reparseTemplate = true;
  const url = form.notifyUrl.trim();
  if (url !== '') {
    let ok = false;
    try {
      ok = /^https?:$/.test(new URL(url).protocol);
    } catch {
      ok = false;
    }
    if (!ok) return { ok: false, field: 'notifyUrl', message: 'A notify URL starts with http:// or https://.' };
    options.notifyUrl = url;
  }
  return { ok: true, options };
}
