/**
 * P2 (issue 11): 10,000 files of 10 KB from a folder to completed Assemblies through the transfer engine,
 * against the vendor's Node SDK CLI (`transloadit assemblies create` from @transloadit/node) on the same
 * kind of folder and the same service: one Assembly per file (the CLI's default) and `--single-assembly`.
 * Goal: the engine ≥ 3 × the CLI and ≥ 1,000 files/s (issue 27).
 *
 *   npm run bench:small-files-engine
 *   BENCH_FILES=2000 BENCH_CLI_FILES=300 npm run bench:small-files-engine
 *
 * The engine runs as the app runs it (createTransferEngine with the run manager; default settings: batches
 * of 1,000 files, files ≤ 4 MiB in the create request, 4 requests at once), timed from `start` until
 * every batch's Assembly is ASSEMBLY_COMPLETED and every file's md5 is verified. The CLI runs on a folder
 * of `BENCH_CLI_FILES` files (default 1,000: one Assembly per file takes long) and is compared in files/s.
 * The service runs in its own process (`node --import tsx service/cli.ts`).
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { feedOf, type DraftFile } from '../electron/core/transfers/draft-feed';
import { openEngine } from '../electron/core/transfers/testing/engine-fixture';
import { cpuSeconds, fmt, profileArgs, ROOT, runBench, seconds, verdict, withBenchService, type BenchService } from './lib/bench-kit';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const CLI_FILES = Number(process.env.BENCH_CLI_FILES ?? 1_000);
const FILE_BYTES = Number(process.env.BENCH_FILE_KB ?? 10) * 1024;
const ONLY = process.env.BENCH_ONLY ?? '';
const STEPS = { ':original': { robot: '/upload/handle' } };


async function makeFolder(dir: string, count: number): Promise<DraftFile[]> {
  await mkdir(dir, { recursive: true });
  const files: DraftFile[] = [];
  for (let i = 0; i < count; i++) {
    const name = `f${String(i).padStart(5, '0')}.bin`;
    const file = path.join(dir, name);
    await writeFile(file, randomBytes(FILE_BYTES));
    files.push({ path: file, relativePath: `${path.basename(dir)}/${name}`, name, size: FILE_BYTES, mime: null, mtimeMs: Date.now() });
  }
  return files;
}

function cli(service: BenchService, inputDir: string, stepsFile: string, single: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const args = [path.join(ROOT, 'node_modules/@transloadit/node/dist/cli.js'), 'assemblies', 'create', ...(single ? ['--single-assembly'] : []), '--steps', stepsFile, '-i', inputDir, '--endpoint', service.url, '-j'];
    const child = spawn(process.execPath, args, { env: { ...process.env, TRANSLOADIT_KEY: service.authKey, TRANSLOADIT_SECRET: service.authSecret }, stdio: ['ignore', 'pipe', 'pipe'], cwd: inputDir });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
    child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
    child.once('exit', (code) => (code === 0 ? resolve(seconds(start)) : reject(new Error(`CLI exited ${String(code)}: ${out}`))));
  });
}

async function viaEngine(service: BenchService, dataDir: string, files: DraftFile[]): Promise<{ s: number; assemblies: number }> {
  const h = await openEngine(service, dataDir);
  try {
    const start = process.hrtime.bigint();
    const t = await h.engine.start({ instructions: { steps: STEPS }, feed: feedOf('bench', files) });
    if (!t.ok) throw new Error(t.error.message);
    const done = await h.engine.settled(t.value.id);
    const s = seconds(start);
    const verified = h.engine.rows({ offset: 0, limit: 1, states: ['verified'] }).total;
    const batches = h.engine.batchesOf(t.value.id);
    if (done.state !== 'done' || verified !== files.length || batches.some((b) => b.state !== 'completed')) {
      throw new Error(`engine: ${done.state}, ${String(verified)} of ${String(files.length)} verified, batches ${batches.map((b) => b.state).join(',')}`);
    }
    return { s, assemblies: batches.length };
  } finally {
    await h.close();
  }
}

async function main(): Promise<void> {
  await withBenchService('bench-engine-small-', async (dir, service) => {
    console.log(`writing ${String(FILES)} + ${String(CLI_FILES)} files of ${String(FILE_BYTES / 1024)} KB… (service ${service.url})`);
    const files = await makeFolder(path.join(dir, 'engine-input'), FILES);
    await makeFolder(path.join(dir, 'cli-input'), CLI_FILES);
    const stepsFile = path.join(dir, 'steps.json');
    await writeFile(stepsFile, JSON.stringify(STEPS));
    const want = (key: string) => !ONLY || ONLY.split(',').includes(key);

    const rates: Record<string, number> = {};
    if (want('engine')) {
      const serviceCpu0 = cpuSeconds(service.child.pid);
      const ownCpu0 = process.cpuUsage();
      const { s, assemblies } = await viaEngine(service, path.join(dir, 'engine-data'), files);
      const own = process.cpuUsage(ownCpu0);
      const engineMs = ((own.user + own.system) / 1000 / FILES).toFixed(2);
      const serviceMs = (((cpuSeconds(service.child.pid) - serviceCpu0) * 1000) / FILES).toFixed(2);
      rates.engine = FILES / s;
      console.log(`transfer engine: ${String(FILES)} files in ${String(assemblies)} Assemblies, ${fmt(s, 2)} s = ${fmt(rates.engine, 0)} files/s (every file verified)`);
      console.log(`  CPU per file: engine (this process) ${engineMs} ms, service ${serviceMs} ms`);
    }
    if (want('cli-single')) {
      const serviceCpu0 = cpuSeconds(service.child.pid);
      const s = await cli(service, path.join(dir, 'cli-input'), stepsFile, true);
      console.log(`  service CPU per file for the CLI: ${(((cpuSeconds(service.child.pid) - serviceCpu0) * 1000) / CLI_FILES).toFixed(2)} ms`);
      rates.single = CLI_FILES / s;
      console.log(`vendor CLI --single-assembly: ${String(CLI_FILES)} files, ${fmt(s, 2)} s = ${fmt(rates.single, 0)} files/s`);
    }
    if (want('cli')) {
      const s = await cli(service, path.join(dir, 'cli-input'), stepsFile, false);
      rates.perFile = CLI_FILES / s;
      console.log(`vendor CLI, one Assembly per file: ${String(CLI_FILES)} files, ${fmt(s, 2)} s = ${fmt(rates.perFile, 0)} files/s`);
    }
    console.log('');
    if (rates.engine !== undefined) {
      console.log(`engine ${fmt(rates.engine, 0)} files/s: ${verdict(rates.engine >= 1000)} the goal of ≥ 1,000 files/s (load ${loadavg()[0]!.toFixed(1)})`);
      for (const [name, key] of [['--single-assembly', 'single'], ['one Assembly per file', 'perFile']] as const) {
        const ref = rates[key];
        if (ref === undefined) continue;
        const ratio = rates.engine / ref;
        console.log(`ratio engine / CLI ${name}: ${fmt(ratio, 2)} (${verdict(ratio >= 3)} the goal of ≥ 3)`);
      }
    }
  }, { nodeArgs: profileArgs() });
}

runBench(main);
