// `npm run service` with a price list: a bad one stops the start with a message naming the key.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/service-fixture';
import { runCliToExit } from '../testing/run-cli';
import { PRICE_LIST_ENV } from './price-list';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('--price-list', () => {
  it('refuses to start with a bad price list, from the flag or from ASSEMBLYLINE_PRICE_LIST', async () => {
    const dir = await tempDir('svc-prices-');
    dirs.push(dir);
    const file = join(dir, 'prices.json');
    await writeFile(file, JSON.stringify({ plan: { id: 'x', price_per_month: 1, gb_included: 1, price_per_gb: 'cheap', gb_limit: null, has_lifetime_limit: false } }));
    const byFlag = await runCliToExit(['--port', '0', '--data-dir', join(dir, 'data'), '--price-list', file]);
    expect(byFlag.code).toBe(1);
    expect(byFlag.stderr).toContain(`service: BAD_PRICING: plan.price_per_gb is invalid`);
    expect(byFlag.stdout).not.toContain('listening on');
    const byEnv = await runCliToExit(['--port', '0', '--data-dir', join(dir, 'data')], { [PRICE_LIST_ENV]: join(dir, 'missing.json') });
    expect(byEnv.code).toBe(1);
    expect(byEnv.stderr).toContain(`service: NO_PRICING: the price list ${join(dir, 'missing.json')} cannot be read`);
  }, 45_000);
});
