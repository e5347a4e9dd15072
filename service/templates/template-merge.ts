import { apiError, type ApiError } from '../http/api-error';
import { INSTRUCTION_LIMITS, valueTooDeep } from '../instructions/instruction-limits';
import { TemplateError } from './template-record';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** lodash `merge` semantics: objects deep, arrays by index; a null or absent request value keeps the Template's. */
function deepMerge(base: unknown, over: unknown): unknown {
  if (over === null || over === undefined) return base;
  if (isObject(base) && isObject(over)) {
    const out: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = deepMerge(base[k], v);
    return out;
  }
  if (Array.isArray(base) && Array.isArray(over)) {
    return Array.from({ length: Math.max(base.length, over.length) }, (_, i) => (i < over.length ? deepMerge(base[i], over[i]) : base[i]));
  }
  return over;
}

/**
 * The params an Assembly runs with when it names a Template (service-facts.md §8 "Template merge"): the
 * request's params deep-merged over the Template's content, unless the Template sets
 * `allow_steps_override: false` and the request brings steps.
 */
export function mergeTemplateParams(content: unknown, params: Record<string, unknown>): { ok: true; params: Record<string, unknown> } | { ok: false; error: ApiError } {
  const template = isObject(content) ? content : {};
  // Content saved before depth was capped could still be deep: the merge and the stored record recurse.
  if (valueTooDeep(template)) {
    return { ok: false, error: apiError(TemplateError.invalidJson, `This Template's content nests deeper than ${INSTRUCTION_LIMITS.jsonDepth} levels: edit it to flatten it.`, 400) };
  }
  const requestSteps = params.steps;
  if (template.allow_steps_override === false && requestSteps !== undefined && requestSteps !== null) {
    return {
      ok: false,
      error: apiError(TemplateError.deniesStepsOverride, 'This Template does not allow its steps to be overridden (allow_steps_override is false): send no steps with it.', 400),
    };
  }
  const { allow_steps_override: _ignored, ...templateParams } = template;
  return { ok: true, params: deepMerge(templateParams, params) as Record<string, unknown> };
}
