import type { Instructions } from '../../../shared/api/instructions';
import { isKnownRobot, isRealRobot, KNOWN_ROBOTS } from '../../../shared/api/known-robots';
import { checkSteps, type StepRuleOptions } from '../../../shared/api/step-rules';
import type { AppError } from '../../../shared/result';

/** The embedded service runs these robots only, and says so as it would at creation. */
const EMBEDDED_RULES: StepRuleOptions = {
  robotExists: isKnownRobot,
  unknownRobotReason: 'the local service does not support',
  unknownRobotHint: `Supported robots: ${KNOWN_ROBOTS.join(', ')}.`,
};
const ANY_DEPLOYMENT: StepRuleOptions = { robotExists: isRealRobot };

/**
 * What Start would be refused for, known before the draft is handed over: the steps (the request's own,
 * over the Template's, as the service merges them) broken by the service's step and robot-parameter rules
 * (shared/api/step-rules.ts, the checker the service and the editors run). Null when they may run. For the
 * embedded service (`embedded`) the robots it runs; for any other deployment every robot the real service
 * has (it judges the rest itself). Pure.
 */
export function startProblem(instructions: Instructions, templateSteps: Record<string, unknown> | null, embedded = false): AppError | null {
  const own = instructions.steps as Record<string, unknown> | undefined;
  if (!own && !instructions.template_id) return null;
  const steps = instructions.template_id ? { ...(templateSteps ?? {}), ...(own ?? {}) } : own;
  // A Template whose steps the app could not read is judged by the service alone.
  if (instructions.template_id && templateSteps === null && !own) return null;
  const [first] = checkSteps(steps, embedded ? EMBEDDED_RULES : ANY_DEPLOYMENT);
  if (!first) return null;
  const where = { ...(first.step !== undefined ? { step: first.step } : {}), ...(first.parameter !== undefined ? { parameter: first.parameter } : {}) };
  const from = instructions.template_id && !(own && first.step !== undefined && first.step in own) ? ' (in the Template)' : '';
  return { code: first.code, message: `${first.message}${from}`, ...(Object.keys(where).length > 0 ? { details: where } : {}) };
}
