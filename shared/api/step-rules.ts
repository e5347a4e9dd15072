// The step rules of the service (service-facts.md §8 "Step rules", §9), in one place: the local service
// refuses instructions with them and the app's editors check as the user types with them, so both name the
// same problem with the same code and message. Pure: no Node, no DOM.

import { ErrorCode } from './codes';
import { ORIGINAL_STEP, robotCodePrefix, robotNeedsNoInput, robotTakesNoUse } from './known-robots';
import { mcpServersProblem } from './mcp-servers';
import { checkRobotParams } from './robot-params/check-robot-params';
import { isSmartCdnTemplate, smartCdnProblems } from './smart-cdn-rules';
import { stackVersionProblem } from './stack-version';
import { parseUse } from './use-spec';

/** One problem with the steps (or a Template's content), with the service's code and where it is. */
export interface StepProblem {
  readonly code: string;
  readonly message: string;
  /** The step it is in, when it is in one. */
  readonly step?: string;
  /** The key inside the step (`robot`, `use`, `width`…), or a top-level key of a Template's content. */
  readonly parameter?: string;
  /** Where inside the parameter (list indexes and keys, e.g. `["0", "url"]`), so an editor marks that very line. */
  readonly path?: readonly string[];
}

export interface StepRuleOptions {
  /**
   * Robots that may be named. The local service passes the robots it runs; the app's editors pass every
   * robot the real service has (a workspace may be a remote deployment).
   */
  readonly robotExists: (robot: string) => boolean;
  /** Why an unknown robot is refused ("does not exist" by default). */
  readonly unknownRobotReason?: string;
  /** Appended to the unknown-robot message, e.g. the list of robots the local service runs. */
  readonly unknownRobotHint?: string;
}

/** Each parameter of a well-formed step against its robot's list (robot-params/): every problem, not the first. */
const paramProblems = (name: string, step: unknown): StepProblem[] => {
  if (!isPlainObject(step) || typeof step.robot !== 'string') return [];
  return checkRobotParams(name, step.robot, step).map((p) => ({ code: p.code, message: p.message, step: name, parameter: p.parameter }));
};

export const INFINITE_MESSAGE = 'Your Assembly appears to be infinite, the "use" parameters form a loop.';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

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
export function topologicalOrder(steps: Record<string, unknown>): { order: string[] } | { loop: string[] } {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const depsOf = (name: string): string[] => {
    const step = has(steps, name) ? steps[name] : undefined;
    return (isPlainObject(step) ? usedStepNames(step) : []).filter((dep) => has(steps, dep) || dep === ORIGINAL_STEP);
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

/** The first problem of one step, or null. */
const checkStep = (name: string, step: unknown, all: Record<string, unknown>, options: StepRuleOptions): StepProblem | null => {
  const err = (code: string, message: string, parameter?: string, path?: readonly string[]): StepProblem => ({ code, message, step: name, ...(parameter ? { parameter } : {}), ...(path?.length ? { path } : {}) });
  if (name.trim() === '') return err(ErrorCode.invalidStepName, 'A step name is empty; give every step a name.');
  if (!isPlainObject(step)) {
    return err(ErrorCode.stepNoRobot, `Step "${name}" must be an object with a "robot" (got ${JSON.stringify(step)}).`);
  }
  const robot = step.robot;
  if (robot === undefined || robot === null || robot === '') return err(ErrorCode.stepNoRobot, `Step "${name}" has no "robot", e.g. "/image/resize".`);
  if (typeof robot !== 'string') {
    return err('ASSEMBLY_STEP_INVALID_ROBOT', `Step "${name}" has an invalid "robot" ${JSON.stringify(robot)}; it must be a string such as "/image/resize".`, 'robot');
  }
  if (!options.robotExists(robot)) {
    const didYouMean = !robot.startsWith('/') && options.robotExists(`/${robot}`) ? ` Did you mean "/${robot}"?` : '';
    const hint = options.unknownRobotHint ? ` ${options.unknownRobotHint}` : '';
    return err(ErrorCode.unknownRobot, `Step "${name}" uses the robot "${robot}", which ${options.unknownRobotReason ?? 'does not exist'}.${didYouMean}${hint}`, 'robot');
  }
  if (robot === '/upload/handle' && name !== ORIGINAL_STEP) {
    return err(ErrorCode.invalidUploadHandleStepName, `Step "${name}" uses /upload/handle, so it must be named ":original".`, 'robot');
  }
  if (name === ORIGINAL_STEP && robot !== '/upload/handle') {
    return err(ErrorCode.invalidStepName, `The step name ":original" is reserved for /upload/handle, but it uses "${robot}".`, 'robot');
  }
  const stack = stackVersionProblem(step, (v) => typeof v === 'string' && v.includes('${'));
  if (robotTakesNoUse(robot)) {
    if (step.use !== undefined) return err(ErrorCode.invalidUse, `Step "${name}" (${robot}) takes no "use"; remove it.`, 'use');
    return stack ? err(`${robotCodePrefix(robot)}_VALIDATION`, `Step "${name}" (${robot}): ${stack.problem}.`, stack.parameter) : null;
  }
  if (step.use === undefined || step.use === null) {
    if (robotNeedsNoInput(robot, step)) return stack ? err(`${robotCodePrefix(robot)}_VALIDATION`, `Step "${name}" (${robot}): ${stack.problem}.`, stack.parameter) : null;
    return err(ErrorCode.invalidUse, `Step "${name}" (${robot}) needs a "use" naming its input step, for example ":original".`, 'robot');
  }
  const parsed = parseUse(step.use);
  if (!parsed.ok) return err(ErrorCode.invalidUse, `Step "${name}" has an invalid "use": ${parsed.message}.`, 'use');
  if (parsed.use.refs.length === 0) return err(ErrorCode.invalidUse, `Step "${name}" has a "use" that names no step.`, 'use');
  for (const ref of parsed.use.refs) {
    if (ref.name === name) return err(ErrorCode.infinite, `${INFINITE_MESSAGE} Step "${name}" uses itself.`, 'use');
    // `:original` may be used without being declared: it is then an implicit /upload/handle step.
    if (ref.name !== ORIGINAL_STEP && !has(all, ref.name)) {
      return err(ErrorCode.unknownUse, `Step "${name}" uses "${ref.name}", but there is no step of that name.`, 'use');
    }
  }
  // The encoding stack version, exactly as the spec lists them (shared/api/stack-version.ts).
  if (stack) return err(`${robotCodePrefix(robot)}_VALIDATION`, `Step "${name}" (${robot}): ${stack.problem}.`, stack.parameter);
  // Tool servers of chat steps, each rule with its own code (shared/api/mcp-servers.ts).
  const mcp = mcpServersProblem(step, (v) => typeof v === 'string' && v.includes('${'));
  if (mcp) return err(mcp.code, `Step "${name}" (${robot}): ${mcp.problem}.`, mcp.parameter, mcp.path);
  return null;
};

/**
 * Every problem of a steps value: the shape of the whole first, then per step (in key order) its first
 * structural problem or else every parameter problem (a name its robot does not take, a wrong type, a value
 * outside its set), then a `use` loop. The local service answers with the first; the editors mark them all.
 */
export function checkSteps(steps: unknown, options: StepRuleOptions): StepProblem[] {
  if (steps === undefined || steps === null) {
    return [{ code: ErrorCode.noSteps, message: 'Your Assembly has no {steps: …} parameter; give steps or a template_id.' }];
  }
  if (!isPlainObject(steps)) {
    return [{ code: ErrorCode.invalidSteps, message: `Your Assembly {steps: …} parameter is a non-object value (got ${Array.isArray(steps) ? 'an array' : typeof steps}).` }];
  }
  if (Object.keys(steps).length === 0) return [{ code: ErrorCode.emptySteps, message: 'Your Assembly {steps: …} parameter is empty.' }];
  const problems: StepProblem[] = [];
  for (const [name, step] of Object.entries(steps)) {
    const problem = checkStep(name, step, steps, options);
    if (problem) problems.push(problem);
    else problems.push(...paramProblems(name, step));
  }
  const graph = topologicalOrder(steps);
  if ('loop' in graph && !problems.some((p) => p.code === ErrorCode.infinite)) {
    problems.push({ code: ErrorCode.infinite, message: `${INFINITE_MESSAGE} Loop: ${graph.loop.join(' → ')}.`, step: graph.loop[0]!, parameter: 'use' });
  }
  return problems;
}

/**
 * The Smart CDN's rules (shared/api/smart-cdn-rules.ts) for a Template with a `/file/serve` step, under
 * the linter's rule names as codes (`smart-cdn-robot-not-allowed`, `smart-cdn-max-steps-exceeded`).
 * A step that already has a problem is not marked twice.
 */
export function smartCdnLint(steps: unknown, already: readonly StepProblem[] = []): StepProblem[] {
  if (!isSmartCdnTemplate(steps)) return [];
  const marked = new Set(already.map((p) => p.step));
  return smartCdnProblems(steps)
    .filter((p) => p.rule === 'smart-cdn-max-steps-exceeded' || !marked.has(p.step))
    .map((p) => ({ code: p.rule, message: `${p.message} (A /file/serve step makes this a Smart CDN Template.)`, step: p.step, ...(p.parameter ? { parameter: p.parameter } : {}) }));
}

/**
 * A Template's content (service-facts.md §10): any JSON value; when it is an object, `steps` (if there)
 * follow the step rules (and the Smart CDN's, when a step is /file/serve) and `allow_steps_override` is a
 * boolean.
 */
export function checkTemplateContent(content: unknown, options: StepRuleOptions): StepProblem[] {
  if (!isPlainObject(content)) return [];
  const problems: StepProblem[] = [];
  if ('steps' in content) {
    const stepProblems = checkSteps(content.steps, options);
    problems.push(...stepProblems, ...smartCdnLint(content.steps, stepProblems));
  }
  if ('allow_steps_override' in content && typeof content.allow_steps_override !== 'boolean') {
    problems.push({ code: 'INVALID_TEMPLATE_FIELD', message: 'allow_steps_override must be true or false.', parameter: 'allow_steps_override' });
  }
  return problems;
}
