// Checks a step's parameters against its robot's list (robot-catalog.ts): a name the robot does not take
// (with the nearest one it does: "heigth" → "height"), a value of the wrong type ("width": "wide"), a value
// outside its set ("resize_strategy": "squash"). Every problem, each with the service's `<ROBOT>_VALIDATION`
// code and its parameter, so an editor marks its line. Pure.

import { robotCodePrefix } from '../known-robots';
import { paramsOfRobot } from './robot-catalog';
import { isLeftAlone } from './param-kinds';

export interface RobotParamProblem {
  readonly code: string;
  /** `Step "resize" (/image/resize): width must be a whole number from 1 to 25000 (got "wide")`. */
  readonly message: string;
  readonly parameter: string;
  /** unknown: a name the robot does not take; type: a value it cannot be; value: a value outside its set or range. */
  readonly kind: 'unknown' | 'type' | 'value';
  /** For an unknown name or a value outside a set: the nearest known one, when one is close. */
  readonly suggestion?: string;
}

export interface RobotParamOptions {
  /** Values are interpolated already (the service, per file): a `${…}` left in them is checked too. */
  readonly interpolated?: boolean;
}

const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

/** Edit distance with adjacent swaps (optimal string alignment): "heigth" is 1 from "height". */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate nearest to `word` (case aside), when it is near enough to be a slip: at most 2 edits, and fewer than a third of its letters. */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(w, name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best || best.distance === 0 && best.name === word) return undefined;
  return best.distance <= Math.min(2, Math.max(1, Math.floor(word.length / 3))) ? best.name : undefined;
}

/**
 * Every problem with the parameters of one step, in key order. A robot the catalog does not list gets
 * none (its names are not known). `robot` and `use` are the step rules' (shared/api/step-rules.ts).
 */
export function checkRobotParams(stepName: string, robot: string, step: Readonly<Record<string, unknown>>, options: RobotParamOptions = {}): RobotParamProblem[] {
  const params = paramsOfRobot(robot);
  if (!params) return [];
  const where = `Step "${stepName}" (${robot})`;
  const code = `${robotCodePrefix(robot)}_VALIDATION`;
  const problems: RobotParamProblem[] = [];
  for (const [name, value] of Object.entries(step)) {
    const kind = Object.prototype.hasOwnProperty.call(params, name) ? params[name] : undefined;
    if (!kind) {
      const suggestion = nearest(name, Object.keys(params));
      const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
      problems.push({ code, kind: 'unknown', parameter: name, message: `${where}: "${name}" is not a parameter of ${robot}.${hint}`, ...(suggestion ? { suggestion } : {}) });
      continue;
    }
    if (isLeftAlone(value, options.interpolated === true) || kind.schema.safeParse(value).success) continue;
    // Of the right type but not in the set (a string where the set is strings): "outside its set".
    const inSetType = (kind.values !== undefined && kind.values.some((v) => typeof v === typeof value)) || (kind.ranged === true && typeof value === 'number');
    const suggestion = inSetType && typeof value === 'string' && kind.values ? nearest(value, kind.values.filter((v): v is string => typeof v === 'string')) : undefined;
    const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
    problems.push({
      code: kind.code ?? code,
      kind: inSetType ? 'value' : 'type',
      parameter: name,
      message: `${where}: ${name} must be ${kind.expects} (got ${show(value)}).${hint}`,
      ...(suggestion ? { suggestion } : {}),
    });
  }
  return problems;
}
