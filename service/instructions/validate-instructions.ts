// Checks Assembly instructions before anything runs, with the service's error codes (service-facts §8
// "Step rules", §9). Pure: the HTTP layer turns an error into the status record.

import { KNOWN_ROBOTS, ORIGINAL_STEP, isKnownRobot, robotTakesNoUse } from './known-robots';
import { INSTRUCTION_LIMITS } from './instruction-limits';
import { validateRobotParams } from './robot-params';
import { parseUse } from './use-spec';

export interface InstructionError {
  code: string;
  message: string;
  step?: string;
}

type StepMap = Record<string, Record<string, unknown>>;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const INFINITE_MESSAGE = 'Your Assembly appears to be infinite, the "use" parameters form a loop.';

/** Names of the steps a step uses (empty when `use` is absent or malformed). */
export function usedStepNames(step: { use?: unknown }): string[] {
  const parsed = parseUse(step.use);
  return parsed.ok ? [...new Set(parsed.use.refs.map((r) => r.name))] : [];
}

/**
 * Step names in `use`-graph order: every step after the steps it uses; ties keep key order.
 * `:original` comes first when referenced even if not declared (it is implicit). Returns the
 * loop instead when there is one. Depth-first with an explicit stack, so a chain of any length
 * cannot overflow the call stack.
 */
export function topologicalOrder(steps: Record<string, { use?: unknown }>): { order: string[] } | { loop: string[] } {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const has = (name: string): boolean => Object.prototype.hasOwnProperty.call(steps, name);
  const depsOf = (name: string): string[] => {
    const step = has(name) ? steps[name] : undefined;
    return (step ? usedStepNames(step) : []).filter((dep) => has(dep) || dep === ORIGINAL_STEP);
  };
  for (const root of Object.keys(steps)) {
    if (state.get(root) === 'done') continue;
    // One frame per step on the current path: its name, its deps and how many were visited.
    const path: { name: string; deps: string[]; next: number }[] = [{ name: root, deps: depsOf(root), next: 0 }];
    state.set(root, 'visiting');
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      if (top.next === top.deps.length) {
        path.pop();
        state.set(top.name, 'done');
        order.push(top.name);
        continue;
      }
      const dep = top.deps[top.next++]!;
      const seen = state.get(dep);
      if (seen === 'done') continue;
      if (seen === 'visiting') {
        const names = path.map((f) => f.name);
        return { loop: [...names.slice(names.indexOf(dep)), dep] };
      }
      state.set(dep, 'visiting');
      path.push({ name: dep, deps: depsOf(dep), next: 0 });
    }
  }
  return { order };
}

const checkStep = (name: string, step: unknown, all: StepMap): InstructionError | null => {
  const err = (code: string, message: string): InstructionError => ({ code, message, step: name });
  if (name.trim() === '') return err('INVALID_STEP_NAME', 'A step name is empty; give every step a name.');
  if (!isPlainObject(step)) {
    return err('ASSEMBLY_STEP_NO_ROBOT', `Step "${name}" must be an object with a "robot" (got ${JSON.stringify(step)}).`);
  }
  const robot = step.robot;
  if (robot === undefined || robot === null || robot === '') return err('ASSEMBLY_STEP_NO_ROBOT', `Step "${name}" has no "robot".`);
  if (typeof robot !== 'string') {
    return err('ASSEMBLY_STEP_INVALID_ROBOT', `Step "${name}" has an invalid "robot" ${JSON.stringify(robot)}; it must be a string such as "/image/resize".`);
  }
  if (!isKnownRobot(robot)) {
    const hint = isKnownRobot(`/${robot}`) ? ` Did you mean "/${robot}"?` : '';
    return err(
      'ASSEMBLY_STEP_UNKNOWN_ROBOT',
      `Step "${name}" uses the robot "${robot}", which the local service does not support.${hint} Supported robots: ${KNOWN_ROBOTS.join(', ')}.`,
    );
  }
  if (robot === '/upload/handle' && name !== ORIGINAL_STEP) {
    return err('INVALID_UPLOAD_HANDLE_STEP_NAME', `Step "${name}" uses /upload/handle, so it must be named ":original".`);
  }
  if (name === ORIGINAL_STEP && robot !== '/upload/handle') {
    return err('INVALID_STEP_NAME', `The step name ":original" is reserved for /upload/handle, but it uses "${robot}".`);
  }
  if (robotTakesNoUse(robot)) {
    return step.use === undefined ? null : err('ASSEMBLY_STEP_INVALID_USE', `Step "${name}" (${robot}) takes no "use"; remove it.`);
  }
  if (step.use === undefined || step.use === null) {
    return err('ASSEMBLY_STEP_INVALID_USE', `Step "${name}" (${robot}) needs a "use" naming its input step, for example ":original".`);
  }
  const parsed = parseUse(step.use);
  if (!parsed.ok) return err('ASSEMBLY_STEP_INVALID_USE', `Step "${name}" has an invalid "use": ${parsed.message}.`);
  if (parsed.use.refs.length === 0) return err('ASSEMBLY_STEP_INVALID_USE', `Step "${name}" has a "use" that names no step.`);
  for (const ref of parsed.use.refs) {
    if (ref.name === name) return err('ASSEMBLY_INFINITE', `${INFINITE_MESSAGE} Step "${name}" uses itself.`);
    if (ref.name !== ORIGINAL_STEP && !Object.prototype.hasOwnProperty.call(all, ref.name)) {
      return err('ASSEMBLY_STEP_UNKNOWN_USE', `Step "${name}" uses "${ref.name}", but there is no step of that name.`);
    }
  }
  return null;
};

/** Null when the steps can run; otherwise the first problem, naming the step. */
export function validateInstructions(steps: unknown): InstructionError | null {
  if (steps === undefined || steps === null) {
    return { code: 'ASSEMBLY_NO_STEPS', message: 'Your Assembly has no {steps: …} parameter; give steps or a template_id.' };
  }
  if (!isPlainObject(steps)) {
    return { code: 'ASSEMBLY_INVALID_STEPS', message: `Your Assembly {steps: …} parameter is a non-object value (got ${Array.isArray(steps) ? 'an array' : typeof steps}).` };
  }
  const count = Object.keys(steps).length;
  if (count === 0) return { code: 'ASSEMBLY_EMPTY_STEPS', message: 'Your Assembly {steps: …} parameter is empty.' };
  if (count > INSTRUCTION_LIMITS.steps) {
    return { code: 'ASSEMBLY_INVALID_STEPS', message: `Your Assembly has ${count} steps; at most ${INSTRUCTION_LIMITS.steps} are allowed.` };
  }
  const all = steps as StepMap;
  for (const [name, step] of Object.entries(all)) {
    const problem = checkStep(name, step, all);
    if (problem) return problem;
  }
  const graph = topologicalOrder(all);
  if ('loop' in graph) {
    return { code: 'ASSEMBLY_INFINITE', message: `${INFINITE_MESSAGE} Loop: ${graph.loop.join(' → ')}.`, step: graph.loop[0] };
  }
  for (const [name, step] of Object.entries(all)) {
    const problem = validateRobotParams(name, step.robot as string, step);
    if (problem) return { ...problem, step: name };
  }
  return null;
}
