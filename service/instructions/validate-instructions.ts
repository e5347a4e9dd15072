// Checks Assembly instructions before anything runs, with the service's error codes (service-facts §8
// "Step rules", §9). The step rules are shared with the app's editors (shared/api/step-rules.ts); the
// limits and the robot parameters are this service's own. Pure: the HTTP layer turns an error into the
// status record.

import { checkSteps, type StepProblem } from '../../shared/api/step-rules';
import { KNOWN_ROBOTS, MODELS_NOT_OFFERED, MODEL_SERVER_ROBOTS, isKnownRobot, robotCodePrefix } from './known-robots';
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

/** Where the model server is set, said to whoever configures it (the app or `npm run service`). */
export const MODEL_SERVER_SETTING = 'the model server of /ai/chat: in the app, Workspaces → Chat model (local service); for `npm run service`, --chat-endpoint <url> (or ASSEMBLYLINE_CHAT_ENDPOINT), an OpenAI-compatible API such as http://127.0.0.1:11434/v1';

/** What the service can reach when it checks a step: `modelServer` false refuses the robots that need one. */
export interface ValidationContext {
  modelServer?: boolean;
}

/** A step naming a robot that needs a model the service cannot reach, or null (pure). */
export function modelProblem(name: string, robot: string, context: ValidationContext): InstructionError | null {
  const needs = MODELS_NOT_OFFERED[robot];
  if (needs) {
    return { code: `${robotCodePrefix(robot)}_MODEL_NOT_OFFERED`, step: name, parameter: 'robot', message: `Step "${name}" (${robot}) needs ${needs}. The local service reaches models only through an OpenAI-compatible model server (${MODEL_SERVER_SETTING}), and that API has no request for this: run this step on the hosted service.` };
  }
  if (context.modelServer === false && MODEL_SERVER_ROBOTS.includes(robot)) {
    return { code: `${robotCodePrefix(robot)}_NOT_CONFIGURED`, step: name, parameter: 'robot', message: `Step "${name}" (${robot}) needs a model server, and none is configured. Set ${MODEL_SERVER_SETTING}.` };
  }
  return null;
}

/**
 * Null when the steps can run; otherwise the first problem, naming the step (and the parameter). Without
 * a context (a Template being saved) robots that need a model server pass: it may be set before they run.
 */
export function validateInstructions(steps: unknown, context: ValidationContext = {}): InstructionError | null {
  if (isPlainObject(steps) && Object.keys(steps).length > INSTRUCTION_LIMITS.steps) {
    return { code: 'ASSEMBLY_INVALID_STEPS', message: `Your Assembly has ${Object.keys(steps).length} steps; at most ${INSTRUCTION_LIMITS.steps} are allowed.` };
  }
  const [first] = checkSteps(steps, LOCAL_RULES);
  if (first?.code === 'ASSEMBLY_STEP_UNKNOWN_ROBOT' && first.step !== undefined) {
    const robot = (steps as Record<string, { robot?: unknown }>)[first.step]?.robot;
    const needsModel = typeof robot === 'string' ? modelProblem(first.step, robot, context) : null;
    if (needsModel) return needsModel;
  }
  if (first) return first;
  for (const [name, step] of Object.entries(steps as Record<string, Record<string, unknown>>)) {
    const needsModel = modelProblem(name, step.robot as string, context);
    if (needsModel) return needsModel;
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
