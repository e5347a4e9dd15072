import type { Instructions } from '../../../shared/api/instructions';
import { PRESETS } from '../../../shared/api/presets';

/** JSON with sorted keys: two step sets that differ only in key order are the same. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : value !== null && typeof value === 'object'
      ? `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(value);

/**
 * What a drop does, in the words of the Upload view: the page's own name for it when it gave one (a
 * preset's title, a Template's name), else a preset whose steps these are, the Template's id, or "Custom
 * steps". Names each batch of the drop in Transfers. Pure.
 */
export function recipeOf(instructions: Instructions, given?: string): string {
  const named = given?.trim().slice(0, 200);
  if (named) return named;
  if (instructions.template_id) return `Template ${instructions.template_id}`;
  if (instructions.steps) {
    const steps = canonical(instructions.steps);
    const preset = PRESETS.find((p) => canonical(p.steps) === steps);
    if (preset) return preset.label;
  }
  return 'Custom steps';
}
