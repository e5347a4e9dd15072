/**
 * Upload throughput (P1, the service side): one large file (1 GiB by default) uploaded by tus-js-client
 * (streaming from disk by path, 64 MiB PATCHes, as the app's engine does) into an `/upload/handle`-only
 * Assembly on the local service, against a plain HTTP PUT of the same file to a sink that writes it to
 * disk (the reference: the service must keep what it acknowledges), all on 127.0.0.1, in one run. Each
 * server runs in a child process of its own, the clients run here. Prints the rates, the ratio service /
 * storing sink (goal ≥ 0.90), and how long after the last byte the Assembly completed (goal ≤ 0.5 s).
 *
 *   npm run bench:upload                      # 1 GiB, 2 rounds (alternating), best round of each
 *   BENCH_SIZE_MB=256 BENCH_ROUNDS=3 npm run bench:upload
 *   BENCH_PROFILE_DIR=/tmp/prof npm run bench:upload   # the service writes a .cpuprofile there
 *   BENCH_SERVICE_NODE_FLAGS=--trace-gc npm run bench:upload   # more flags for the service's node; its output shown
 *   BENCH_CHUNK_MB=16 npm run bench:upload    # bytes per PATCH (the engine's 16 MiB; 64 by default)
 *
 * Two more rows locate a gap: a PUT to a sink that discards the body, and tus-js-client against a tus
 * endpoint that discards what it receives (the client side alone). Rounds alternate so that page-cache
 * warmth and CPU frequency drift hit every row alike. The upload's time ends when tus reports it finished
 * (what the user sees as "Uploaded 100%"); the Assembly's completion after that is printed separately.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Upload } from 'tus-js-client';
import { cpuSeconds, fmt, threadCpu } from './lib/bench-kit';

interface Server {
  url: string;
  pid: number | undefined;
  /** CPU seconds (user + system, all threads) the server process has used so far. */
  cpuSeconds(): number;
  close(): Promise<void>;
}


const MiB = 1024 * 1024;
const sizeBytes = Number(process.env.BENCH_SIZE_MB ?? 1024) * MiB;
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const AUTH_KEY = 'bench-key';
/** Bytes per PATCH: 64 MiB by default; the transfer engine sends 16 MiB (BENCH_CHUNK_MB=16). */
const CHUNK_BYTES = Number(process.env.BENCH_CHUNK_MB ?? 64) * MiB;

interface Measurement {
  seconds: number;
  peakRssMb: number;
  /** CPU seconds the receiving server spent on it (NaN when not measured). */
  serverCpu: number;
  /** CPU seconds this process (the client) spent meanwhile. */
  clientCpu: number;
}

/** Samples RSS while `run` works, so a rate that comes from buffering the file whole would show. */
async function measure(run: () => Promise<void>, server?: Server): Promise<Measurement> {
  const cpu0 = server?.cpuSeconds() ?? Number.NaN;
  const client0 = process.cpuUsage();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const start = process.hrtime.bigint();
  try {
    await run();
  } finally {
    clearInterval(sampler);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const client = process.cpuUsage(client0);
  return {
    seconds,
    peakRssMb: Math.max(peak, process.memoryUsage().rss) / MiB,
    serverCpu: (server?.cpuSeconds() ?? Number.NaN) - cpu0,
    clientCpu: (client.user + client.system) / 1e6,
  };
}

async function writeTestFile(file: string): Promise<void> {
  // Incompressible bytes, written in 8 MiB blocks (not held whole in memory).
  const block = randomBytes(8 * MiB);
  const handle = await open(file, 'w');
  try {
    for (let written = 0; written < sizeBytes; written += block.length) {
      await handle.write(block, 0, Math.min(block.length, sizeBytes - written));
    }
  } finally {
    await handle.close();
  }
}

/** Starts a server process and resolves with the URL of its `listening on <url>` line. */
function spawnServer(args: readonly string[]): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (!url) return;
      child.stdout?.removeAllListeners('data');
      if (process.env.BENCH_SERVICE_NODE_FLAGS) child.stdout?.pipe(process.stderr); else child.stdout?.resume();
      resolve({
        url,
        pid: child.pid,
        cpuSeconds: () => cpuSeconds(child.pid),
        close: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${String(code)} before listening: ${out}`)));
  });
}

/** The reference: a server that reads and discards the body. */
const SINK = `require('node:http').createServer((req, res) => { req.on('data', () => {}); req.on('end', () => res.writeHead(204).end()); })
  .listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port + '/sink'); });`;

/**
 * A tus endpoint that counts and discards what it receives: the engine against it measures the client
 * side alone (tus-js-client, chunking, progress), with the same sink behaviour as the reference.
 */
const TUS_SINK = `let n = 0; const offsets = new Map();
require('node:http').createServer((req, res) => {
  const h = { 'Tus-Resumable': '1.0.0' };
  if (req.method === 'POST') { const id = String(++n); offsets.set(id, 0); req.resume(); return res.writeHead(201, { ...h, Location: '/files/' + id }).end(); }
  const id = req.url.split('/').pop();
  if (req.method === 'PATCH' && offsets.has(id)) {
    req.on('data', (d) => offsets.set(id, offsets.get(id) + d.length));
    return req.on('end', () => res.writeHead(204, { ...h, 'Upload-Offset': String(offsets.get(id)) }).end());
  }
  req.resume(); res.writeHead(404, h).end();
}).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port + '/files/'); });`;

/** A second reference that writes the body to a file, as any server that keeps an upload must. */
const STORING_SINK = `const fs = require('node:fs'); const file = process.argv[1];
require('node:http').createServer((req, res) => { const out = fs.createWriteStream(file); req.pipe(out); out.on('finish', () => res.writeHead(204).end()); })
  .listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port + '/store'); });`;

function putFile(url: string, file: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers: { 'Content-Length': String(sizeBytes), 'Content-Type': 'application/octet-stream' } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`sink answered ${String(res.statusCode)}`))));
    });
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}

interface AssemblyStatus {
  ok?: string;
  error?: string;
  message?: string;
  assembly_ssl_url: string;
  tus_url: string;
}

/** An Assembly that expects one tus upload and just stores it (as "Just store the originals" does). */
async function createAssembly(service: Server): Promise<AssemblyStatus> {
  const params = JSON.stringify({ auth: { key: AUTH_KEY }, steps: { ':original': { robot: '/upload/handle' } } });
  const body = new URLSearchParams({ params, tus_num_expected_upload_files: '1' });
  const res = await fetch(`${service.url}/assemblies`, { method: 'POST', body });
  const status = (await res.json()) as AssemblyStatus;
  if (!res.ok || status.error) throw new Error(`Assembly not created: ${status.error ?? res.status} ${status.message ?? ''}`);
  return status;
}

async function waitForCompletion(url: string): Promise<string> {
  for (;;) {
    const status = (await (await fetch(url)).json()) as AssemblyStatus;
    if (status.error) return status.error;
    if (status.ok === 'ASSEMBLY_COMPLETED' || status.ok === 'ASSEMBLY_CANCELED') return status.ok;
    // Fine enough to tell 0.5 s from more, light enough not to slow the service.
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** tus-js-client as the app uses it: streaming the file from disk by path, CHUNK_BYTES per PATCH. */
function tusUpload(endpoint: string, file: string, metadata: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(createReadStream(file), { endpoint, uploadSize: sizeBytes, chunkSize: CHUNK_BYTES, metadata, retryDelays: [], onError: reject, onSuccess: () => resolve() });
    upload.start();
  });
}

/**
 * Where the service's CPU went during an upload, per thread (seconds, user + system, per GiB): the main
 * thread, the hashing workers, libuv's pool (the disk writes: the kernel's copy into the page cache).
 */
function threadShares(before: ReturnType<typeof threadCpu>, after: ReturnType<typeof threadCpu>): string {
  const gib = sizeBytes / (1024 * MiB);
  const rows: string[] = [];
  for (const [tid, t] of after) {
    const b = before.get(tid) ?? { user: 0, system: 0 };
    const user = t.user - b.user;
    const system = t.system - b.system;
    if (user + system < 0.02) continue;
    rows.push(`${t.name}#${tid} ${fmt(user / gib, 2)}+${fmt(system / gib, 2)}`);
  }
  return rows.join(', ');
}

async function uploadToService(service: Server, file: string): Promise<{ upload: Measurement; completedAfterS: number; outcome: string; threads: string }> {
  const assembly = await createAssembly(service);
  const threads0 = threadCpu(service.pid);
  const upload = await measure(() => tusUpload(assembly.tus_url, file, { assembly_url: assembly.assembly_ssl_url, fieldname: 'file', filename: 'big.bin' }), service);
  const threads = threadShares(threads0, threadCpu(service.pid));
  const start = process.hrtime.bigint();
  const outcome = await waitForCompletion(assembly.assembly_ssl_url);
  return { upload, completedAfterS: Number(process.hrtime.bigint() - start) / 1e9, outcome, threads };
}

const uploadToTusSink = (tusUrl: string, file: string): Promise<void> => tusUpload(tusUrl, file, { filename: 'big.bin' });

const rate = (m: Measurement): number => sizeBytes / MiB / m.seconds;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'al-bench-'));
  const file = path.join(dir, 'big.bin');
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  // More flags for the service's node (e.g. --trace-gc), split on spaces.
  profile.push(...(process.env.BENCH_SERVICE_NODE_FLAGS ?? '').split(' ').filter(Boolean));
  const service = await spawnServer([...profile, '--import', 'tsx', 'service/cli.ts', '--port', '0', '--data-dir', path.join(dir, 'service'), '--auth-key', AUTH_KEY, '--auth-secret', 'bench-secret']);
  const sink = await spawnServer(['-e', SINK]);
  const storingSink = await spawnServer(['-e', STORING_SINK, path.join(dir, 'stored.bin')]);
  const tusSink = await spawnServer(['-e', TUS_SINK]);
  try {
    console.log(`writing a ${fmt(sizeBytes / MiB, 0)} MiB test file…`);
    await writeTestFile(file);
    const discarding: Measurement[] = [];
    const storing: Measurement[] = [];
    const service_: Measurement[] = [];
    const toTusSink: Measurement[] = [];
    const delays: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const dis = await measure(() => putFile(sink.url, file));
      discarding.push(dis);
      console.log(`round ${String(round)} PUT to a discarding sink   : ${fmt(rate(dis))} MiB/s (${fmt(dis.seconds, 2)} s, peak RSS ${fmt(dis.peakRssMb, 0)} MiB)`);
      const sto = await measure(() => putFile(storingSink.url, file), storingSink);
      storing.push(sto);
      console.log(`round ${String(round)} PUT to a storing sink (ref): ${fmt(rate(sto))} MiB/s (${fmt(sto.seconds, 2)} s, sink CPU ${fmt(sto.serverCpu, 2)} s)`);
      const ets = await measure(() => uploadToTusSink(tusSink.url, file));
      toTusSink.push(ets);
      console.log(`round ${String(round)} tus-js-client → tus sink    : ${fmt(rate(ets))} MiB/s (${fmt(ets.seconds, 2)} s, peak RSS ${fmt(ets.peakRssMb, 0)} MiB)`);
      const svc = await uploadToService(service, file);
      service_.push(svc.upload);
      delays.push(svc.completedAfterS);
      console.log(
        `round ${String(round)} tus-js-client → service     : ${fmt(rate(svc.upload))} MiB/s (${fmt(svc.upload.seconds, 2)} s, service CPU ${fmt(svc.upload.serverCpu, 2)} s, peak RSS ${fmt(svc.upload.peakRssMb, 0)} MiB; ` +
          `${svc.outcome} ${fmt(svc.completedAfterS, 2)} s after the last byte)`,
      );
      console.log(`  service CPU per GiB by thread (user+system s): ${svc.threads}`);
    }
    const best = (ms: Measurement[]): Measurement => ms.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
    const dis = best(discarding);
    const svc = best(service_);
    const sto = best(storing);
    const ets = best(toTusSink);
    console.log('');
    console.log(`PUT to a discarding sink:                 ${fmt(rate(dis))} MiB/s`);
    console.log(`PUT to a sink that stores to disk (ref):  ${fmt(rate(sto))} MiB/s`);
    console.log(`tus-js-client → discarding tus sink:      ${fmt(rate(ets))} MiB/s`);
    console.log(`tus-js-client → local service:            ${fmt(rate(svc))} MiB/s`);
    console.log(`ratio service / storing sink: ${fmt(rate(svc) / rate(sto), 2)} (goal ≥ 0.90)`);
    console.log(`ratio service / discarding sink: ${fmt(rate(svc) / rate(dis), 2)}`);
    console.log(`ratio tus sink / discarding sink (the client side alone): ${fmt(rate(ets) / rate(dis), 2)}`);
    const gib = sizeBytes / (1024 * MiB);
    const cpuPerGib = (ms: Measurement[]): string => fmt(Math.min(...ms.map((m) => m.serverCpu)) / gib, 2);
    // CPU time barely depends on what else the machine runs; wall-clock rates on a shared machine do.
    console.log(`CPU per GiB received (best round): storing sink ${cpuPerGib(storing)} s, service ${cpuPerGib(service_)} s`);
    // On 2 shared cores the rate follows the CPU both ends spend per GiB, so the sum says most of the ratio.
    const bothPerGib = (m: Measurement): number => (m.serverCpu + m.clientCpu) / gib;
    console.log(
      `CPU per GiB, client + server (best round): PUT + storing sink ${fmt(bothPerGib(sto), 2)} s (client ${fmt(sto.clientCpu / gib, 2)}), ` +
        `tus-js-client + service ${fmt(bothPerGib(svc), 2)} s (client ${fmt(svc.clientCpu / gib, 2)}); their quotient ${fmt(bothPerGib(sto) / bothPerGib(svc), 2)}`,
    );
    console.log(`Assembly completed after the last byte: ${delays.map((d) => fmt(d, 2)).join(', ')} s (goal ≤ 0.5 s)`);
  } finally {
    await sink.close();
    await storingSink.close();
    await tusSink.close();
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
