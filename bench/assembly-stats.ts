/**
 * Issue 14, Performance: "Statistics over 100,000 stored Assembly records answered by the service in
 * ≤ 300 ms."
 *
 * A local service in its own process (`npm run service`, bench/lib/bench-kit.ts). BENCH_ROWS (100,000)
 * usage rows are seeded **directly through the service's store module** (service/usage/usage-store.ts
 * `recordMany`, over a second SQLite connection to the service's database): running 100,000 real
 * Assemblies would take hours, and the statistics read only these rows. They spread over the last 30 days
 * with a realistic mix (90 % successful, 5 % erroneous over four codes, 3 % cancelled, 2 % aborted; one to
 * three robots each). Then, over real HTTP with signed requests, BENCH_CALLS (20) calls each of
 * `GET /assembly_stats` for the 30 days at hour granularity (720 buckets) and at day granularity, and the
 * reference in the same run: `GET /assemblies` first page (a signed account read of the same service).
 * `since` is "now − 30 days" to the second, so bucket boundaries cut the rollups' hours and minutes (their
 * worst case, service/usage/usage-store.ts); one more row has `since` on a whole hour.
 * Prints median and p95, the ratio to the 300 ms goal and to the reference.
 *
 *   npm run bench:assembly-stats
 */
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { signParams } from '../service/auth/signature';
import { openDatabase } from '../service/store/database';
import type { UsageRecord } from '../service/usage/usage-record';
import { fmt, runBench, verdict, withBenchService, type BenchService } from './lib/bench-kit';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 20);
const GOAL_MS = 300;
const DAY_S = 86_400;
const ROBOTS = ['/image/resize', '/video/encode', '/audio/encode', '/file/compress', '/image/optimize', '/video/thumbs'];
const ERRORS = ['INVALID_INPUT_ERROR', 'IMAGE_RESIZE_VALIDATION', 'MAX_SIZE_EXCEEDED', 'ASSEMBLY_CRASHED'];

/** A deterministic pseudo-random sequence, so every run seeds the same rows. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function seedRows(nowMs: number): UsageRecord[] {
  const r = rng(14);
  const rows: UsageRecord[] = [];
  for (let i = 0; i < ROWS; i++) {
    const createdMs = nowMs - Math.floor(r() * 30 * DAY_S * 1000);
    const x = r();
    const outcome = x < 0.9 ? 'successful' : x < 0.95 ? 'erroneous' : x < 0.98 ? 'cancelled' : 'request-aborted';
    const files = 1 + Math.floor(r() * 5);
    const bytesUploaded = Math.floor(files * (50_000 + r() * 5_000_000));
    const robots: Record<string, number> = {};
    for (let k = 0, n = 1 + Math.floor(r() * 3); k < n; k++) robots[ROBOTS[Math.floor(r() * ROBOTS.length)]!] = Math.floor(bytesUploaded * (0.5 + r()));
    const execution = outcome === 'request-aborted' ? 0 : 0.2 + r() * 20;
    rows.push({
      assemblyId: i.toString(16).padStart(32, '0'),
      authKey: 'bench',
      region: 'local',
      createdMs,
      endedMs: createdMs + Math.floor(execution * 1000) + 500,
      outcome,
      errorCode: outcome === 'erroneous' ? ERRORS[Math.floor(r() * ERRORS.length)]! : null,
      uploadDurationS: 0.1 + r() * 5,
      queueDurationS: r() * 2,
      executionDurationS: execution,
      filesUploaded: files,
      bytesUploaded,
      outputFiles: outcome === 'successful' ? files * 2 : 0,
      outputBytes: outcome === 'successful' ? Math.floor(bytesUploaded * 0.3) : 0,
      processedBytes: Object.values(robots).reduce((a, b) => a + b, 0),
      robots,
    });
  }
  return rows;
}

async function signedGet(s: BenchService, pathname: string, params: Record<string, unknown>): Promise<{ ms: number; body: Record<string, unknown> }> {
  const raw = JSON.stringify({ ...params, auth: { key: s.authKey, expires: new Date(Date.now() + 3600_000).toISOString() } });
  const url = `${s.url}${pathname}?${new URLSearchParams({ params: raw, signature: signParams(raw, s.authSecret) })}`;
  const start = performance.now();
  const res = await fetch(url);
  const body = (await res.json()) as Record<string, unknown>;
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`${pathname} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return { ms, body };
}

async function timeCalls(s: BenchService, pathname: string, params: Record<string, unknown>): Promise<{ median: number; p95: number; body: Record<string, unknown> }> {
  let body = (await signedGet(s, pathname, params)).body; // warm-up: statements prepared, pages cached
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const call = await signedGet(s, pathname, params);
    times.push(call.ms);
    body = call.body;
  }
  times.sort((a, b) => a - b);
  const at = (p: number): number => times[Math.min(times.length - 1, Math.max(0, Math.ceil(times.length * p) - 1))]!;
  return { median: at(0.5), p95: at(0.95), body };
}

runBench(async () => {
  await withBenchService('bench-stats-', async (dir, service) => {
    const nowMs = Date.now();
    const seedStart = performance.now();
    const db = openDatabase(path.join(dir, 'service'));
    try {
      db.usage.recordMany(seedRows(nowMs));
    } finally {
      db.close();
    }
    // The service then reads the seeded pages from the database file, as after any restart, not from a long WAL.
    const raw = new Database(path.join(dir, 'service', 'service.sqlite'));
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    console.log(`seeded ${ROWS.toLocaleString('en')} usage rows in ${fmt((performance.now() - seedStart) / 1000)} s (through service/usage/usage-store.ts)`);
    // "Now" to the second: bucket boundaries fall inside hours and minutes, the rollups' worst case.
    const until = Math.floor(nowMs / 1000) + 1;
    const since = until - 30 * DAY_S;
    // The same 30 days on whole hours: boundaries on the rollups' cells.
    const sinceOnHour = Math.floor(since / 3600) * 3600;
    const reference = await timeCalls(service, '/assemblies', { page: 1, pagesize: 50 });
    const hour = await timeCalls(service, '/assembly_stats', { since, until, region: 'local', granularity: 3600 });
    const day = await timeCalls(service, '/assembly_stats', { since, until, region: 'all', granularity: DAY_S });
    const aligned = await timeCalls(service, '/assembly_stats', { since: sinceOnHour, until: sinceOnHour + 30 * DAY_S + 3600, region: 'local', granularity: 3600 });
    // Not under the goal, but the Usage screen reads it: this month's bill over the same rows.
    const bill = await timeCalls(service, `/bill/${new Date(nowMs).toISOString().slice(0, 7)}`, {});
    for (const t of [hour, day, aligned]) {
      if (t.body.totalAssemblies !== ROWS) throw new Error(`expected ${ROWS} Assemblies counted, got ${String(t.body.totalAssemblies)}`);
    }
    console.log(`\n${CALLS} calls each, over real HTTP (ms):`);
    console.log('| | median | p95 | p95 / 300 ms goal | median / reference |');
    console.log('|---|---|---|---|---|');
    const row = (name: string, t: { median: number; p95: number }) =>
      console.log(`| ${name} | ${fmt(t.median)} | ${fmt(t.p95)} | ${fmt(t.p95 / GOAL_MS, 2)} | ${fmt(t.median / reference.median, 1)} |`);
    row('GET /assemblies page 1 (reference)', reference);
    row(`GET /assembly_stats 30 days × hour (${(hour.body.stats as unknown[]).length} buckets)`, hour);
    row(`GET /assembly_stats 30 days × day (${(day.body.stats as unknown[]).length} buckets)`, day);
    row(`GET /assembly_stats 30 days × hour, since on the hour (${(aligned.body.stats as unknown[]).length} buckets)`, aligned);
    row('GET /bill/{this month} (not under the goal)', bill);
    console.log(`\nload average during the run: ${loadavg().map((n) => fmt(n, 1)).join(' ')} on ${availableParallelism()} cores`);
    const worst = Math.max(hour.p95, day.p95, aligned.p95);
    console.log(`\nstatistics p95 ${fmt(worst)} ms: ${verdict(worst <= GOAL_MS)} the ≤ ${GOAL_MS} ms goal (ratio ${fmt(worst / GOAL_MS, 2)})`);
  });
});
