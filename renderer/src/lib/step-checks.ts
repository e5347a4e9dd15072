import { ErrorCode } from '../../../shared/api/codes';
import { stepsSchema, type Steps } from '../../../shared/api/instructions';
import { isRealRobot } from '../../../shared/api/known-robots';
import { checkSteps, type StepProblem, type StepRuleOptions } from '../../../shared/api/step-rules';
import { parseJsonWithPosition, type JsonSyntaxError } from './json-position';

export type { StepProblem } from '../../../shared/api/step-rules';

export type StepsCheck =
  | { readonly kind: 'ok'; readonly steps: Steps }
  | { readonly kind: 'syntax'; readonly error: JsonSyntaxError }
  | { readonly kind: 'invalid'; readonly problems: readonly StepProblem[] };

/**
 * The service's step rules (shared/api/step-rules.ts, the same code the local service runs), with every
 * robot the real service has: a workspace may be a remote deployment. The service checks the parameters.
 */
export const EDITOR_RULES: StepRuleOptions = { robotExists: isRealRobot };

/** Problems of a steps value, in the service's words and codes. */
export const checkStepsValue = (value: unknown): StepProblem[] => checkSteps(value, EDITOR_RULES);

/** Syntax (with line/column), then the step rules, then the shared schema. */
export const checkStepsText = (text: string): StepsCheck => {
  const parsed = parseJsonWithPosition(text);
  if (!parsed.ok) return { kind: 'syntax', error: parsed.error };
  const local = checkStepsValue(parsed.value);
  if (local.length > 0) return { kind: 'invalid', problems: local };
  const schema = stepsSchema.safeParse(parsed.value);
  if (!schema.success) {
    const problems = schema.error.issues.map((issue): StepProblem => {
      const [step, ...rest] = issue.path.map(String);
      const where = rest.length > 0 ? `"${rest.join('.')}" ` : '';
      return { code: ErrorCode.invalidSteps, message: `Step "${step ?? '?'}": ${where}${issue.message}`, ...(step !== undefined ? { step } : {}), ...(rest[0] ? { parameter: rest[0] } : {}) };
    });
    return { kind: 'invalid', problems };
  }
  return { kind: 'ok', steps: schema.data };
};

export const formatSteps = (steps: Steps): string => JSON.stringify(steps, null, 2);
