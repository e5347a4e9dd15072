/** One step of a Template, as the Template picker lists it. */
export interface StepSummary {
  readonly name: string;
  /** The robot, or null for a step that names none (the service would refuse it; shown as "no robot"). */
  readonly robot: string | null;
  /** A few words on what it makes: "1024×…", "jpg", "8 thumbs". Null when nothing short says it. */
  readonly detail: string | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const shown = (v: unknown): string | null => (typeof v === 'number' || (typeof v === 'string' && v.trim() !== '') ? String(v) : null);

/** What a step's parameters say in a few words. */
export function stepDetail(step: Record<string, unknown>): string | null {
  const parts: string[] = [];
  const [width, height] = [shown(step.width), shown(step.height)];
  // "×" (U+00D7) and "…" are in every platform font, unlike arrows or box-drawing glyphs.
  if (width || height) parts.push(`${width ?? '…'}×${height ?? '…'}`);
  const format = shown(step.format);
  if (format) parts.push(format);
  const count = shown(step.count);
  if (count && step.robot === '/video/thumbs') parts.push(count === '1' ? '1 thumb' : `${count} thumbs`);
  const preset = shown(step.preset);
  if (preset) parts.push(preset);
  return parts.length > 0 ? parts.join(', ') : null;
}

/** The steps of a Template's content, in the order they are written; [] when it has none. */
export function templateSteps(content: unknown): StepSummary[] {
  if (!isRecord(content) || !isRecord(content.steps)) return [];
  return Object.entries(content.steps).map(([name, step]) => {
    if (!isRecord(step)) return { name, robot: null, detail: null };
    return { name, robot: typeof step.robot === 'string' ? step.robot : null, detail: stepDetail(step) };
  });
}
