// Checks Assembly instructions before anything runs, with the service's error codes (service-facts §8
// "Step rules", §9). The step rules are shared with the app's editors (shared/api/step-rules.ts); the
// limits and the robot parameters are this service's own. Pure: the HTTP layer turns an error into the
// status record.

import { checkSteps, type StepProblem } from '../../shared/api/step-rules';
import { KNOWN_ROBOTS, isKnownRobot } from './known-robots';
import { INSTRUCTION_LIMITS } from './instruction-limits';
import { validateRobotParams } from './robot-params';

export { INFINITE_MESSAGE, topologicalOrder, usedStepNames } from '../../shared/api/step-rules';

/** A problem, named with its step and the key in it where the service knows them (the editors mark that line). */
export type InstructionError = StepProblem;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const LOCAL_RULES = {
  robotExists: isKnownRobot,
  unknownRobotReason: 'the local service does not support',
  unknownRobotHint: `Supported robots: ${KNOWN_ROBOTS.join(', ')}.`,
};

/** Null when the steps can run; otherwise the first problem, naming the step (and the parameter). */
export function validateInstructions(steps: unknown): InstructionError | null {
  if (isPlainObject(steps) && Object.keys(steps).length > INSTRUCTION_LIMITS.steps) {
    return { code: 'ASSEMBLY_INVALID_STEPS', message: `Your Assembly has ${Object.keys(steps).length} steps; at most ${INSTRUCTION_LIMITS.steps} are allowed.` };
  }
  const [first] = checkSteps(steps, LOCAL_RULES);
  if (first) return first;
  for (const [name, step] of Object.entries(steps as Record<string, Record<string, unknown>>)) {
    const problem = validateRobotParams(name, step.robot as string, step);
    if (problem) return { ...problem, step: name };
  }
  return null;
}

/** `{step, parameter}` of a problem, for the error body (undefined when it names neither). */
export function whereOf(problem: InstructionError): Record<string, string> | undefined {
  const where = { ...(problem.step !== undefined ? { step: problem.step } : {}), ...(problem.parameter !== undefined ? { parameter: problem.parameter } : {}) };
  return Object.keys(where).length > 0 ? where : undefined;
}
