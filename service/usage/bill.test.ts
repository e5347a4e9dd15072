// GET /bill/{YYYY-MM} over real HTTP: real Assemblies metered, the bill checked against bytes the test
// computed itself, read by the vendor's Node SDK too; auth, scopes, bad months, a price list, a restart.
import { Transloadit } from '@transloadit/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../index';
import { signedCall } from '../testing/signed-call';
import { startFixture, tempDir, type Fixture } from '../testing/service-fixture';
import { runUsageAssemblies, type UsageRun } from '../testing/usage-runs';
import { GB } from './bill';
import { parsePriceList } from './price-list';
import { rm } from 'node:fs/promises';

const thisMonth = (): string => new Date().toISOString().slice(0, 7);
const today = (): string => new Date().toISOString().slice(0, 10);

async function mintToken(service: LocalService, scope: string): Promise<string> {
  const res = await fetch(`${service.url}/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${service.authKey}:${service.authSecret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('metering and GET /bill/{YYYY-MM}', () => {
  let fx: Fixture;
  let run: UsageRun;
  beforeAll(async () => {
    fx = await startFixture();
    run = await runUsageAssemblies(fx.service);
  }, 30_000);
  afterAll(async () => {
    await fx.stop();
  });

  it('ran the three Assemblies to their three ends', () => {
    expect(run.successful.ok).toBe('ASSEMBLY_COMPLETED');
    expect(run.erroneous.error).toEqual(expect.any(String));
    expect(run.cancelled.ok).toBe('ASSEMBLY_CANCELED');
    expect(run.outputFiles).toBe(1);
    expect(run.successful.region).toBe('local');
  });

  it('bills the bytes sent under /assemblies and the bytes resized under /image/resize', async () => {
    const { status, body } = await signedCall(fx.service, 'GET', `/bill/${thisMonth()}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: 'BILL_FOUND', month: thisMonth(), invoice_id: null, plan: { id: 'free', price_per_month: 0 }, total: 0 });
    const robots = body.robots as Record<string, { rawGb: number; gb: number; freeGb: number; gbFactorApplied: boolean; factor: number }>;
    expect(Object.keys(robots).sort()).toEqual(['/assemblies', '/image/resize']);
    expect(robots['/assemblies']!.rawGb * GB).toBeCloseTo(run.uploadedBytes, 3);
    expect(robots['/image/resize']).toMatchObject({ factor: 1, freeGb: 0, gbFactorApplied: false });
    expect(robots['/image/resize']!.gb).toBe(robots['/image/resize']!.rawGb);
    expect(robots['/image/resize']!.rawGb * GB).toBeCloseTo(run.resizeInputBytes, 3);
    expect((body.used_gb as number) * GB).toBeCloseTo(run.uploadedBytes + run.resizeInputBytes, 3);
    const days = body.days as { date: string; gb: number; assemblies: number }[];
    expect(days.length).toBe(new Date().getUTCDate());
    expect(days.at(-1)).toMatchObject({ date: today(), assemblies: 3 });
    expect(days.at(-1)!.gb * GB).toBeCloseTo(run.uploadedBytes + run.resizeInputBytes, 3);
    for (const key of ['to', 'email', 'created', 'additional_gb', 'additional_gb_fee', 'company', 'address_1', 'address_2', 'zip', 'city', 'state', 'country', 'sub_total', 'reward_discount_percent', 'reward_discount', 'signup_discount_percent', 'signup_discount', 'credit', 'bill_limit', 'vat_rate', 'vat', 'vat_id', 'reverse_charge_vat']) {
      expect(body, key).toHaveProperty(key);
    }
  });

  it('keeps one usage row per Assembly with its outcome, durations and bytes', () => {
    // Read through a second connection to the same database file: what a restart would see.
    const ids = [run.successful, run.erroneous, run.cancelled].map((s) => String(s.assembly_id));
    return (async () => {
      const { openDatabase } = await import('../store/database');
      const db = openDatabase(fx.dataDir);
      try {
        const [ok, bad, cancelled] = ids.map((id) => db.usage.get(id));
        expect(ok).toMatchObject({ outcome: 'successful', errorCode: null, filesUploaded: 1, outputFiles: 1, outputBytes: run.outputBytes, region: 'local' });
        expect(ok!.robots).toEqual({ '/image/resize': run.resizeInputBytes });
        expect(ok!.executionDurationS).toBeCloseTo(Number(run.successful.execution_duration), 6);
        expect(bad).toMatchObject({ outcome: 'erroneous', errorCode: run.erroneous.error, filesUploaded: 1, outputFiles: 0, robots: {} });
        expect(cancelled).toMatchObject({ outcome: 'cancelled', errorCode: null, filesUploaded: 0, bytesUploaded: 400 });
      } finally {
        db.close();
      }
    })();
  });

  it('is read by the vendor Node SDK getBill', async () => {
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    const bill = (await client.getBill(thisMonth())) as unknown as Record<string, unknown>;
    expect(bill.ok).toBe('BILL_FOUND');
    expect(bill.total).toBe(0);
    expect(((bill.robots as Record<string, { rawGb: number }>)['/assemblies']!.rawGb * GB)).toBeCloseTo(run.uploadedBytes, 3);
    await expect(client.getBill('2026-13')).rejects.toMatchObject({ code: 'BILL_INVALID_DATE' });
  });

  it('refuses a bad month with BILL_INVALID_DATE (400)', async () => {
    for (const month of ['2026-13', 'abc', '1999-12', '2026-1', '2026-00', '%E2%82%AC']) {
      const { status, body } = await signedCall(fx.service, 'GET', `/bill/${month}`);
      expect([month, status, body.error]).toEqual([month, 400, 'BILL_INVALID_DATE']);
    }
  });

  it('answers a past month with an invoice id and all its days, and a future month with none', async () => {
    const past = await signedCall(fx.service, 'GET', '/bill/2024-02');
    expect(past.body).toMatchObject({ ok: 'BILL_FOUND', invoice_id: 'local-2024-02', used_gb: 0, created: '2024-03-01T00:00:00.000Z' });
    expect((past.body.days as unknown[]).length).toBe(29);
    expect((past.body.robots as Record<string, { rawGb: number }>)['/assemblies']!.rawGb).toBe(0);
    const future = await signedCall(fx.service, 'GET', `/bill/${new Date().getUTCFullYear() + 1}-01`);
    expect(future.body).toMatchObject({ ok: 'BILL_FOUND', invoice_id: null, used_gb: 0, days: [] });
  });

  it('needs a signature or a Bearer token with billing:read', async () => {
    const unsigned = await fetch(`${fx.service.url}/bill/${thisMonth()}?${new URLSearchParams({ params: JSON.stringify({ auth: { key: fx.service.authKey } }) })}`);
    expect([unsigned.status, ((await unsigned.json()) as { error: string }).error]).toEqual([401, 'NO_SIGNATURE_FIELD']);
    const forged = await fetch(`${fx.service.url}/bill/${thisMonth()}?${new URLSearchParams({ params: JSON.stringify({ auth: { key: fx.service.authKey, expires: new Date(Date.now() + 60_000).toISOString() } }), signature: 'sha384:00' })}`);
    expect(((await forged.json()) as { error: string }).error).toBe('INVALID_SIGNATURE');
    const billing = await mintToken(fx.service, 'billing:read');
    const ok = await fetch(`${fx.service.url}/bill/${thisMonth()}?params=%7B%7D`, { headers: { Authorization: `Bearer ${billing}` } });
    expect([ok.status, ((await ok.json()) as { ok: string }).ok]).toEqual([200, 'BILL_FOUND']);
    const other = await mintToken(fx.service, 'assemblies:read');
    const denied = await fetch(`${fx.service.url}/bill/${thisMonth()}?params=%7B%7D`, { headers: { Authorization: `Bearer ${other}` } });
    expect([denied.status, ((await denied.json()) as { error: string }).error]).toEqual([403, 'INSUFFICIENT_AUTH_SCOPE']);
  });

  it('writes each usage row once: a restart neither loses nor doubles it', async () => {
    const before = (await signedCall(fx.service, 'GET', `/bill/${thisMonth()}`)).body;
    await fx.service.close();
    // Cancelling a finished Assembly again after the restart must not meter it a second time either.
    const again = await startLocalService({ dataDir: fx.dataDir });
    try {
      await fetch(`${again.url}/assemblies/${String(run.successful.assembly_id)}`, { method: 'DELETE' });
      const after = (await signedCall(again, 'GET', `/bill/${thisMonth()}`)).body;
      expect({ ...after, created: null }).toEqual({ ...before, created: null });
    } finally {
      await again.close();
    }
  });
});

describe('a price list', () => {
  it('charges the plan, extra GB times the factors, and VAT', async () => {
    const priceList = parsePriceList(
      JSON.stringify({
        plan: { id: 'metered', price_per_month: 10, gb_included: 0, price_per_gb: 1_000_000, gb_limit: null, has_lifetime_limit: false },
        robot_factors: { '/image/resize': 3 },
        free_gb: { '/assemblies': 1 },
        vat_rate: 0.25,
        customer: { to: 'Media Team', country: 'NL' },
      }),
      'test',
    );
    const dataDir = await tempDir('svc-bill-');
    const service = await startLocalService({ dataDir, priceList });
    try {
      const run = await runUsageAssemblies(service);
      const { body } = await signedCall(service, 'GET', `/bill/${thisMonth()}`);
      const robots = body.robots as Record<string, { rawGb: number; gb: number; freeGb: number; gbFactorApplied: boolean; factor: number }>;
      // Uploads are all inside the free GB; the resize counts three times.
      expect(robots['/assemblies']).toMatchObject({ gb: 0, gbFactorApplied: false, factor: 1 });
      expect(robots['/assemblies']!.freeGb * GB).toBeCloseTo(run.uploadedBytes, 3);
      expect(robots['/image/resize']).toMatchObject({ factor: 3, gbFactorApplied: true });
      expect(robots['/image/resize']!.gb * GB).toBeCloseTo(3 * run.resizeInputBytes, 3);
      expect(robots['/image/resize']!.rawGb * GB).toBeCloseTo(run.resizeInputBytes, 3);
      const extraGb = (3 * run.resizeInputBytes) / GB;
      const fee = Math.round(extraGb * 1_000_000 * 100) / 100;
      expect(body).toMatchObject({ to: 'Media Team', country: 'NL', vat_rate: 0.25, plan: { id: 'metered' } });
      expect(body.additional_gb as number).toBeCloseTo(extraGb, 12);
      expect(body.additional_gb_fee).toBeCloseTo(fee, 2);
      expect(body.sub_total).toBeCloseTo(10 + fee, 2);
      expect(body.total).toBeCloseTo((10 + fee) * 1.25, 1);
    } finally {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
