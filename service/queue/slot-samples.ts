// Job-slot use over time, for GET /priority_job_slot_stats. The sampler hears every change of the pool and
// integrates "slots in use" and "Assemblies queued" over time; the integral and the peak are kept per
// second (one row per second, added up), written at most once a second. A bucket's average is then its
// integral over its length and its max the highest per-second peak, both computed in SQL. Seconds with no
// row had nothing in use: they count as zero, so idle time needs no rows.

import type Database from 'better-sqlite3';
import type { JobSlots } from './job-slots';

export interface SecondSample {
  second: number;
  inUseMs: number;
  inUseMax: number;
  queuedMs: number;
  queuedMax: number;
}

export interface SlotStatsBucket {
  /** Unix seconds at which the bucket starts. */
  fromS: number;
  inUse: number;
  queued: number;
}

export interface SlotSampleStore {
  add(rows: readonly SecondSample[]): void;
  /** One entry per bucket of [sinceS, untilS) that has rows; values are avg or max over the bucket. */
  buckets(q: { sinceS: number; untilS: number; granularityS: number; aggregation: 'avg' | 'max' }): SlotStatsBucket[];
}

/** Samples are kept this long. */
const KEEP_S = 90 * 86_400;

export function openSlotSamples(db: Database.Database): SlotSampleStore {
  db.exec(`CREATE TABLE IF NOT EXISTS job_slot_samples (second INTEGER PRIMARY KEY, in_use_ms REAL NOT NULL, in_use_max INTEGER NOT NULL,
    queued_ms REAL NOT NULL, queued_max INTEGER NOT NULL)`);
  db.prepare('DELETE FROM job_slot_samples WHERE second < ?').run(Math.floor(Date.now() / 1000) - KEEP_S);
  const upsert = db.prepare(`INSERT INTO job_slot_samples (second, in_use_ms, in_use_max, queued_ms, queued_max)
    VALUES (@second, @inUseMs, @inUseMax, @queuedMs, @queuedMax)
    ON CONFLICT (second) DO UPDATE SET in_use_ms = in_use_ms + excluded.in_use_ms, in_use_max = max(in_use_max, excluded.in_use_max),
      queued_ms = queued_ms + excluded.queued_ms, queued_max = max(queued_max, excluded.queued_max)`);
  const addAll = db.transaction((rows: readonly SecondSample[]) => rows.forEach((r) => upsert.run(r)));
  // A bucket's length is `granularity`, except the last one, cut at `until`. Numbers bind as REAL: the
  // bucket number is cast, so the division is an integer one.
  const bucket = 'CAST((second - @since) / @g AS INTEGER)';
  const avg = db.prepare(`SELECT ${bucket} AS bucket,
      SUM(in_use_ms) / (1000.0 * MIN(@g, @until - (@since + ${bucket} * @g))) AS in_use,
      SUM(queued_ms) / (1000.0 * MIN(@g, @until - (@since + ${bucket} * @g))) AS queued
    FROM job_slot_samples WHERE second >= @since AND second < @until GROUP BY bucket ORDER BY bucket`);
  const max = db.prepare(`SELECT ${bucket} AS bucket, MAX(in_use_max) AS in_use, MAX(queued_max) AS queued
    FROM job_slot_samples WHERE second >= @since AND second < @until GROUP BY bucket ORDER BY bucket`);
  return {
    add: (rows) => {
      if (rows.length > 0) addAll(rows);
    },
    buckets: ({ sinceS, untilS, granularityS, aggregation }) => {
      const stmt = aggregation === 'avg' ? avg : max;
      const rows = stmt.all({ since: sinceS, until: untilS, g: granularityS }) as { bucket: number; in_use: number; queued: number }[];
      return rows.map((r) => ({ fromS: sinceS + r.bucket * granularityS, inUse: r.in_use, queued: r.queued }));
    },
  };
}

/** [fromMs, toMs) at a constant `value`, as per-second integrals (value × ms inside each second). Pure. */
export function splitBySecond(fromMs: number, toMs: number, value: number): { second: number; ms: number }[] {
  const out: { second: number; ms: number }[] = [];
  if (value <= 0 || toMs <= fromMs) return out;
  let at = fromMs;
  while (at < toMs) {
    const second = Math.floor(at / 1000);
    const end = Math.min(toMs, (second + 1) * 1000);
    out.push({ second, ms: value * (end - at) });
    at = end;
  }
  return out;
}

/** Integrates two step functions (slots in use, Assemblies queued) into per-second rows. Pure apart from its own state. */
export class SlotIntegrator {
  private lastMs: number;
  private inUse = 0;
  private queued = 0;
  private pending = new Map<number, SecondSample>();

  constructor(nowMs: number) {
    this.lastMs = nowMs;
  }

  private row(second: number): SecondSample {
    let r = this.pending.get(second);
    if (!r) this.pending.set(second, (r = { second, inUseMs: 0, inUseMax: 0, queuedMs: 0, queuedMax: 0 }));
    return r;
  }

  /** Time passes up to `nowMs` at the current values. */
  advance(nowMs: number): void {
    if (nowMs <= this.lastMs) return;
    for (const { second, ms } of splitBySecond(this.lastMs, nowMs, this.inUse)) {
      const r = this.row(second);
      r.inUseMs += ms;
      r.inUseMax = Math.max(r.inUseMax, this.inUse);
    }
    for (const { second, ms } of splitBySecond(this.lastMs, nowMs, this.queued)) {
      const r = this.row(second);
      r.queuedMs += ms;
      r.queuedMax = Math.max(r.queuedMax, this.queued);
    }
    this.lastMs = nowMs;
  }

  /** The values change at `nowMs`. */
  set(nowMs: number, inUse: number, queued: number): void {
    this.advance(nowMs);
    this.inUse = inUse;
    this.queued = queued;
    if (inUse > 0 || queued > 0) {
      const r = this.row(Math.floor(nowMs / 1000));
      r.inUseMax = Math.max(r.inUseMax, inUse);
      r.queuedMax = Math.max(r.queuedMax, queued);
    }
  }

  /** The rows gathered so far (up to `nowMs`), handed over once. */
  take(nowMs: number): SecondSample[] {
    this.advance(nowMs);
    const rows = [...this.pending.values()];
    this.pending = new Map();
    return rows;
  }
}

/**
 * Samples the pool on every change and writes the per-second rows at most once a second (compacted:
 * many changes within a second make one row). close() writes what is left.
 */
export function startSlotSampler(slots: JobSlots, store: SlotSampleStore, now: () => number = Date.now): { close(): void } {
  const integrator = new SlotIntegrator(now());
  const unlisten = slots.onChange(() => integrator.set(now(), slots.inUse, slots.queuedAssemblies()));
  const flush = (): void => {
    try {
      store.add(integrator.take(now()));
    } catch {
      // The database closed under us (service stopping): the last second is lost, nothing else.
    }
  };
  const timer = setInterval(flush, 1000);
  timer.unref();
  return {
    close: () => {
      clearInterval(timer);
      unlisten();
      flush();
    },
  };
}
