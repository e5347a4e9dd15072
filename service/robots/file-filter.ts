// /file/filter decisions (service-facts §8): pure functions over `[left, operator, right]` triples with
// `${…}` paths resolved from the file's scope. JavaScript expressions are refused at validation time.

import { toNumeric } from '../instructions/byte-size';
import { interpolateString, type Scope } from '../instructions/interpolation';
import { filterRegexMatches } from '../regex/filter-regex';

const resolve = (v: unknown, scope: Scope): unknown => (typeof v === 'string' && v.includes('${') ? interpolateString(v, scope) : v);

const text = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** `==`: numbers (and byte sizes) compare as numbers, everything else as text. */
export function looseEqual(a: unknown, b: unknown): boolean {
  const na = toNumeric(a);
  const nb = toNumeric(b);
  if (na !== null && nb !== null) return na === nb;
  return text(a) === text(b);
}

/** `===`: same type and value; a resolved number still equals a JSON number. */
export const strictEqual = (a: unknown, b: unknown): boolean => a === b;

function compare(a: unknown, b: unknown, op: '<' | '>' | '<=' | '>='): boolean {
  const na = toNumeric(a);
  const nb = toNumeric(b);
  const [x, y]: [number | string, number | string] = na !== null && nb !== null ? [na, nb] : [text(a), text(b)];
  if (na === null !== (nb === null)) return false; // a number against text has no order
  switch (op) {
    case '<': return x < y;
    case '>': return x > y;
    case '<=': return x <= y;
    case '>=': return x >= y;
  }
}

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

function includes(left: unknown, right: unknown): boolean {
  if (Array.isArray(left)) return left.some((item) => looseEqual(item, right));
  if (typeof left === 'object' && left !== null) return Object.prototype.hasOwnProperty.call(left, text(right));
  return text(left).includes(text(right));
}

/** Evaluates one condition; throws on an unknown operator or a bad regular expression. */
export function evaluateCondition(condition: readonly unknown[], scope: Scope): boolean {
  const [rawLeft, op, rawRight] = condition;
  const left = resolve(rawLeft, scope);
  const right = resolve(rawRight, scope);
  switch (op) {
    case '=':
    case '==': return looseEqual(left, right);
    case '===': return strictEqual(left, right);
    case '!=': return !looseEqual(left, right);
    case '!==': return !strictEqual(left, right);
    case '<':
    case '>':
    case '<=':
    case '>=': return compare(left, right, op);
    case 'regex': return filterRegexMatches(text(right), text(left));
    case '!regex': return !filterRegexMatches(text(right), text(left));
    case 'includes': return includes(left, right);
    case '!includes': return !includes(left, right);
    case 'empty': return isEmpty(left);
    case '!empty': return !isEmpty(left);
    default: throw new Error(`unknown operator ${JSON.stringify(op)}`);
  }
}

/** A list of conditions combined with `or`/`and`; an empty list matches nothing. A `${path}` string is its truthiness. */
export function matchesConditions(conditions: unknown, scope: Scope, conditionType: 'or' | 'and'): boolean {
  if (typeof conditions === 'string') {
    const v = interpolateString(conditions, scope);
    return Boolean(v) && v !== 'false' && v !== '0';
  }
  if (!Array.isArray(conditions) || conditions.length === 0) return false;
  const results = conditions.map((c) => evaluateCondition(c as unknown[], scope));
  return conditionType === 'and' ? results.every(Boolean) : results.some(Boolean);
}

/** accepts before declines; `accepts` null/absent accepts all, declines null/absent declines none. */
export function isAccepted(params: Record<string, unknown>, scope: Scope): boolean {
  const conditionType = params.condition_type === 'and' ? 'and' : 'or';
  const accepts = params.accepts;
  const accepted = accepts === undefined || accepts === null ? true : matchesConditions(accepts, scope, conditionType);
  if (!accepted) return false;
  const declines = params.declines;
  return declines === undefined || declines === null ? true : !matchesConditions(declines, scope, conditionType);
}
