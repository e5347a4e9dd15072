/**
 * Whether a form's values differ from the ones it opened with: Escape closes a form at once when
 * nothing changed, and asks before throwing typed changes away. Values are plain data (strings,
 * booleans, arrays of strings, small records), compared by content; key order in records does not count.
 */
export type FormValue = string | number | boolean | null | undefined | readonly FormValue[] | { readonly [key: string]: FormValue };

const same = (a: FormValue, b: FormValue): boolean => {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => same(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ra = a as { readonly [key: string]: FormValue };
    const rb = b as { readonly [key: string]: FormValue };
    // A field left empty is the same as a field never shown.
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    return [...keys].every((k) => same(ra[k] ?? '', rb[k] ?? ''));
  }
  return false;
};

export const isDirty = (initial: { readonly [key: string]: FormValue }, current: { readonly [key: string]: FormValue }): boolean => !same(initial, current);
