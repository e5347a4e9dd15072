import { describe, expect, it } from 'vitest';
import { billRecordSchema, isBillMonth, statsRecordSchema } from '../../../shared/api/account-records';
import { toBill, toStats } from './account-api';

const bill = (over: Record<string, unknown> = {}) =>
  billRecordSchema.parse({
    ok: 'BILL_FOUND',
    invoice_id: null,
    month: '2026-11',
    plan: { id: 'free', price_per_month: 0, gb_included: 5, price_per_gb: 0.5, gb_limit: null, has_lifetime_limit: false },
    used_gb: 6.5,
    additional_gb: 1.5,
    additional_gb_fee: 0.75,
    robots: {
      '/assemblies': { rawGb: 1, gb: 1, freeGb: 0, gbFactorApplied: false, factor: 1 },
      '/video/encode': { rawGb: 2, gb: 4, freeGb: 0, gbFactorApplied: true, factor: 2 },
      '/image/resize': { rawGb: 1.5, gb: 1.5, freeGb: 0, gbFactorApplied: false, factor: 1 },
    },
    sub_total: 0.75,
    vat: 0,
    total: 0.75,
    days: [
      { date: '2026-11-02', gb: 1, assemblies: 2 },
      { date: '2026-11-01', gb: 0, assemblies: 0 },
    ],
    ...over,
  });

describe('toBill', () => {
  it('keeps every figure the Usage screen shows, robots by billed GB and days in order', () => {
    const b = toBill(bill(), '2026-11');
    expect(b).toMatchObject({ month: '2026-11', invoiceId: null, usedGb: 6.5, additionalGb: 1.5, additionalGbFee: 0.75, total: 0.75 });
    expect(b.plan).toEqual({ name: 'free', pricePerMonth: 0, gbIncluded: 5, pricePerGb: 0.5, gbLimit: null, hasLifetimeLimit: false });
    expect(b.robots.map((r) => r.robot)).toEqual(['/video/encode', '/image/resize', '/assemblies']);
    expect(b.robots[0]).toEqual({ robot: '/video/encode', rawGb: 2, gb: 4, freeGb: 0, factor: 2, factorApplied: true });
    expect(b.days?.map((d) => d.date)).toEqual(['2026-11-01', '2026-11-02']);
  });

  it('reads what another deployment may send: numeric strings, a numeric invoice id, no days, extra fields', () => {
    const b = toBill(bill({ used_gb: '2.25', total: '12.50', invoice_id: 4711, days: undefined, vat: 0, plan: { title: 'Startup', price_per_month: '49' } }), '2026-10');
    expect(b.usedGb).toBe(2.25);
    expect(b.total).toBe(12.5);
    expect(b.invoiceId).toBe('4711');
    expect(b.days).toBeNull();
    expect(b.plan?.name).toBe('Startup');
    expect(b.plan?.pricePerMonth).toBe(49);
  });

  it('refuses an answer that is not a bill', () => {
    expect(billRecordSchema.safeParse({ ok: 'TEMPLATE_FOUND' }).success).toBe(false);
  });
});

describe('toStats', () => {
  const record = statsRecordSchema.parse({
    ok: 'ASSEMBLY_STATS_FOUND',
    granularity: 3600,
    stats: [
      { data_from_ts: 7200, num_assemblies: 3, num_successful_assemblies: 1, num_cancelled_assemblies: 1, num_erroneous_assemblies: 1, num_request_aborted_assemblies: 0, num_files: 4, total_num_uploaded_bytes: 1000, total_output_file_sizes: 500, avg_upload_duration: 0.5, avg_live_queue_duration: 0.1, avg_execution_duration: 2 },
      { data_from_ts: 3600, num_assemblies: 0 },
    ],
    errorStatsTotals: [
      { error: 'INVALID_INPUT_ERROR', num_erroneous_assemblies: 1 },
      { error: 'IMAGE_RESIZE_VALIDATION', num_erroneous_assemblies: 3 },
      { error: 'NEVER', num_erroneous_assemblies: 0 },
    ],
    totalAssemblies: 3,
    totalFilesProcessed: 4,
    totalBytesUploaded: 1000,
    totalOutputBytesProcessed: 500,
  });
  const s = toStats(record, { region: 'local', since: 3600, until: 10800 });

  it('orders buckets by time and fills figures a deployment left out with 0', () => {
    expect(s.buckets.map((b) => b.from)).toEqual([3600, 7200]);
    expect(s.buckets[0]).toMatchObject({ assemblies: 0, successful: 0, bytesIn: 0, avgExecutionS: 0 });
    expect(s.buckets[1]).toMatchObject({ assemblies: 3, successful: 1, canceled: 1, erroneous: 1, requestAborted: 0, files: 4, bytesIn: 1000, bytesOut: 500, avgExecutionS: 2 });
  });

  it('lists errors most frequent first, without the ones that never happened', () => {
    expect(s.errors).toEqual([
      { error: 'IMAGE_RESIZE_VALIDATION', count: 3 },
      { error: 'INVALID_INPUT_ERROR', count: 1 },
    ]);
  });

  it('keeps the totals and says which region and range were asked', () => {
    expect(s.totals).toMatchObject({ assemblies: 3, filesProcessed: 4, bytesUploaded: 1000, outputBytes: 500, executionS: 0 });
    expect(s).toMatchObject({ region: 'local', since: 3600, until: 10800, granularity: 3600 });
  });
});

describe('isBillMonth', () => {
  it.each([
    ['2026-11', true],
    ['2000-01', true],
    ['1999-12', false],
    ['2026-13', false],
    ['2026-1', false],
    ['abc', false],
  ])('%s → %s', (month, expected) => {
    expect(isBillMonth(month)).toBe(expected);
  });
});
