/**
 * The long run of the attack suite's fuzzers (service/attack/fuzz-properties.ts): each fuzzer gets its own
 * real local service (a child process, in a sandbox) and 10,000 cases by default. Violations are counted,
 * not stopped at, and a summary is printed per fuzzer and in total: cases, server errors (5xx), hangs,
 * 4xx without an error code, dropped connections / service deaths, writes outside the data folder.
 * Exits 1 when anything was found.
 *
 *   npm run bench:fuzz
 *   BENCH_FUZZ_RUNS=2000 BENCH_FUZZ_ONLY=tus npm run bench:fuzz     # fewer cases, fuzzers whose name matches
 *   BENCH_FUZZ_SEED=42 npm run bench:fuzz                           # replay a run
 */
import fc from 'fast-check';
import { FUZZERS, tinyJpeg } from '../service/attack/fuzz-properties';
import { FuzzTarget, type FuzzStats } from '../service/attack/fuzz-target';

const runs = Number(process.env.BENCH_FUZZ_RUNS) || 10_000;
const only = process.env.BENCH_FUZZ_ONLY?.toLowerCase();
const seed = process.env.BENCH_FUZZ_SEED ? Number(process.env.BENCH_FUZZ_SEED) : Date.now() % 2 ** 31;

interface Row {
  name: string;
  stats: FuzzStats;
  finalProblems: string[];
  seconds: number;
}

/** The target being fuzzed, so Ctrl-C stops its service (a child process group) too. */
let current: FuzzTarget | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void (current?.close() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

async function runOne(name: string, property: (t: FuzzTarget, img: Buffer) => fc.IAsyncPropertyWithHooks<unknown[]>, img: Buffer): Promise<Row> {
  const started = Date.now();
  const t = await FuzzTarget.start({ strict: false });
  current = t;
  let lastPrint = Date.now();
  const p = property(t, img).afterEach(() => {
    if (Date.now() - lastPrint > 30_000) {
      lastPrint = Date.now();
      console.log(`  … ${name}: ${t.stats.cases} cases`);
    }
  });
  const result = await fc.check(p, { numRuns: runs, seed });
  if (result.failed) console.log(`  ${name}: fast-check itself failed: ${String(result.errorInstance)}`);
  const finalProblems = await t.close();
  current = null;
  return { name, stats: t.stats, finalProblems, seconds: (Date.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const img = await tinyJpeg();
  const rows: Row[] = [];
  console.log(`fuzz-long: ${runs} cases per fuzzer, seed ${seed}`);
  for (const f of FUZZERS.filter((f) => !only || f.name.toLowerCase().includes(only))) {
    console.log(`- ${f.name}`);
    rows.push(await runOne(f.name, f.property, img));
  }
  const header = ['fuzzer', 'cases', 'requests', 'server errors', 'hangs', 'no error code', 'conn./deaths', 'writes outside', 'orphans', 'restarts', 's'];
  const table = rows.map((r) => [r.name, r.stats.cases, r.stats.requests, r.stats.violations['server-error'], r.stats.violations.hang, r.stats.violations['no-error-code'], r.stats.violations.connection, r.stats.violations['write-outside'] + r.finalProblems.length, r.stats.violations.orphan, r.stats.restarts, Math.round(r.seconds)]);
  const sum = (i: number): number => table.reduce((n, row) => n + Number(row[i]), 0);
  table.push(['total', sum(1), sum(2), sum(3), sum(4), sum(5), sum(6), sum(7), sum(8), sum(9), sum(10)]);
  console.log('');
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of table) console.log(`| ${row.join(' | ')} |`);
  for (const r of rows) {
    const examples = [...r.stats.examples, ...r.finalProblems];
    if (examples.length === 0) continue;
    console.log(`\n${r.name}: first findings`);
    for (const e of examples.slice(0, 8)) console.log(`  - ${e.slice(0, 400)}`);
  }
  const bad = sum(3) + sum(4) + sum(5) + sum(6) + sum(7) + sum(8);
  process.exitCode = bad > 0 ? 1 : 0;
}

void main();
