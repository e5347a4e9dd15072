/**
 * Issue 27, real links: 2,000 small files (`BENCH_FILES`, 10 KB each, `BENCH_FILE_KB`) over a user's link —
 * 100 ms round trips, 200 Mbit/s up (`BENCH_RTT_MS`, `BENCH_MBIT`), made by the fault proxy's link mode in a
 * process of its own in front of the local service — through the transfer engine (1,000 files per
 * Assembly, each created by one streamed multipart request, every file's md5 verified) against the
 * vendor CLI `--single-assembly` (@transloadit/node, a tus upload per file) in the same run, each to
 * completed Assemblies. Goal: the engine ≥ 10 × the CLI.
 *
 *   npm run bench:link-small-files
 *   BENCH_ONLY=engine BENCH_TRACE=1 npm run bench:link-small-files   # the engine alone, every request and answer
 *   BENCH_PROFILE_DIR=/tmp/prof npm run bench:link-small-files         # the service's CPU profile
 *
 * Each row also prints the CPU per file of the engine (this process), the service and the link proxy: on a
 * loaded machine the engine's time is what those processes get of the cores, not the link's round trips.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { feedOf, type DraftFile } from '../electron/core/transfers/draft-feed';
import { openEngine } from '../electron/core/transfers/testing/engine-fixture';
import { cpuSeconds, fmt, profileArgs, ROOT, runBench, seconds, verdict, withBenchService, type BenchService } from './lib/bench-kit';
import { describeLink, spawnLinkProxy } from './lib/link-proxy';

const FILES = Number(process.env.BENCH_FILES ?? 2000);
const FILE_BYTES = Number(process.env.BENCH_FILE_KB ?? 10) * 1024;
const LINK = { rttMs: Number(process.env.BENCH_RTT_MS ?? 100), uplinkBps: Number(process.env.BENCH_MBIT ?? 200) * 1e6, downlinkBps: 1e9 };
const STEPS = { ':original': { robot: '/upload/handle' } };
const ONLY = (process.env.BENCH_ONLY ?? 'engine,cli').split(',');

async function makeFolder(dir: string): Promise<DraftFile[]> {
  await mkdir(dir, { recursive: true });
  const files: DraftFile[] = [];
  for (let i = 0; i < FILES; i++) {
    const name = `f${String(i).padStart(5, '0')}.bin`;
    await writeFile(path.join(dir, name), randomBytes(FILE_BYTES));
    files.push({ path: path.join(dir, name), relativePath: `in/${name}`, name, size: FILE_BYTES, mime: null, mtimeMs: Date.now() });
  }
  return files;
}

/** CPU seconds so far of the engine (this process), the service and the link proxy. */
function cpuNow(service: BenchService, proxyPid: number | undefined): [number, number, number] {
  const own = process.cpuUsage();
  return [(own.user + own.system) / 1e6, cpuSeconds(service.child.pid), cpuSeconds(proxyPid)];
}

/** Where the CPU went per file (ms): a run on a loaded machine is as fast as its processes get the cores. */
function cpuLine(before: [number, number, number], after: [number, number, number]): string {
  const per = (i: number) => fmt(((after[i]! - before[i]!) * 1000) / FILES, 2);
  return `CPU per file: engine ${per(0)} ms, service ${per(1)} ms, link proxy ${per(2)} ms`;
}

async function viaEngine(service: BenchService, proxyUrl: string, proxyPid: number | undefined, dataDir: string, files: DraftFile[]): Promise<number> {
  const h = await openEngine({ url: proxyUrl, authKey: service.authKey, authSecret: service.authSecret }, dataDir);
  try {
    const cpu0 = cpuNow(service, proxyPid);
    const t0 = process.hrtime.bigint();
    const t = await h.engine.start({ instructions: { steps: STEPS }, feed: feedOf('small', files) });
    if (!t.ok) throw new Error(t.error.message);
    const done = await h.engine.settled(t.value.id);
    const s = seconds(t0);
    const verified = h.engine.rows({ offset: 0, limit: 1, states: ['verified'] }).total;
    if (done.state !== 'done' || verified !== files.length) throw new Error(`engine: ${done.state}, ${String(verified)} of ${String(files.length)} verified`);
    console.log(cpuLine(cpu0, cpuNow(service, proxyPid)));
    return s;
  } finally {
    await h.close();
  }
}

function viaCli(service: BenchService, proxyUrl: string, proxyPid: number | undefined, inputDir: string, stepsFile: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const cpu0 = cpuNow(service, proxyPid);
    const t0 = process.hrtime.bigint();
    const args = [path.join(ROOT, 'node_modules/@transloadit/node/dist/cli.js'), 'assemblies', 'create', '--single-assembly', '--steps', stepsFile, '-i', inputDir, '--endpoint', proxyUrl, '-j'];
    const child = spawn(process.execPath, args, { env: { ...process.env, TRANSLOADIT_KEY: service.authKey, TRANSLOADIT_SECRET: service.authSecret }, stdio: ['ignore', 'pipe', 'pipe'], cwd: inputDir });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
    child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`CLI exited ${String(code)}: ${out}`));
      const s = seconds(t0);
      console.log(`${cpuLine(cpu0, cpuNow(service, proxyPid)).replace('engine', 'bench process')} (the CLI's own process not counted)`);
      resolve(s);
    });
  });
}

runBench(async () => {
  await withBenchService('bench-link-small-', async (dir, service) => {
    const inputDir = path.join(dir, 'in');
    const files = await makeFolder(inputDir);
    const stepsFile = path.join(dir, 'steps.json');
    await writeFile(stepsFile, JSON.stringify(STEPS));
    const proxy = await spawnLinkProxy(service.url, LINK);
    try {
      console.log(`${String(FILES)} files of ${String(FILE_BYTES / 1024)} KB over ${describeLink(LINK)}; load ${fmt(loadavg()[0]!)}`);
      const engine = ONLY.includes('engine') ? await viaEngine(service, proxy.url, proxy.pid, path.join(dir, 'engine-data'), files) : Number.NaN;
      if (ONLY.includes('engine')) console.log(`transfer engine: ${fmt(engine, 2)} s = ${fmt(FILES / engine, 0)} files/s (every file verified)`);
      const cli = ONLY.includes('cli') ? await viaCli(service, proxy.url, proxy.pid, inputDir, stepsFile) : Number.NaN;
      if (ONLY.includes('cli')) console.log(`vendor CLI --single-assembly: ${fmt(cli, 2)} s = ${fmt(FILES / cli, 0)} files/s`);
      if (ONLY.length < 2) return;
      const ratio = cli / engine;
      console.log('');
      console.log(`ratio engine / CLI: ${fmt(ratio, 1)} (${verdict(ratio >= 10)} the goal of ≥ 10; load ${fmt(loadavg()[0]!)})`);
    } finally {
      await proxy.close();
    }
  }, { nodeArgs: profileArgs() });
});
