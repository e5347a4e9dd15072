/**
 * Small files into ONE Assembly on the local service (issue 11: "the service alone must take 2,000 small
 * files into one Assembly from any client at ≥ 200 files/s"). 2,000 × 10 KB by default, sent three ways:
 *
 *   - the vendor's CLI, `transloadit assemblies create --single-assembly` (@transloadit/node, tus);
 *   - one multipart request carrying every file (as the SDKs send a form);
 *   - tus-js-client, 8 uploads at a time, into an Assembly that expects them all.
 *
 * Each is timed from its first request to ASSEMBLY_COMPLETED (an `/upload/handle`-only Assembly) and
 * printed as files/s. The reference, measured in the same run: the same bytes written as the same number
 * of files to disk by a plain Node loop (what "receiving" cannot beat). The service runs as its own
 * process (`node --import tsx service/cli.ts`), the clients here.
 *
 *   npm run bench:small-files
 *   BENCH_FILES=500 BENCH_ONLY=tus npm run bench:small-files
 *   BENCH_PROFILE_DIR=/tmp/prof npm run bench:small-files   # the service writes a .cpuprofile there
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Upload } from 'tus-js-client';
import { spawnService, type ServiceProcess } from '../service/testing/service-process';
import { cpuSeconds, fmt, seconds } from './lib/bench-kit';

const FILES = Number(process.env.BENCH_FILES ?? 2000);
const FILE_BYTES = Number(process.env.BENCH_FILE_KB ?? 10) * 1024;
const ONLY = process.env.BENCH_ONLY ?? '';
const TUS_CONCURRENCY = 8;
const AUTH_KEY = 'bench-small-key';
const AUTH_SECRET = randomBytes(20).toString('hex');
const ROOT = new URL('..', import.meta.url).pathname;
const STEPS = { ':original': { robot: '/upload/handle' } };

interface Status {
  ok?: string;
  error?: string;
  message?: string;
  assembly_ssl_url: string;
  tus_url: string;
  uploads?: unknown[];
}



async function waitForCompletion(url: string): Promise<Status> {
  for (;;) {
    const status = (await (await fetch(url)).json()) as Status;
    if (status.error || (status.ok !== 'ASSEMBLY_UPLOADING' && status.ok !== 'ASSEMBLY_EXECUTING')) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function checkDone(what: string, status: Status): void {
  const n = status.uploads?.length ?? 0;
  if (status.ok !== 'ASSEMBLY_COMPLETED' || n !== FILES) {
    throw new Error(`${what}: ${status.error ?? status.ok ?? '?'} with ${String(n)} uploads (${status.message ?? ''})`);
  }
}

/** The reference: the same bytes as FILES files, written one after another by a plain Node loop. */
async function diskLoop(dir: string, data: Buffer[]): Promise<number> {
  await mkdir(dir, { recursive: true });
  const start = process.hrtime.bigint();
  for (let i = 0; i < data.length; i++) await writeFile(path.join(dir, `f${String(i)}.bin`), data[i]!);
  return seconds(start);
}

/** `transloadit assemblies create --single-assembly`, the vendor CLI as a user runs it. */
function viaCli(service: ServiceProcess, inputDir: string, stepsFile: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'node_modules/@transloadit/node/dist/cli.js'), 'assemblies', 'create', '--single-assembly', '--steps', stepsFile, '-i', inputDir, '--endpoint', service.url, '-j'],
      { env: { ...process.env, TRANSLOADIT_KEY: AUTH_KEY, TRANSLOADIT_SECRET: AUTH_SECRET }, stdio: ['ignore', 'pipe', 'pipe'], cwd: inputDir },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      const took = seconds(start);
      if (code !== 0) return reject(new Error(`CLI exited ${String(code)}: ${out.slice(-2000)}`));
      resolve(took);
    });
  });
}

/** One multipart request with every file, as a form with params first. */
async function viaMultipart(service: ServiceProcess, data: Buffer[]): Promise<number> {
  const form = new FormData();
  form.set('params', JSON.stringify({ auth: { key: AUTH_KEY }, steps: STEPS }));
  data.forEach((d, i) => form.append(`file_${String(i)}`, new Blob([new Uint8Array(d)]), `f${String(i)}.bin`));
  const start = process.hrtime.bigint();
  const res = await fetch(`${service.url}/assemblies`, { method: 'POST', body: form });
  const created = (await res.json()) as Status;
  if (created.error) throw new Error(`multipart: ${created.error} ${created.message ?? ''}`);
  checkDone('multipart', await waitForCompletion(created.assembly_ssl_url));
  return seconds(start);
}

function tusUpload(data: Buffer, endpoint: string, metadata: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    new Upload(data, { endpoint, metadata, retryDelays: [], onError: reject, onSuccess: () => resolve() }).start();
  });
}

/** tus-js-client, TUS_CONCURRENCY at a time, into one Assembly that expects every file. */
async function viaTus(service: ServiceProcess, data: Buffer[]): Promise<number> {
  const start = process.hrtime.bigint();
  const body = new URLSearchParams({ params: JSON.stringify({ auth: { key: AUTH_KEY }, steps: STEPS }), tus_num_expected_upload_files: String(data.length) });
  const created = (await (await fetch(`${service.url}/assemblies`, { method: 'POST', body })).json()) as Status;
  if (created.error) throw new Error(`tus: ${created.error} ${created.message ?? ''}`);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < data.length) {
      const i = next++;
      await tusUpload(data[i]!, created.tus_url, { assembly_url: created.assembly_ssl_url, fieldname: 'file', filename: `f${String(i)}.bin` });
    }
  };
  await Promise.all(Array.from({ length: TUS_CONCURRENCY }, worker));
  checkDone('tus', await waitForCompletion(created.assembly_ssl_url));
  return seconds(start);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-small-'));
  const inputDir = path.join(dir, 'input');
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const env: Record<string, string> = { ASSEMBLYLINE_AUTH_SECRET: AUTH_SECRET };
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const service = await spawnService(['--port', '0', '--data-dir', path.join(dir, 'service'), '--auth-key', AUTH_KEY], env, nodeArgs).catch(async (e: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw e;
  });
  try {
    const data = Array.from({ length: FILES }, () => randomBytes(FILE_BYTES));
    await mkdir(inputDir);
    for (let i = 0; i < FILES; i++) await writeFile(path.join(inputDir, `f${String(i)}.bin`), data[i]!);
    const stepsFile = path.join(dir, 'steps.json');
    await writeFile(stepsFile, JSON.stringify(STEPS));
    console.log(`${String(FILES)} files × ${String(FILE_BYTES / 1024)} KB into one Assembly (service ${service.url})`);
    const refS = await diskLoop(path.join(dir, 'reference'), data);
    const refRate = FILES / refS;
    console.log(`reference: plain Node loop writing the files to disk: ${fmt(refRate, 0)} files/s (${fmt(refS, 2)} s)`);
    const rows: [string, number, number][] = [];
    const run = async (name: string, key: string, fn: () => Promise<number>): Promise<void> => {
      if (ONLY && !ONLY.split(',').includes(key)) return;
      const cpu0 = cpuSeconds(service.child.pid);
      const s = await fn();
      const cpu = cpuSeconds(service.child.pid) - cpu0;
      rows.push([name, s, cpu]);
      console.log(
        `${name}: ${fmt(FILES / s, 0)} files/s (${fmt(s, 2)} s) — ratio to the disk loop ${fmt(FILES / s / refRate, 3)}; ` +
          `service CPU ${fmt(cpu, 2)} s = ${fmt((1000 * cpu) / FILES, 2)} ms per file`,
      );
    };
    await run('multipart, one request', 'multipart', () => viaMultipart(service, data));
    await run(`tus-js-client, ${String(TUS_CONCURRENCY)} at a time`, 'tus', () => viaTus(service, data));
    await run('vendor CLI --single-assembly', 'cli', () => viaCli(service, inputDir, stepsFile));
    console.log('');
    // CPU time hardly depends on what else the machine runs: files per CPU second is what the service alone
    // could take with one core to itself, whatever the clients and other jobs cost.
    for (const [name, s, cpu] of rows) {
      const rate = FILES / s;
      console.log(
        `${name.padEnd(32)} ${fmt(rate, 0).padStart(6)} files/s  ${rate >= 200 ? 'meets' : 'MISSES'} the goal of ≥ 200 files/s; ` +
          `service alone: ${fmt(FILES / cpu, 0)} files per CPU second`,
      );
    }
  } finally {
    if (profileDir) {
      service.child.kill('SIGTERM');
      await new Promise((r) => service.child.once('exit', r));
      const profiles = (await readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile'));
      console.log(`CPU profiles in ${profileDir}: ${profiles.join(', ')}`);
    } else {
      await service.kill();
    }
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
