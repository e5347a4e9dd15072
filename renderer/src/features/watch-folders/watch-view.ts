import { PRESETS } from '../../../../shared/api/presets';
import type { ConflictPolicy } from '../../../../shared/ipc/mirror-models';
import { DEFAULT_WATCH_CONFLICT, type AfterSuccessInput, type FolderRef, type WatchField, type WatchFolder, type WatchFolderInput, type WatchFolderUpdate, type WatchItem, type WatchItemState, type WatchRecipe } from '../../../../shared/ipc/watch-folder-models';
import type { RadioCardOption } from '../../components/RadioCards';
import { formatCount } from '../../lib/format';
import type { StateTone } from '../../lib/run-state';

/** A watch's state as a badge. */
export function watchStateBadge(watch: Pick<WatchFolder, 'state'>): { label: string; tone: StateTone } {
  switch (watch.state) {
    case 'watching':
      return { label: 'Watching', tone: 'success' };
    case 'paused':
      return { label: 'Paused', tone: 'neutral' };
    case 'catching-up':
      return { label: 'Catching up', tone: 'info' };
    case 'error':
      return { label: 'Error', tone: 'danger' };
  }
}

const ITEM_STATES: Record<WatchItemState, { label: string; tone: StateTone }> = {
  settling: { label: 'Waiting for the copy to finish', tone: 'neutral' },
  checking: { label: 'Checking', tone: 'info' },
  queued: { label: 'Queued', tone: 'info' },
  processing: { label: 'Processing', tone: 'info' },
  done: { label: 'Done', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};
export const itemStateBadge = (state: WatchItemState) => ITEM_STATES[state];

/** "Template resize_images (2 fields)" / "Preset: Resize images to 1024 px". */
export function recipeLabel(recipe: WatchRecipe): string {
  if (recipe.kind === 'preset') return PRESETS.find((p) => p.id === recipe.presetId)?.label ?? recipe.presetId;
  const n = Object.keys(recipe.fields).length;
  return `Template ${recipe.templateId}${n > 0 ? ` (${n} field${n === 1 ? '' : 's'})` : ''}`;
}

export function afterSuccessLabel(watch: Pick<WatchFolder, 'afterSuccess'>): string {
  const a = watch.afterSuccess;
  return a.kind === 'keep' ? 'Originals kept' : a.kind === 'delete' ? 'Originals deleted after success' : `Originals moved to ${a.folder}`;
}

/** The watch dialog's choices for a result already in the output folder, in the words of watch folder apps. */
export const WATCH_CONFLICTS: readonly RadioCardOption<ConflictPolicy>[] = [
  { value: 'overwrite', label: 'Replace', description: 'The newest results replace earlier ones.' },
  { value: 'keep-both', label: 'Keep both', description: 'A new result is saved as “name (2).ext” beside the earlier one.' },
  { value: 'skip', label: 'Skip', description: 'An existing result is left as it is, and the file’s row says so.' },
];

/** The card's words for a policy other than the default (replace goes unsaid, as before the choice existed). */
export function conflictLabel(watch: Pick<WatchFolder, 'conflict'>): string | null {
  return watch.conflict === 'keep-both' ? 'new results kept beside earlier ones' : watch.conflict === 'skip' ? 'results already there left as they are' : null;
}

/**
 * What the conflict policy did to a file's results, for its row: "2 results kept beside earlier ones",
 * "skipped: result already there", or null when every result went to its own path.
 */
export function itemConflictNote(item: Pick<WatchItem, 'keptBeside' | 'skippedResults'>): string | null {
  const parts: string[] = [];
  const kept = item.keptBeside.length;
  if (kept > 0) parts.push(kept === 1 ? '1 result kept beside an earlier one' : `${formatCount(kept, 'result')} kept beside earlier ones`);
  const n = item.skippedResults.length;
  if (n > 0) parts.push(`skipped: ${n === 1 ? 'result' : formatCount(n, 'result')} already there`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/**
 * Fields typed one per line as `name=value` (a value may hold `=`). Blank lines are ignored; a line
 * without `=` or with an empty name is an error the dialog shows.
 */
export function parseFieldLines(text: string): { fields: Record<string, string> } | { error: string } {
  const fields: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf('=');
    const name = at === -1 ? '' : line.slice(0, at).trim();
    if (name === '') return { error: `Line ${i + 1}: write fields as name=value.` };
    fields[name] = line.slice(at + 1).trim();
  }
  return { fields };
}

/** Seconds as typed → the settle time in ms, within what core accepts. */
export function settleMsOf(secondsText: string): number | null {
  const s = Number(secondsText);
  if (!Number.isFinite(s) || s < 0.2 || s > 600) return null;
  return Math.round(s * 1000);
}

export type AfterKind = 'keep' | 'delete' | 'move';

/** What the watch dialog holds, as typed or picked (the same form adds and edits a watch). */
export interface WatchForm {
  folder: FolderRef | null;
  output: FolderRef | null;
  /** `preset:<id>` or `template:<id>`. */
  recipe: string;
  fieldText: string;
  reprocessStale: boolean;
  after: AfterKind;
  moveTo: FolderRef | null;
  /** When a result is already in the output folder. */
  conflict: ConflictPolicy;
  /** Seconds as typed. */
  settle: string;
}

/** A problem the dialog shows at its field (`null`: below the form). */
export interface FormProblem {
  field: WatchField | null;
  message: string;
}

/** The empty add form, or an edit form holding the watch as it is. */
export function initialForm(watch?: WatchFolder, firstPresetId = PRESETS[0]?.id ?? ''): WatchForm {
  if (!watch) return { folder: null, output: null, recipe: `preset:${firstPresetId}`, fieldText: '', reprocessStale: false, after: 'keep', moveTo: null, conflict: DEFAULT_WATCH_CONFLICT, settle: '2' };
  const r = watch.recipe;
  return {
    folder: { path: watch.folder },
    output: { path: watch.output },
    recipe: r.kind === 'preset' ? `preset:${r.presetId}` : `template:${r.templateId}`,
    fieldText: r.kind === 'template' ? Object.entries(r.fields).map(([k, v]) => `${k}=${v}`).join('\n') : '',
    reprocessStale: watch.reprocessStale,
    after: watch.afterSuccess.kind,
    moveTo: watch.afterSuccess.kind === 'move' ? { path: watch.afterSuccess.folder } : null,
    conflict: watch.conflict,
    settle: String(watch.settleMs / 1000),
  };
}

/** The parts add and edit share: recipe, settle time and after success, or the first problem. */
function common(form: WatchForm): { recipe: WatchRecipe; settleMs: number; afterSuccess: AfterSuccessInput } | { problem: FormProblem } {
  const at = form.recipe.indexOf(':');
  const [kind, id] = [form.recipe.slice(0, at), form.recipe.slice(at + 1)];
  const parsed = parseFieldLines(form.fieldText);
  if ('error' in parsed) return { problem: { field: 'recipe', message: parsed.error } };
  const settleMs = settleMsOf(form.settle);
  if (settleMs === null) return { problem: { field: 'settleMs', message: 'The settle time is between 0.2 and 600 seconds.' } };
  if (form.after === 'move' && !form.moveTo) return { problem: { field: 'afterSuccess', message: 'Choose where to move the originals.' } };
  const afterSuccess: AfterSuccessInput = form.after === 'move' && form.moveTo ? { kind: 'move', folder: form.moveTo } : form.after === 'delete' ? { kind: 'delete' } : { kind: 'keep' };
  const recipe: WatchRecipe = kind === 'template' ? { kind: 'template', templateId: id, fields: parsed.fields } : { kind: 'preset', presetId: id };
  return { recipe, settleMs, afterSuccess };
}

/** The add request, or the first problem to show. */
export function inputOf(form: WatchForm): { input: WatchFolderInput } | { problem: FormProblem } {
  if (!form.folder || !form.output) return { problem: { field: null, message: 'Choose the folder to watch and the output folder.' } };
  const c = common(form);
  if ('problem' in c) return c;
  return { input: { folder: form.folder, output: form.output, recipe: c.recipe, reprocessStale: form.reprocessStale, afterSuccess: c.afterSuccess, conflict: form.conflict, settleMs: c.settleMs } };
}

const refKey = (r: FolderRef | null) => (r === null ? '' : 'path' in r ? `path:${r.path}` : `handle:${r.handle}`);
const sameRef = (a: FolderRef | null, b: FolderRef | null) => refKey(a) === refKey(b);

/**
 * The edit request for a watch, or the first problem. A folder that was not changed is not sent (in the
 * Electron host the page cannot name a path, only hand over a newly picked folder).
 */
export function updateOf(watch: WatchFolder, form: WatchForm): { update: WatchFolderUpdate } | { problem: FormProblem } {
  if (!form.output) return { problem: { field: 'output', message: 'Choose the output folder.' } };
  const c = common(form);
  if ('problem' in c) return c;
  const before = initialForm(watch);
  const afterChanged = form.after !== before.after || (form.after === 'move' && !sameRef(form.moveTo, before.moveTo));
  return {
    update: {
      id: watch.id,
      recipe: c.recipe,
      reprocessStale: form.reprocessStale,
      conflict: form.conflict,
      settleMs: c.settleMs,
      ...(sameRef(form.output, before.output) ? {} : { output: form.output }),
      ...(afterChanged ? { afterSuccess: c.afterSuccess } : {}),
    },
  };
}
