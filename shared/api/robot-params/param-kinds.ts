// What a robot parameter accepts, as a zod schema plus the words that say it ("a whole number from 1 to
// 25000"), so the service's refusal and the editors' marks read the same. Pure: no Node, no DOM.

import { z } from 'zod';

export interface ParamKind {
  /** The values accepted (null and a `${…}` string are accepted before this is asked). */
  readonly schema: z.ZodType;
  /** What the parameter must be, after "must be": `a whole number from 1 to 25000`. */
  readonly expects: string;
  /** A closed set of values: a miss is said as "one of …". */
  readonly values?: readonly (string | number | boolean)[];
  /** A number kind with bounds: a number outside them is "outside its range", not of the wrong type. */
  readonly ranged?: boolean;
  /** How a value is written before it is looked up in `values` (presets: `_` and `-` are one). */
  readonly normalize?: (value: string) => string;
  /** A code of its own instead of `<ROBOT>_VALIDATION` (the service has a few, e.g. VIDEO_THUMBS_INVALID_COUNT_VALUE). */
  readonly code?: string;
}

const kind = (schema: z.ZodType, expects: string, extra: Partial<ParamKind> = {}): ParamKind => ({ schema, expects, ...extra });

/** Whole numbers, also written as strings ("300"), as the service reads them. */
const INT_TEXT = /^\s*[-+]?\d+\s*$/;
const NUM_TEXT = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/;

const range = (min?: number, max?: number): string =>
  min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` of at least ${min}` : max !== undefined ? ` of at most ${max}` : '';

const inRange = (n: number, min?: number, max?: number): boolean => (min === undefined || n >= min) && (max === undefined || n <= max);

/** A whole number (or its text), within `min`..`max` when given. */
export const int = (min?: number, max?: number, extra: Partial<ParamKind> = {}): ParamKind =>
  kind(
    z.union([z.number(), z.string().regex(INT_TEXT)]).refine((v) => {
      const n = Number(v);
      return Number.isInteger(n) && inRange(n, min, max);
    }),
    `a whole number${range(min, max)}`,
    { ranged: true, ...extra },
  );

/** A number (or its text), within `min`..`max` when given. */
export const num = (min?: number, max?: number): ParamKind =>
  kind(
    z.union([z.number(), z.string().regex(NUM_TEXT)]).refine((v) => inRange(Number(v), min, max)),
    `a number${range(min, max)}`,
    { ranged: true },
  );

/** true or false (the text "true"/"false" too: interpolated values arrive as text). */
export const bool = (): ParamKind => kind(z.union([z.boolean(), z.enum(['true', 'false'])]), 'true or false');

export const text = (): ParamKind => kind(z.string(), 'a string');

/** One of a closed set of values. */
export const oneOf = (values: readonly (string | number | boolean)[], extra: Partial<ParamKind> = {}): ParamKind =>
  kind(
    z.unknown().refine((v) => values.includes(typeof v === 'string' && extra.normalize ? extra.normalize(v) : (v as string | number | boolean))),
    `one of ${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`,
    { values, ...extra },
  );

/** A name among many (the vendor's presets): said with a few examples, not the whole list. */
export const named = (values: readonly string[], expects: string, normalize?: (value: string) => string): ParamKind =>
  oneOf(values, { expects, ...(normalize ? { normalize } : {}) });

const COLOR = /^(#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})|[a-z]+)$/i;
/** A colour: hex with or without `#` (3, 4, 6 or 8 digits), or a name such as "transparent". */
export const color = (): ParamKind => kind(z.string().refine((v) => COLOR.test(v.trim())), 'a color such as "#FFFFFF"');

/** A list of values of one kind. */
export const list = (item: ParamKind): ParamKind => kind(z.array(item.schema), `a list whose items are each ${item.expects}`);

/** Any of several kinds; a closed set among them is named as such. */
export const anyOf = (...kinds: ParamKind[]): ParamKind =>
  kinds.length === 1 ? kinds[0]! : kind(z.union(kinds.map((k) => k.schema) as [z.ZodType, z.ZodType, ...z.ZodType[]]), kinds.map((k) => k.expects).join(' or '));

/** Any JSON value: the shape is checked elsewhere (its own rules) or not at all. */
export const json = (): ParamKind => kind(z.unknown(), 'any value');

/** A value the check leaves alone: before interpolation a `${…}` string, and null (the default). */
export const isLeftAlone = (value: unknown, interpolated: boolean): boolean =>
  value === null || value === undefined || (!interpolated && typeof value === 'string' && value.includes('${'));
