import { ErrorCode } from '../../../shared/api/codes';
import { stepsSchema, type Steps } from '../../../shared/api/instructions';
import { isRealRobot } from '../../../shared/api/known-robots';
import { checkSteps, type StepProblem, type StepRuleOptions } from '../../../shared/api/step-rules';
import { lineOfPath, parseJsonWithPosition, type JsonSyntaxError } from './json-position';

export type { StepProblem } from '../../../shared/api/step-rules';

export type StepsCheck =
  | { readonly kind: 'ok'; readonly steps: Steps }
  | { readonly kind: 'syntax'; readonly error: JsonSyntaxError }
  | { readonly kind: 'invalid'; readonly problems: readonly StepProblem[] };

/**
 * The service's step rules (shared/api/step-rules.ts, the same code the local service runs), with every
 * robot the real service has: a workspace may be a remote deployment. Each listed robot's parameters are
 * checked too (shared/api/robot-params/); what only the local service cannot run, it says itself.
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

/** A problem placed at its line of the custom steps text (1-based), for the editor's gutter and list. */
export interface StepsMarker {
  readonly line: number;
  readonly column?: number;
  readonly message: string;
}

/**
 * The line of a problem in custom steps, where the steps are the document's top level (a Template's are
 * under "steps": template-checks.ts): its parameter, else its step, else line 1.
 */
export const lineOfStepProblem = (text: string, where: { readonly step?: string | undefined; readonly parameter?: string | undefined; readonly path?: readonly string[] | undefined }): number =>
  where.step === undefined ? 1 : (lineOfPath(text, [where.step, ...(where.parameter !== undefined ? [where.parameter, ...(where.path ?? [])] : [])]) ?? 1);

/** What the steps editor marks: the syntax error at its line and column, or each problem at its line. */
export const stepsMarkers = (text: string, check: StepsCheck): StepsMarker[] => {
  if (check.kind === 'syntax') return [{ line: check.error.line, column: check.error.column, message: check.error.message }];
  if (check.kind === 'invalid') return check.problems.map((p) => ({ line: lineOfStepProblem(text, p), message: `${p.message} (${p.code})` }));
  return [];
};

