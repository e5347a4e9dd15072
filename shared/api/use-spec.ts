// Parses every accepted form of a step's `use` (service-facts §8 "use syntax") into one shape.

export interface UseRef {
  name: string;
  as?: string;
  /** Only input files whose upload field is one of these. */
  fields?: string[];
}

export interface UseSpec {
  refs: UseRef[];
  bundleSteps: boolean;
  groupByOriginal: boolean;
  /** Object-form filter on the upload field of every input; null = no filter. */
  fields: string[] | null;
}

export type ParsedUse = { ok: true; use: UseSpec } | { ok: false; message: string };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const parseFields = (v: unknown): string[] | null | 'invalid' => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((f) => typeof f === 'string')) return v as string[];
  return 'invalid';
};

const parseRefs = (v: unknown): UseRef[] | string => {
  if (typeof v === 'string') return v === '' ? 'a step name in "use" is empty' : [{ name: v }];
  if (!Array.isArray(v)) return '"use" must be a step name, an array of step names or objects, or an object with "steps"';
  if (v.length === 0) return '"use" is an empty array; name at least one step';
  const refs: UseRef[] = [];
  for (const item of v) {
    if (typeof item === 'string') {
      if (item === '') return 'a step name in "use" is empty';
      refs.push({ name: item });
      continue;
    }
    if (!isPlainObject(item) || typeof item.name !== 'string' || item.name === '') {
      return 'each entry of a "use" array must be a step name or an object with a non-empty "name"';
    }
    if (item.as !== undefined && typeof item.as !== 'string') return `"as" for "${item.name}" must be a string`;
    const fields = parseFields(item.fields);
    if (fields === 'invalid') return `"fields" for "${item.name}" must be a string or an array of strings`;
    refs.push({ name: item.name, ...(item.as !== undefined ? { as: item.as as string } : {}), ...(fields ? { fields } : {}) });
  }
  return refs;
};

/** `undefined` parses to no inputs; callers decide whether the robot needs some. */
export function parseUse(use: unknown): ParsedUse {
  const base = { bundleSteps: false, groupByOriginal: false, fields: null };
  if (use === undefined) return { ok: true, use: { refs: [], ...base } };
  if (isPlainObject(use)) {
    const refs = parseRefs(use.steps);
    if (typeof refs === 'string') return { ok: false, message: `in the object form, "steps": ${refs}` };
    for (const key of ['bundle_steps', 'group_by_original'] as const) {
      if (use[key] !== undefined && typeof use[key] !== 'boolean') return { ok: false, message: `"${key}" must be true or false` };
    }
    const fields = parseFields(use.fields);
    if (fields === 'invalid') return { ok: false, message: '"fields" must be a string or an array of strings' };
    return {
      ok: true,
      use: { refs, bundleSteps: use.bundle_steps === true, groupByOriginal: use.group_by_original === true, fields },
    };
  }
  const refs = parseRefs(use);
  return typeof refs === 'string' ? { ok: false, message: refs } : { ok: true, use: { refs, ...base } };
}
