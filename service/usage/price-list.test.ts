import { writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/service-fixture';
import { FREE_PRICE_LIST, loadPriceList, parsePriceList, PricingError } from './price-list';

const plan = { id: 'pro', price_per_month: 49, gb_included: 10, price_per_gb: 0.5, gb_limit: 100, has_lifetime_limit: false };
const problem = (value: unknown): { code: string; message: string } => {
  try {
    parsePriceList(typeof value === 'string' ? value : JSON.stringify(value), 'prices.json');
  } catch (e) {
    if (e instanceof PricingError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('accepted');
};

describe('price list', () => {
  it('defaults to a free plan with a generous limit', () => {
    expect(loadPriceList(undefined)).toBe(FREE_PRICE_LIST);
    expect(FREE_PRICE_LIST.plan).toMatchObject({ price_per_month: 0, price_per_gb: 0, gb_limit: 10_000 });
    expect(FREE_PRICE_LIST).toMatchObject({ default_factor: 1, vat_rate: 0, robot_factors: {}, free_gb: {} });
  });

  it('reads the documented example file', () => {
    const text = readFileSync(join(__dirname, 'price-list.example.json'), 'utf8');
    expect(parsePriceList(text, 'example').robot_factors['/video/encode']).toBe(2);
  });

  it('names the key that is missing (INCOMPLETE_PRICING) or bad (BAD_PRICING)', () => {
    expect(problem({})).toEqual({ code: 'INCOMPLETE_PRICING', message: 'INCOMPLETE_PRICING: plan is missing (in prices.json)' });
    expect(problem({ plan: { ...plan, price_per_gb: undefined } }).message).toMatch(/^INCOMPLETE_PRICING: plan\.price_per_gb is missing/);
    expect(problem({ plan: { ...plan, price_per_gb: '0.5' } })).toMatchObject({ code: 'BAD_PRICING', message: expect.stringMatching(/^BAD_PRICING: plan\.price_per_gb is invalid/) });
    expect(problem({ plan, robot_factors: { '/video/encode': -1 } }).message).toMatch(/robot_factors\.\/video\/encode is invalid/);
    expect(problem({ plan, robot_factors: { 'video encode': 1 } }).message).toMatch(/robot_factors\.video encode is invalid/);
    expect(problem({ plan, vat_rate: 21 }).message).toMatch(/vat_rate is invalid/);
    expect(problem({ plan, vat: 0.2 })).toEqual({ code: 'BAD_PRICING', message: 'BAD_PRICING: vat is not a price-list key (in prices.json)' });
    expect(problem({ plan: { ...plan, gb_limt: 5 } }).message).toMatch(/plan\.gb_limt is not a price-list key/);
    expect(problem('{ "plan": ')).toMatchObject({ code: 'BAD_PRICING', message: expect.stringMatching(/prices\.json is not JSON/) });
  });

  it('says NO_PRICING when the file cannot be read', async () => {
    expect(() => loadPriceList('/nonexistent/prices.json')).toThrow(/^NO_PRICING: the price list \/nonexistent\/prices\.json cannot be read: ENOENT/);
    const dir = await tempDir('prices-');
    try {
      const file = join(dir, 'p.json');
      await writeFile(file, JSON.stringify({ plan }));
      expect(loadPriceList(file).plan.id).toBe('pro');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
