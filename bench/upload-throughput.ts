/**
 * Upload throughput: one large file (1 GiB by default) through the app's upload engine (tus-js-client,
 * 64 MiB chunks) into an Assembly on the embedded local service, against a plain HTTP PUT of the same
 * file to a trivial sink that discards the bytes, both on 127.0.0.1, in one run. Each server runs in a
 * child process of its own (as a server would), the clients run here. Prints both rates and their ratio
 * (engine / reference); the goal is a ratio of at least 0.9.
 *
 *   npm run bench:upload                      # 1 GiB, 2 rounds (alternating), best round of each
 *   BENCH_SIZE_MB=256 BENCH_ROUNDS=3 npm run bench:upload
 *
 * A second reference stores the PUT body to a file, since the service must persist what it acknowledges
 * (the ratio against it shows what tus and the service cost beyond the disk write).
 * Rounds alternate (reference, storing, engine, reference…) so that page-cache warmth and CPU frequency
 * drift hit both sides alike. The engine's time ends when tus reports the upload finished (what the user
 * sees as "Uploaded 100%"); the Assembly's completion afterwards is printed separately.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { uploadTus } from '../electron/core/transfers/tus-worker';
import { systemClock } from '../electron/core/uploads/clock';

/** One file through the transfer engine's tus worker (reads, hashes and sends it as the engine does). */
async function engineUpload(file: string, tusUrl: string, assemblyUrl: string): Promise<void> {
  const outcome = await uploadTus({
    path: file, name: 'big.bin', size: sizeBytes, relativePath: 'big.bin', tusUrl, assemblyUrl, uploadUrl: null,
    chunkSize: 64 * 1024 * 1024, stallMs: 60_000, bucket: null, clock: systemClock, onUploadUrl: () => undefined, onProgress: () => undefined,
  }).done;
  if (outcome.kind !== 'uploaded') throw new Error(`upload did not finish: ${JSON.stringify(outcome)}`);
}

interface Server {
  url: string;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;
const sizeBytes = Number(process.env.BENCH_SIZE_MB ?? 1024) * MiB;
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const AUTH_KEY = 'bench-key';

interface Measurement {
  seconds: number;
  peakRssMb: number;
}

/** Samples RSS while `run` works, so a rate that comes from buffering the file whole would show. */
async function measure(run: () => Promise<void>): Promise<Measurement> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const start = process.hrtime.bigint();
  try {
    await run();
  } finally {
    clearInterval(sampler);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { seconds, peakRssMb: Math.max(peak, process.memoryUsage().rss) / MiB };
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
      child.stdout?.resume();
      resolve({
        url,
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
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function uploadThroughEngine(service: Server, file: string): Promise<{ upload: Measurement; completedAfterS: number; outcome: string }> {
  const assembly = await createAssembly(service);
  const upload = await measure(async () => {
    await engineUpload(file, assembly.tus_url, assembly.assembly_ssl_url);
  });
  const start = Date.now();
  const outcome = await waitForCompletion(assembly.assembly_ssl_url);
  return { upload, completedAfterS: (Date.now() - start) / 1000, outcome };
}

async function uploadToTusSink(tusUrl: string, file: string): Promise<void> {
  await engineUpload(file, tusUrl, 'http://127.0.0.1/assemblies/bench');
}

const rate = (m: Measurement): number => sizeBytes / MiB / m.seconds;
const fmt = (n: number, digits = 1): string => n.toFixed(digits);

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'al-bench-'));
  const file = path.join(dir, 'big.bin');
  const service = await spawnServer(['--import', 'tsx', 'service/cli.ts', '--port', '0', '--data-dir', path.join(dir, 'service'), '--auth-key', AUTH_KEY, '--auth-secret', 'bench-secret']);
  const sink = await spawnServer(['-e', SINK]);
  const storingSink = await spawnServer(['-e', STORING_SINK, path.join(dir, 'stored.bin')]);
  const tusSink = await spawnServer(['-e', TUS_SINK]);
  try {
    console.log(`writing a ${fmt(sizeBytes / MiB, 0)} MiB test file…`);
    await writeTestFile(file);
    const reference: Measurement[] = [];
    const storing: Measurement[] = [];
    const engine: Measurement[] = [];
    const engineToSink: Measurement[] = [];
    for (let round = 1; round <= rounds; round++) {
      const ref = await measure(() => putFile(sink.url, file));
      reference.push(ref);
      console.log(`round ${String(round)} reference PUT to sink : ${fmt(rate(ref))} MiB/s (${fmt(ref.seconds, 2)} s, peak RSS ${fmt(ref.peakRssMb, 0)} MiB)`);
      const sto = await measure(() => putFile(storingSink.url, file));
      storing.push(sto);
      console.log(`round ${String(round)} PUT to storing sink    : ${fmt(rate(sto))} MiB/s (${fmt(sto.seconds, 2)} s)`);
      const ets = await measure(() => uploadToTusSink(tusSink.url, file));
      engineToSink.push(ets);
      console.log(`round ${String(round)} upload engine → tus sink   : ${fmt(rate(ets))} MiB/s (${fmt(ets.seconds, 2)} s, peak RSS ${fmt(ets.peakRssMb, 0)} MiB)`);
      const eng = await uploadThroughEngine(service, file);
      engine.push(eng.upload);
      console.log(
        `round ${String(round)} upload engine → service: ${fmt(rate(eng.upload))} MiB/s (${fmt(eng.upload.seconds, 2)} s, peak RSS ${fmt(eng.upload.peakRssMb, 0)} MiB; ` +
          `${eng.outcome} ${fmt(eng.completedAfterS, 2)} s after the upload)`,
      );
    }
    const best = (ms: Measurement[]): Measurement => ms.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
    const ref = best(reference);
    const eng = best(engine);
    const sto = best(storing);
    const ets = best(engineToSink);
    console.log('');
    console.log(`reference (plain HTTP PUT to a sink): ${fmt(rate(ref))} MiB/s`);
    console.log(`PUT to a sink that stores to disk:   ${fmt(rate(sto))} MiB/s`);
    console.log(`upload engine → discarding tus sink: ${fmt(rate(ets))} MiB/s`);
    console.log(`upload engine (tus → local service): ${fmt(rate(eng))} MiB/s`);
    console.log(`ratio engine / reference: ${fmt(rate(eng) / rate(ref), 2)} (goal ≥ 0.90)`);
    console.log(`ratio engine / storing sink: ${fmt(rate(eng) / rate(sto), 2)}`);
    console.log(`ratio engine → tus sink / reference (the client side alone): ${fmt(rate(ets) / rate(ref), 2)}`);
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
