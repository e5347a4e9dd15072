/**
 * Issue 27, real links: one large file (1 GiB, `BENCH_SIZE_MB`) over a user's link — 100 ms round trips and
 * 200 Mbit/s up (`BENCH_RTT_MS`, `BENCH_MBIT`; a 4 MiB window per connection, `BENCH_WINDOW_KB`), made by the
 * fault proxy's link mode in a process of its own in front of the local service — three ways, each to a
 * completed `/upload/handle` Assembly with the file's md5: the transfer engine (tus, the file in 4 parallel
 * parts joined by tus concatenation), tus-js-client in one stream (one PATCH), and the vendor CLI
 * (@transloadit/node). Reference: the link's capacity. Goal: the engine ≥ 0.9 of it.
 *
 *   npm run bench:link-large-file
 *   BENCH_SIZE_MB=256 BENCH_ONLY=engine,tus npm run bench:link-large-file
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { Upload } from 'tus-js-client';
import { feedOf } from '../electron/core/transfers/draft-feed';
import { assembliesOf, openEngine } from '../electron/core/transfers/testing/engine-fixture';
import { writeNumberedFile } from './lib/file-tree';
import { cpuSeconds, fmt, MiB, ROOT, runBench, seconds, verdict, withBenchService, type BenchService } from './lib/bench-kit';
import { describeLink, spawnLinkProxy } from './lib/link-proxy';

const SIZE = Number(process.env.BENCH_SIZE_MB ?? 1024) * MiB;
const LINK = { rttMs: Number(process.env.BENCH_RTT_MS ?? 100), uplinkBps: Number(process.env.BENCH_MBIT ?? 200) * 1e6, downlinkBps: 1e9, windowBytes: Number(process.env.BENCH_WINDOW_KB ?? 4096) * 1024 };
const ONLY = (process.env.BENCH_ONLY ?? 'engine,tus,cli').split(',');
const STEPS = { ':original': { robot: '/upload/handle' } };

const makeFile = (file: string): Promise<string> => writeNumberedFile(file, SIZE);

async function statusOf(url: string): Promise<Record<string, unknown>> {
  for (;;) {
    const s = (await (await fetch(url)).json()) as Record<string, unknown>;
    if (s.ok !== 'ASSEMBLY_UPLOADING' && s.ok !== 'ASSEMBLY_EXECUTING') return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function check(status: Record<string, unknown> | undefined, md5: string, who: string): void {
  const upload = (status?.uploads as Record<string, unknown>[] | undefined)?.[0];
  if (status?.ok !== 'ASSEMBLY_COMPLETED' || upload?.md5hash !== md5 || upload.size !== SIZE) throw new Error(`${who}: the Assembly did not get the file (${String(status?.ok ?? status?.error)}, md5 ${String(upload?.md5hash)})`);
}

async function viaEngine(service: BenchService, proxyUrl: string, dir: string, file: string, md5: string): Promise<number> {
  // The proxy is on 127.0.0.1, but it is a long fat link: parts as to any remote deployment.
  const h = await openEngine({ url: proxyUrl, authKey: service.authKey, authSecret: service.authSecret }, path.join(dir, 'engine-data'), {}, { parallel: { loopback: true } });
  try {
    const t0 = process.hrtime.bigint();
    const t = await h.engine.start({ instructions: { steps: STEPS }, feed: feedOf('big', [{ path: file, relativePath: 'big/big.bin', name: 'big.bin', size: SIZE, mime: null, mtimeMs: Date.now() }]) });
    if (!t.ok) throw new Error(t.error.message);
    await h.engine.settled(t.value.id);
    const s = seconds(t0);
    check((await assembliesOf(h, t.value.id))[0] as Record<string, unknown> | undefined, md5, 'engine');
    return s;
  } finally {
    await h.close();
  }
}

async function viaTusJs(service: BenchService, proxyUrl: string, file: string, md5: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const form = new FormData();
  form.set('params', JSON.stringify({ auth: { key: service.authKey }, steps: STEPS }));
  form.set('tus_num_expected_upload_files', '1');
  const assembly = (await (await fetch(`${proxyUrl}/assemblies`, { method: 'POST', body: form })).json()) as Record<string, unknown>;
  const assemblyUrl = String(assembly.assembly_ssl_url);
  await new Promise((resolve, reject) => {
    new Upload(createReadStream(file), { endpoint: String(assembly.tus_url), uploadSize: SIZE, metadata: { assembly_url: assemblyUrl, filename: 'big.bin' }, retryDelays: [], onError: reject, onSuccess: resolve }).start();
  });
  const done = await statusOf(assemblyUrl);
  const s = seconds(t0);
  check(done, md5, 'tus-js-client');
  return s;
}

function viaCli(service: BenchService, proxyUrl: string, dir: string, stepsFile: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const args = [path.join(ROOT, 'node_modules/@transloadit/node/dist/cli.js'), 'assemblies', 'create', '--steps', stepsFile, '-i', path.join(dir, 'big.bin'), '--endpoint', proxyUrl, '-j'];
    const child = spawn(process.execPath, args, { env: { ...process.env, TRANSLOADIT_KEY: service.authKey, TRANSLOADIT_SECRET: service.authSecret }, stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
    child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
    child.once('exit', (code) => (code === 0 ? resolve(seconds(t0)) : reject(new Error(`CLI exited ${String(code)}: ${out}`))));
  });
}

runBench(async () => {
  await withBenchService('bench-link-large-', async (dir, service) => {
    const file = path.join(dir, 'big.bin');
    const md5 = await makeFile(file);
    const stepsFile = path.join(dir, 'steps.json');
    await writeFile(stepsFile, JSON.stringify(STEPS));
    const proxy = await spawnLinkProxy(service.url, LINK);
    const capacity = LINK.uplinkBps / 8;
    const mib = SIZE / MiB;
    console.log(`${fmt(mib, 0)} MiB over ${describeLink(LINK)} (capacity ${fmt(capacity / MiB)} MiB/s: ${fmt(SIZE / capacity)} s at best); load ${fmt(loadavg()[0]!)}`);
    const rows: Array<[string, number]> = [];
    try {
      for (const [key, label, run] of [
        ['engine', 'transfer engine, 4 parallel parts', () => viaEngine(service, proxy.url, dir, file, md5)],
        ['tus', 'tus-js-client, one stream', () => viaTusJs(service, proxy.url, file, md5)],
        ['cli', 'vendor CLI', () => viaCli(service, proxy.url, dir, stepsFile)],
      ] as const) {
        if (!ONLY.includes(key)) continue;
        const cpu0 = cpuSeconds(service.child.pid);
        const s = await run();
        rows.push([key, s]);
        console.log(`${label}: ${fmt(s)} s = ${fmt(mib / s)} MiB/s = ${fmt(SIZE / s / capacity, 2)} of the link; service CPU ${fmt(cpuSeconds(service.child.pid) - cpu0)} s`);
      }
    } finally {
      await proxy.close();
    }
    const engine = rows.find(([k]) => k === 'engine')?.[1];
    console.log('');
    if (engine !== undefined) {
      const share = SIZE / engine / capacity;
      console.log(`engine: ${fmt(share, 2)} of the link's capacity (${verdict(share >= 0.9)} the goal of ≥ 0.9; load ${fmt(loadavg()[0]!)})`);
      for (const [k, s] of rows) if (k !== 'engine') console.log(`engine / ${k}: ${fmt(s / engine, 2)} × as fast`);
    }
  });
});
