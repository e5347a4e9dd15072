// `${…}` Assembly variables (service-facts §8 "Assembly variables"). Only dotted paths are resolved:
// the local service never evaluates JavaScript from instructions, it reports such expressions instead.

export type Scope = Record<string, unknown>;

const EXPRESSION = /\$\{([^}]*)\}/g;
const PATH = /^[A-Za-z_$][\w$]*(?:\.[\w$-]+)*$/;
/** Keys never interpolated (service-facts §8 "Fields common to every robot"). */
export const NEVER_INTERPOLATED = new Set(['robot', 'use', 'interpolate', 'result']);

export const JS_EXPRESSION_MESSAGE = 'JavaScript expressions in ${…} are not supported by the local service; use a plain path such as ${file.meta.width}';

/** The first `${…}` in `text` that is not a plain dotted path, or null. */
export function findUnsupportedExpression(text: string): string | null {
  for (const m of text.matchAll(EXPRESSION)) {
    if (!PATH.test(m[1]!.trim())) return m[0];
  }
  // An opened but unclosed `${` would otherwise pass through as literal text unnoticed.
  const opened = text.split('${').length - 1;
  return opened > [...text.matchAll(EXPRESSION)].length ? text : null;
}

/** Every string inside `value` (deeply) that holds an unsupported expression, with its key path. */
export function findUnsupportedInParams(params: Record<string, unknown>, skip: ReadonlySet<string> = NEVER_INTERPOLATED): { key: string; expression: string } | null {
  const walk = (v: unknown, key: string): { key: string; expression: string } | null => {
    if (typeof v === 'string') {
      const bad = findUnsupportedExpression(v);
      return bad ? { key, expression: bad } : null;
    }
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) {
        const hit = walk(item, `${key}[${i}]`);
        if (hit) return hit;
      }
      return null;
    }
    if (typeof v === 'object' && v !== null) {
      for (const [k, item] of Object.entries(v)) {
        const hit = walk(item, key ? `${key}.${k}` : k);
        if (hit) return hit;
      }
    }
    return null;
  };
  for (const [k, v] of Object.entries(params)) {
    if (skip.has(k)) continue;
    const hit = walk(v, k);
    if (hit) return hit;
  }
  return null;
}

/** Looks a dotted path up in the scope; undefined when any part is missing. */
export function lookupPath(scope: Scope, path: string): unknown {
  let cur: unknown = scope;
  for (const part of path.trim().split('.')) {
    if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const asText = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/**
 * Interpolates one string. A string that is exactly one `${path}` keeps the value's own type (so
 * `${file.size}` stays a number); otherwise values are joined as text. Missing values become "".
 */
export function interpolateString(text: string, scope: Scope): unknown {
  const whole = /^\$\{([^}]*)\}$/.exec(text);
  if (whole && PATH.test(whole[1]!.trim())) {
    const v = lookupPath(scope, whole[1]!);
    return v === undefined || v === null ? '' : v;
  }
  return text.replace(EXPRESSION, (all, expr: string) => (PATH.test(expr.trim()) ? asText(lookupPath(scope, expr)) : all));
}

/** Interpolates every string inside a value. */
export function interpolateDeep(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return value.includes('${') ? interpolateString(value, scope) : value;
  if (Array.isArray(value)) return value.map((v) => interpolateDeep(v, scope));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateDeep(v, scope)]));
  }
  return value;
}

/**
 * Interpolates a step's parameters, honouring `interpolate: false` (all off) and a per-key
 * `interpolate: { key: false }` record. Keys in `skip` are left as they are.
 */
export function interpolateParams(params: Record<string, unknown>, scope: Scope, skip: ReadonlySet<string> = NEVER_INTERPOLATED): Record<string, unknown> {
  const setting = params.interpolate;
  if (setting === false) return { ...params };
  const perKey = typeof setting === 'object' && setting !== null ? (setting as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, skip.has(k) || perKey[k] === false ? v : interpolateDeep(v, scope)]),
  );
}
