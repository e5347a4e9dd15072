import { PRESETS } from '../../../../shared/api/presets';
import type { WatchFolder, WatchItemState, WatchRecipe } from '../../../../shared/ipc/watch-folder-models';
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
