// The pure parts of metering and the bill: the usage row of an ended Assembly, months, and the bill's sums.
import { describe, expect, it } from 'vitest';
import type { AssemblyState } from '../assemblies/assembly-state';
import { computeBill, GB, parseBillMonth } from './bill';
import { FREE_PRICE_LIST, parsePriceList } from './price-list';
import { outcomeOf, usageOf } from './usage-record';
import { mergeRanges } from './usage-store';

const file = (size: number) => ({ size }) as AssemblyState['uploads'][number]['file'];

function state(change: Partial<AssemblyState>): AssemblyState {
  return {
    id: 'a'.repeat(32),
    authKey: 'k',
    ok: 'ASSEMBLY_COMPLETED',
    error: null,
    createdAtMs: 1_000,
    uploads: [],
    tusUploads: [],
    results: {},
    bytesReceived: 0,
    ...change,
  } as AssemblyState;
}

describe('usageOf', () => {
  it('counts described uploads, what arrived of unfinished tus uploads, results, and robots but /upload/handle', () => {
    const s = state({
      ok: 'ASSEMBLY_CANCELED',
      uploads: [{ file: file(100), isTus: false, tusUploadUrl: null }, { file: file(50), isTus: true, tusUploadUrl: 'u1' }],
      tusUploads: [{ upload_url: 'u1', offset: 50 }, { upload_url: 'u2', offset: 30 }] as AssemblyState['tusUploads'],
      results: { a: [file(7), file(8)], b: [file(9)] },
      robotBytes: { '/upload/handle': 150, '/image/resize': 100, '/file/hash': 0 },
    });
    expect(usageOf(s, { upload_duration: 1.5, queue_duration: 0, execution_duration: 2 }, 9_000, 'local')).toEqual({
      assemblyId: s.id,
      authKey: 'k',
      region: 'local',
      createdMs: 1_000,
      endedMs: 9_000,
      outcome: 'cancelled',
      errorCode: null,
      uploadDurationS: 1.5,
      queueDurationS: 0,
      executionDurationS: 2,
      filesUploaded: 2,
      bytesUploaded: 180,
      outputFiles: 3,
      outputBytes: 24,
      processedBytes: 100,
      robots: { '/image/resize': 100 },
    });
  });

  it('maps the end state to the four outcomes; a dropped request counts the bytes received', () => {
    expect([outcomeOf({ ok: 'ASSEMBLY_COMPLETED', error: null }), outcomeOf({ ok: null, error: 'X' }), outcomeOf({ ok: 'ASSEMBLY_CANCELED', error: null }), outcomeOf({ ok: 'REQUEST_ABORTED', error: null })]).toEqual([
      'successful',
      'erroneous',
      'cancelled',
      'request-aborted',
    ]);
    const aborted = usageOf(state({ ok: 'REQUEST_ABORTED', bytesReceived: 4096 }), {}, 2_000, 'local');
    expect([aborted.bytesUploaded, aborted.uploadDurationS, aborted.executionDurationS]).toEqual([4096, 0, 0]);
  });
});

describe('bill', () => {
  const NOV = { year: 2026, month: 11 };
  const nov = Date.UTC(2026, 10, 1);
  const DAY = 86_400_000;

  it('reads YYYY-MM from 2000-01 only', () => {
    expect(parseBillMonth('2026-11')).toEqual(NOV);
    for (const bad of ['2026-13', '2026-00', '1999-12', 'abc', '2026-1', '2026-11-01', ' 2026-11', '20261-01']) expect(parseBillMonth(bad), bad).toBeNull();
  });

  it('lists the days up to today, none of a future month, all of a past one', () => {
    const usage = { robotDays: [], assemblyDays: [] };
    expect((computeBill(FREE_PRICE_LIST, NOV, usage, nov + 2 * DAY + 5).days as unknown[]).map((d) => (d as { date: string }).date)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(computeBill(FREE_PRICE_LIST, NOV, usage, nov - 1)).toMatchObject({ days: [], invoice_id: null });
    const past = computeBill(FREE_PRICE_LIST, { year: 2026, month: 2 }, usage, nov);
    expect([(past.days as unknown[]).length, past.invoice_id, past.created]).toEqual([28, 'local-2026-02', '2026-03-01T00:00:00.000Z']);
  });

  it('applies free GB, then factors, then the plan, VAT and reverse charge', () => {
    const prices = parsePriceList(
      JSON.stringify({
        plan: { id: 'p', price_per_month: 10, gb_included: 1, price_per_gb: 2, gb_limit: null, has_lifetime_limit: false },
        robot_factors: { '/video/encode': 4 },
        free_gb: { '/assemblies': 1 },
        vat_rate: 0.2,
      }),
      'test',
    );
    const usage = {
      robotDays: [
        { k: 0, robot: '/assemblies', bytes: 3 * GB },
        { k: 1, robot: '/video/encode', bytes: GB / 2 },
        { k: 1, robot: '/image/resize', bytes: GB },
      ],
      assemblyDays: [{ k: 0, assemblies: 2 }, { k: 1, assemblies: 1 }],
    };
    const bill = computeBill(prices, NOV, usage, nov + 5 * DAY);
    expect(bill.robots).toEqual({
      '/assemblies': { rawGb: 3, freeGb: 1, gb: 2, factor: 1, gbFactorApplied: false },
      '/image/resize': { rawGb: 1, freeGb: 0, gb: 1, factor: 1, gbFactorApplied: false },
      '/video/encode': { rawGb: 0.5, freeGb: 0, gb: 2, factor: 4, gbFactorApplied: true },
    });
    expect(bill).toMatchObject({ used_gb: 5, additional_gb: 4, additional_gb_fee: 8, sub_total: 18, vat: 3.6, total: 21.6 });
    expect((bill.days as unknown[]).slice(0, 3)).toEqual([
      { date: '2026-11-01', gb: 3, assemblies: 2 },
      { date: '2026-11-02', gb: 3, assemblies: 1 },
      { date: '2026-11-03', gb: 0, assemblies: 0 },
    ]);
    const reverse = computeBill({ ...prices, customer: { reverse_charge_vat: true } }, NOV, usage, nov + 5 * DAY);
    expect(reverse).toMatchObject({ vat: 0, total: 18, reverse_charge_vat: true });
  });
});

describe('mergeRanges', () => {
  it('sorts and joins touching or overlapping ranges, dropping empty ones', () => {
    expect(mergeRanges([[10, 20], [0, 5], [5, 8], [19, 30], [40, 40]])).toEqual([[0, 8], [10, 30]]);
  });
});
