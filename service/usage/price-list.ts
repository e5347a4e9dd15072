import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Robot names as the API spells them: "/image/resize"; "/assemblies" prices upload bytes. */
const robotName = z.string().regex(/^\/[a-z0-9_-]+(\/[a-z0-9_-]+)?$/, 'a robot name like "/image/resize"');
const amount = z.number().finite().nonnegative();

const planSchema = z.strictObject({
  id: z.string().min(1),
  price_per_month: amount,
  gb_included: amount,
  price_per_gb: amount,
  /** GB a month (or a lifetime with has_lifetime_limit); null = no limit. */
  gb_limit: amount.nullable(),
  has_lifetime_limit: z.boolean(),
});

const customerSchema = z.strictObject({
  to: z.string(),
  email: z.string(),
  company: z.string(),
  address_1: z.string(),
  address_2: z.string(),
  zip: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  vat_id: z.string(),
  reverse_charge_vat: z.boolean(),
});

/** The operator's price list (docs/local-service.md "Metering and the bill"); every key but `plan` has a default. */
export const priceListSchema = z.strictObject({
  plan: planSchema,
  /** GB of a robot's input count × its factor (default `default_factor`). */
  robot_factors: z.record(robotName, amount).default({}),
  default_factor: amount.default(1),
  /** GB a month that are free per robot, taken before the factor. */
  free_gb: z.record(robotName, amount).default({}),
  vat_rate: amount.max(1).default(0),
  /** Money a month above which the real service stops (BILL_LIMIT_EXCEEDED); shown only here. */
  bill_limit: amount.nullable().default(null),
  customer: customerSchema.partial().default({}),
});

export type PriceList = z.infer<typeof priceListSchema>;

/** With no price list: a free plan with a generous limit, so local use never costs or stops. */
export const FREE_PRICE_LIST: PriceList = priceListSchema.parse({
  plan: { id: 'free', price_per_month: 0, gb_included: 10_000, price_per_gb: 0, gb_limit: 10_000, has_lifetime_limit: false },
});

export type PricingCode = 'NO_PRICING' | 'BAD_PRICING' | 'INCOMPLETE_PRICING';

export class PricingError extends Error {
  constructor(
    readonly code: PricingCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

const at = (path: readonly PropertyKey[]): string => (path.length === 0 ? '(top level)' : path.map(String).join('.'));

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const key of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

/**
 * Parses a price list; a missing required key is INCOMPLETE_PRICING, any other problem BAD_PRICING, and
 * the message names the key. Pure.
 */
export function parsePriceList(text: string, source: string): PriceList {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new PricingError('BAD_PRICING', `${source} is not JSON: ${(e as Error).message}`);
  }
  const parsed = priceListSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const path = at([...issue.path, issue.keys[0] ?? '']);
    throw new PricingError('BAD_PRICING', `${path} is not a price-list key (in ${source})`);
  }
  const missing = issue.code === 'invalid_type' && valueAt(raw, issue.path) === undefined;
  throw new PricingError(missing ? 'INCOMPLETE_PRICING' : 'BAD_PRICING', `${at(issue.path)} ${missing ? 'is missing' : `is invalid: ${issue.message}`} (in ${source})`);
}

/** The price list in `file`, or the free default when none is given; throws PricingError naming the problem. */
export function loadPriceList(file: string | undefined): PriceList {
  if (file === undefined || file === '') return FREE_PRICE_LIST;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new PricingError('NO_PRICING', `the price list ${file} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parsePriceList(text, file);
}

/** The env var the CLI reads when `--price-list` is absent. */
export const PRICE_LIST_ENV = 'ASSEMBLYLINE_PRICE_LIST';
