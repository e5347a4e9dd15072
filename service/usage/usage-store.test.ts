// The usage store's rollups against the plain GROUP BY over the rows: equal for aligned and unaligned
// ranges and granularities, per region and for all; written once per Assembly.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type ServiceDatabase } from '../store/database';
import { tempDir } from '../testing/service-fixture';
import type { UsageRecord } from './usage-record';
import type { UsageBucket, UsageRange } from './usage-store';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);

function rows(n: number): UsageRecord[] {
  let s = 7;
  const r = (): number => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  return Array.from({ length: n }, (_, i) => {
    const outcome = (['successful', 'erroneous', 'cancelled', 'request-aborted'] as const)[Math.floor(r() * 4)]!;
    const processed = Math.floor(r() * 1e6);
    return {
      assemblyId: i.toString(16).padStart(32, '0'),
      authKey: 'k',
      region: r() < 0.8 ? 'local' : 'eu-west-1',
      createdMs: T0 + Math.floor(r() * 3 * 24 * HOUR),
      endedMs: T0,
      outcome,
      errorCode: outcome === 'erroneous' ? `E${Math.floor(r() * 3)}` : null,
      uploadDurationS: r() < 0.2 ? 0 : r() * 3,
      queueDurationS: r(),
      executionDurationS: r() < 0.2 ? 0 : r() * 9,
      filesUploaded: 1 + Math.floor(r() * 4),
      bytesUploaded: Math.floor(r() * 1e7),
      outputFiles: Math.floor(r() * 3),
      outputBytes: Math.floor(r() * 1e6),
      processedBytes: processed,
      robots: (processed > 0 ? { '/image/resize': processed } : {}) as Record<string, number>,
    };
  });
}

describe('usage store', () => {
  let dir: string;
  let db: ServiceDatabase;
  beforeAll(async () => {
    dir = await tempDir('usage-store-');
    db = openDatabase(dir);
    db.usage.recordMany(rows(3000));
  });
  afterAll(async () => {
    db.close();
    await rm(dir, { recursive: true, force: true });
  });

  const expectSame = (range: UsageRange): void => {
    const fast = db.usage.buckets(range);
    const plain = db.usage.rawBuckets(range);
    expect(fast.map((b) => b.k)).toEqual(plain.map((b) => b.k));
    fast.forEach((b, i) => {
      for (const key of Object.keys(b) as (keyof UsageBucket)[]) expect(b[key], `${JSON.stringify(range)} k=${b.k} ${key}`).toBeCloseTo(plain[i]![key], 6);
    });
  };

  it('sums the same from the rollups as from the rows, aligned or not', () => {
    const cases: [number, number, number][] = [
      [T0, T0 + 72 * HOUR, HOUR],
      [T0, T0 + 72 * HOUR, 24 * HOUR],
      [T0 + 1234567, T0 + 70 * HOUR + 89, HOUR],
      [T0 - 5 * HOUR + 17_000, T0 + 80 * HOUR, 3 * HOUR + 7_000],
      [T0 + 59_999, T0 + 2 * HOUR + 1, 60_000],
      [T0 + 30_000, T0 + 72 * HOUR, 259_000],
      [T0 + 11 * HOUR + 1, T0 + 11 * HOUR + 5_000, 1_000],
    ];
    for (const [fromMs, toMs, bucketMs] of cases) {
      for (const region of [null, 'local', 'eu-west-1', 'nowhere']) expectSame({ fromMs, toMs, bucketMs, region });
    }
    const all = db.usage.buckets({ fromMs: T0, toMs: T0 + 72 * HOUR, bucketMs: 72 * HOUR, region: null });
    expect(all).toEqual([expect.objectContaining({ k: 0, assemblies: 3000 })]);
  });

  it('sums bytes per robot and day (the bill) the same from the day rollup as from the rows', () => {
    const DAY = 24 * HOUR;
    for (const region of [null, 'local', 'nowhere']) {
      const range = { fromMs: T0 - DAY, toMs: T0 + 4 * DAY, bucketMs: DAY, region };
      const fast = db.usage.robotBuckets(range);
      expect(fast).toEqual(db.usage.rawRobotBuckets(range));
      if (region === null) expect(fast.filter((b) => b.robot === '/assemblies').map((b) => b.k)).toEqual([1, 2, 3]);
    }
  });

  it('keeps an Assembly once, however often it is recorded', () => {
    const [first] = rows(1);
    const before = db.usage.buckets({ fromMs: T0, toMs: T0 + 72 * HOUR, bucketMs: 72 * HOUR, region: null })[0]!.assemblies;
    db.usage.record(first!);
    db.usage.recordMany([first!, first!]);
    expect(db.usage.buckets({ fromMs: T0, toMs: T0 + 72 * HOUR, bucketMs: 72 * HOUR, region: null })[0]!.assemblies).toBe(before);
    expect(db.usage.get(first!.assemblyId)).toEqual(first);
  });
});
