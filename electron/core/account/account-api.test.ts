// The account client against the real local service over real HTTP: real Assemblies (one completed, one
// failed, one canceled mid-upload), the bill and statistics read back and checked against the bytes and
// counts the test computed itself; the service's codes pass through; Bearer tokens without the scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYTES_PER_GB } from '../../../shared/api/account-records';
import { channels } from '../../../shared/ipc/contract';
import { startFixture, type Fixture } from '../../../service/testing/service-fixture';
import { runUsageAssemblies, type UsageRun } from '../../../service/testing/usage-runs';
import { ok } from '../../../shared/result';
import { createApiClient, type ApiClient } from '../api/api-client';
import { getBill, getStats } from './account-api';

const thisMonth = (): string => new Date().toISOString().slice(0, 7);
const nowS = (): number => Math.floor(Date.now() / 1000);

let fx: Fixture;
let run: UsageRun;
let api: ApiClient;
beforeAll(async () => {
  fx = await startFixture();
  run = await runUsageAssemblies(fx.service);
  api = createApiClient({ endpoint: fx.service.url, authKey: fx.service.authKey, getSecret: async () => fx.service.authSecret });
}, 30_000);
afterAll(async () => {
  await fx?.stop();
});

/** A client in Bearer mode whose tokens hold only `scope`, whatever the request needs. */
async function bearerClient(scope: string): Promise<ApiClient> {
  const res = await fetch(`${fx.service.url}/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${fx.service.authKey}:${fx.service.authSecret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  return createApiClient({ endpoint: fx.service.url, authKey: fx.service.authKey, getSecret: async () => null, getBearer: async () => ok(token) });
}

describe('account:bill against the local service', () => {
  it('bills what was uploaded (under /assemblies) and what was resized, per robot and per day', async () => {
    const bill = await getBill(api, thisMonth());
    expect(bill.ok, JSON.stringify(bill)).toBe(true);
    if (!bill.ok) return;
    expect(bill.value).toMatchObject({ month: thisMonth(), invoiceId: null, total: 0, plan: { name: 'free', pricePerMonth: 0 } });
    const robot = (name: string) => bill.value.robots.find((r) => r.robot === name);
    expect(robot('/assemblies')!.rawGb * BYTES_PER_GB).toBeCloseTo(run.uploadedBytes, 3);
    expect(robot('/image/resize')!.rawGb * BYTES_PER_GB).toBeCloseTo(run.resizeInputBytes, 3);
    expect(bill.value.usedGb * BYTES_PER_GB).toBeCloseTo(run.uploadedBytes + run.resizeInputBytes, 3);
    expect(bill.value.days).toHaveLength(new Date().getUTCDate());
    expect(bill.value.days!.at(-1)).toMatchObject({ date: new Date().toISOString().slice(0, 10), assemblies: 3 });
  });

  it('reads a past month as invoiced and empty', async () => {
    const bill = await getBill(api, '2025-01');
    expect(bill.ok && bill.value).toMatchObject({ month: '2025-01', invoiceId: 'local-2025-01', usedGb: 0 });
  });

  it("passes the service's code through for a month it refuses, and the contract refuses one before it leaves the page", async () => {
    const bad = await getBill(api, '1999-12');
    expect(bad.ok ? null : bad.error).toMatchObject({ code: 'BILL_INVALID_DATE', httpCode: 400 });
    expect(channels['account:bill'].request.safeParse({ month: '2026-13' }).success).toBe(false);
    expect(channels['account:bill'].request.safeParse({ month: '2026-11' }).success).toBe(true);
  });

  it('says INSUFFICIENT_AUTH_SCOPE to a token without billing:read', async () => {
    const narrow = await bearerClient('assemblies:read');
    const bill = await getBill(narrow, thisMonth());
    expect(bill.ok ? null : bill.error.code).toBe('INSUFFICIENT_AUTH_SCOPE');
    const wide = await bearerClient('billing:read');
    expect((await getBill(wide, thisMonth())).ok).toBe(true);
  });
});

describe('account:stats against the local service', () => {
  it("counts the workspace region's Assemblies by outcome, with bytes in and out as the test sent and got", async () => {
    const stats = await getStats(api, { since: nowS() - 3600, until: nowS() + 1, region: 'workspace', granularity: 600 });
    expect(stats.ok, JSON.stringify(stats)).toBe(true);
    if (!stats.ok) return;
    expect(stats.value.region).toBe('local');
    expect(stats.value.granularity).toBe(600);
    const sum = (key: 'assemblies' | 'successful' | 'canceled' | 'erroneous' | 'requestAborted' | 'bytesIn' | 'bytesOut') =>
      stats.value.buckets.reduce((n, b) => n + b[key], 0);
    expect({ all: sum('assemblies'), ok: sum('successful'), canceled: sum('canceled'), erroneous: sum('erroneous'), aborted: sum('requestAborted') }).toEqual({
      all: 3,
      ok: 1,
      canceled: 1,
      erroneous: 1,
      aborted: 0,
    });
    expect(sum('bytesIn')).toBe(run.uploadedBytes);
    expect(sum('bytesOut')).toBe(run.outputBytes);
    expect(stats.value.totals).toMatchObject({ assemblies: 3, bytesUploaded: run.uploadedBytes, outputBytes: run.outputBytes });
    expect(stats.value.errors).toEqual([{ error: String(run.erroneous.error), count: 1 }]);
    // Every bucket of the hour is there, empty ones as zeros (no gaps in the charts).
    expect(stats.value.buckets.length).toBeGreaterThanOrEqual(6);
  });

  it('gives empty buckets for a region this service does not run in, and counts everything for all', async () => {
    const elsewhere = await getStats(api, { since: nowS() - 3600, until: nowS() + 1, region: 'eu-west-1' });
    expect(elsewhere.ok && elsewhere.value.buckets.every((b) => b.assemblies === 0)).toBe(true);
    const all = await getStats(api, { since: nowS() - 3600, until: nowS() + 1, region: 'all' });
    expect(all.ok && all.value.totals.assemblies).toBe(3);
  });

  it('refuses a range that ends before it starts, and passes the scope error through', async () => {
    const backwards = await getStats(api, { since: nowS(), until: nowS() - 60, region: 'all' });
    expect(backwards.ok ? null : backwards.error.code).toBe('ASSEMBLY_STATS_INVALID_TIME');
    const narrow = await bearerClient('billing:read');
    const refused = await getStats(narrow, { since: nowS() - 3600, until: nowS() + 1, region: 'all' });
    expect(refused.ok ? null : refused.error.code).toBe('INSUFFICIENT_AUTH_SCOPE');
  });
});
