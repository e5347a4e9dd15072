import { ErrorCode } from '../../../shared/api/codes';
import { stepsSchema, type Steps } from '../../../shared/api/instructions';
import { parseJsonWithPosition, type JsonSyntaxError } from './json-position';

/** One problem with the steps, named with the code the service would answer with where there is one. */
export interface StepProblem {
  readonly code: string;
  readonly message: string;
  readonly step?: string;
}

export type StepsCheck =
  | { readonly kind: 'ok'; readonly steps: Steps }
  | { readonly kind: 'syntax'; readonly error: JsonSyntaxError }
  | { readonly kind: 'invalid'; readonly problems: readonly StepProblem[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The step names a `use` value refers to (string, array of names or {name}, or {steps: ...}). */
export const useNames = (use: unknown): string[] | null => {
  if (typeof use === 'string') return [use];
  if (Array.isArray(use)) {
    const names: string[] = [];
    for (const item of use) {
      if (typeof item === 'string') names.push(item);
      else if (isRecord(item) && typeof item.name === 'string') names.push(item.name);
      else return null;
    }
    return names;
  }
  if (isRecord(use) && 'steps' in use) return useNames(use.steps);
  return null;
};

/** Cheap local checks before the service gives the final word (service-facts.md §8 "Step rules"). */
export const checkStepsValue = (value: unknown): StepProblem[] => {
  if (!isRecord(value)) return [{ code: ErrorCode.invalidSteps, message: 'Steps must be a JSON object: { "step name": { "robot": "/…" } }.' }];
  const names = Object.keys(value);
  if (names.length === 0) return [{ code: ErrorCode.emptySteps, message: 'Add at least one step.' }];
  const problems: StepProblem[] = [];
  for (const name of names) {
    const step = value[name];
    if (!isRecord(step)) {
      problems.push({ code: ErrorCode.invalidSteps, step: name, message: `Step "${name}" must be an object.` });
      continue;
    }
    if (typeof step.robot !== 'string' || step.robot.length === 0) {
      problems.push({ code: ErrorCode.stepNoRobot, step: name, message: `Step "${name}" needs a "robot", e.g. "/image/resize".` });
      continue;
    }
    if (!step.robot.startsWith('/')) {
      problems.push({ code: ErrorCode.unknownRobot, step: name, message: `Step "${name}": robot names start with "/", e.g. "/${step.robot}".` });
    }
    if (step.robot === '/upload/handle' && name !== ':original') {
      problems.push({ code: ErrorCode.invalidUploadHandleStepName, step: name, message: `The /upload/handle step must be named ":original", not "${name}".` });
    }
    if (step.use === undefined) continue;
    const used = useNames(step.use);
    if (used === null || used.length === 0) {
      problems.push({ code: ErrorCode.invalidUse, step: name, message: `Step "${name}": "use" must name a step, a list of steps, or { "steps": … }.` });
      continue;
    }
    for (const ref of used) {
      if (ref === name) problems.push({ code: ErrorCode.infinite, step: name, message: `Step "${name}" uses itself.` });
      else if (!(ref in value)) {
        problems.push({ code: ErrorCode.unknownUse, step: name, message: `Step "${name}" uses "${ref}", which is not a step here.` });
      }
    }
  }
  return problems;
};

/** Syntax (with line/column), then the shared schema, then the local checks. */
export const checkStepsText = (text: string): StepsCheck => {
  const parsed = parseJsonWithPosition(text);
  if (!parsed.ok) return { kind: 'syntax', error: parsed.error };
  const local = checkStepsValue(parsed.value);
  if (local.length > 0) return { kind: 'invalid', problems: local };
  const schema = stepsSchema.safeParse(parsed.value);
  if (!schema.success) {
    const problems = schema.error.issues.map((issue) => {
      const [step, ...rest] = issue.path.map(String);
      const where = rest.length > 0 ? `"${rest.join('.')}" ` : '';
      return { code: ErrorCode.invalidSteps, step, message: `Step "${step ?? '?'}": ${where}${issue.message}` };
    });
    return { kind: 'invalid', problems };
  }
  return { kind: 'ok', steps: schema.data };
};

export const formatSteps = (steps: Steps): string => JSON.stringify(steps, null, 2);
