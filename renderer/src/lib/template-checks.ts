import { ErrorCode } from '../../../shared/api/codes';
import { isRealRobot } from '../../../shared/api/known-robots';
import { parseJsonWithPosition, positionAt, type JsonSyntaxError } from './json-position';
import { checkStepsValue, useNames } from './step-checks';

/** A problem in a Template's JSON, at the line the editor marks. */
export interface TemplateProblem {
  readonly code: string;
  readonly message: string;
  /** 1-based. */
  readonly line: number;
  readonly step?: string;
}

export type TemplateCheck =
  | { readonly kind: 'ok'; readonly content: unknown }
  | { readonly kind: 'syntax'; readonly error: JsonSyntaxError }
  | { readonly kind: 'invalid'; readonly problems: readonly TemplateProblem[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ORIGINAL = ':original';

/** The line of `"name":` (a key) in the text, else of the `"steps"` key, else 1. */
export const lineOfKey = (text: string, name: string | undefined): number => {
  const find = (key: string): number | null => {
    const re = new RegExp(`${JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`);
    const m = re.exec(text);
    return m ? positionAt(text, m.index).line : null;
  };
  return (name !== undefined ? find(name) : null) ?? find('steps') ?? 1;
};

/** A `use` loop through several steps (a step using itself is reported by the step checks). */
export const findLoop = (steps: Record<string, unknown>): string[] | null => {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (name: string): string[] | null => {
    if (state.get(name) === 'done') return null;
    if (state.get(name) === 'visiting') return [...stack.slice(stack.indexOf(name)), name];
    state.set(name, 'visiting');
    stack.push(name);
    const step = steps[name];
    for (const ref of isRecord(step) ? (useNames(step.use) ?? []) : []) {
      if (ref === name || !(ref in steps)) continue;
      const loop = visit(ref);
      if (loop) return loop;
    }
    stack.pop();
    state.set(name, 'done');
    return null;
  };
  for (const name of Object.keys(steps)) {
    const loop = visit(name);
    if (loop) return loop;
  }
  return null;
};

/**
 * What the Template editor checks as the user types: JSON syntax (with line and column), then, when the
 * content has steps, the step rules of the service (service-facts.md §8) with the codes it would answer.
 * Any JSON value is valid content; only `steps` and `allow_steps_override` are looked into.
 */
export const checkTemplateText = (text: string): TemplateCheck => {
  const parsed = parseJsonWithPosition(text);
  if (!parsed.ok) return { kind: 'syntax', error: parsed.error };
  const content = parsed.value;
  if (!isRecord(content)) return { kind: 'ok', content };
  const problems: TemplateProblem[] = [];
  if ('allow_steps_override' in content && typeof content.allow_steps_override !== 'boolean') {
    problems.push({ code: 'INVALID_TEMPLATE_FIELD', message: '"allow_steps_override" must be true or false.', line: lineOfKey(text, 'allow_steps_override') });
  }
  if ('steps' in content) {
    const steps = content.steps;
    for (const p of checkStepsValue(steps)) {
      const missingOriginal = p.code === ErrorCode.unknownUse && p.message.includes(`"${ORIGINAL}"`);
      problems.push({
        code: p.code,
        step: p.step,
        line: lineOfKey(text, p.step),
        message: missingOriginal
          ? `Step "${p.step ?? '?'}" uses ":original", but there is no ":original" step: add "${ORIGINAL}": { "robot": "/upload/handle" } so uploaded files reach it.`
          : p.message,
      } as TemplateProblem);
    }
    if (isRecord(steps)) {
      for (const [name, step] of Object.entries(steps)) {
        if (isRecord(step) && typeof step.robot === 'string' && step.robot.startsWith('/') && !isRealRobot(step.robot)) {
          problems.push({ code: ErrorCode.unknownRobot, step: name, line: lineOfKey(text, name), message: `Step "${name}": there is no robot "${step.robot}".` });
        }
      }
      const loop = findLoop(steps);
      if (loop) {
        problems.push({ code: ErrorCode.infinite, step: loop[0], line: lineOfKey(text, loop[0]), message: `The "use" parameters form a loop: ${loop.join(' → ')}.` });
      }
    }
  }
  problems.sort((a, b) => a.line - b.line);
  return problems.length > 0 ? { kind: 'invalid', problems } : { kind: 'ok', content };
};
