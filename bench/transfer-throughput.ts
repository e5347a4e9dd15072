/**
 * P1 (issue 11) through the transfer engine: one large file (1 GiB; BENCH_SIZE_MB) from `transfers` start
 * until the service confirmed its last byte, against a plain HTTP PUT of the same file to a sink that
 * stores the body to disk, both on 127.0.0.1, in the same run. Also: how long after the last byte the
 * Assembly (`/upload/handle` only) is ASSEMBLY_COMPLETED, and the checksum verified.
 * Goals: engine / storing PUT ≥ 0.90; completion ≤ 0.5 s after the last byte.
 *
 *   npm run bench:transfer-throughput
 *   BENCH_SIZE_MB=256 BENCH_ROUNDS=3 npm run bench:transfer-throughput
 *
 * The engine runs with its defaults (tus, 16 MiB PATCHes, md5 computed while reading); the service and the
 * sink each run in a process of their own; rounds alternate and the best round of each side counts.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { feedOf } from '../electron/core/transfers/draft-feed';
import { openEngine } from '../electron/core/transfers/testing/engine-fixture';
import { spawnService, type ServiceProcess } from '../service/testing/service-process';
import { cpuSeconds } from './lib/bench-kit';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_SIZE_MB ?? 1024) * MiB;
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
/** tus bytes per PATCH (the engine's default 16 MiB). */
const CHUNK = Number(process.env.BENCH_CHUNK_MB ?? 16) * MiB;
const AUTH_KEY = 'bench-throughput-key';
const AUTH_SECRET = randomBytes(20).toString('hex');

const STORING_SINK = `const fs = require('node:fs'); const file = process.argv[1];
require('node:http').createServer((req, res) => { const out = fs.createWriteStream(file); req.pipe(out); out.on('finish', () => res.writeHead(204).end()); })
  .listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port + '/store'); });`;

function spawnSink(file: string): Promise<{ url: string; pid: number | undefined; close(): void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', STORING_SINK, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ url, pid: child.pid, close: () => void child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`sink exited ${String(code)}: ${out}`)));
  });
}

function put(url: string, file: string): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers: { 'Content-Length': String(SIZE) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 204 ? resolve(Number(process.hrtime.bigint() - start) / 1e9) : reject(new Error(`sink ${String(res.statusCode)}`))));
    });
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}

async function writeFile(file: string): Promise<void> {
  const block = randomBytes(8 * MiB);
  const handle = await open(file, 'w');
  try {
    for (let written = 0; written < SIZE; written += block.length) {
      block.writeUInt32LE(written, 0);
      await handle.write(block, 0, Math.min(block.length, SIZE - written));
    }
  } finally {
    await handle.close();
  }
}

async function viaEngine(service: ServiceProcess, dataDir: string, file: string): Promise<{ uploadS: number; completedAfterS: number; verified: boolean }> {
  const h = await openEngine({ url: service.url, authKey: AUTH_KEY, authSecret: AUTH_SECRET }, dataDir, {}, { chunkSize: CHUNK });
  try {
    const start = process.hrtime.bigint();
    const t = await h.engine.start({ instructions: { steps: { ':original': { robot: '/upload/handle' } } }, feed: feedOf('bench', [{ path: file, relativePath: 'big.bin', name: 'big.bin', size: SIZE, mime: null, mtimeMs: 0 }]) });
    if (!t.ok) throw new Error(t.error.message);
    let uploadedAt = 0n;
    let completedAt = 0n;
    for (;;) {
      const row = h.engine.rows({ offset: 0, limit: 1 }).rows[0];
      const batch = h.engine.batchesOf(t.value.id)[0];
      if (!uploadedAt && row && (row.state === 'uploaded' || row.state === 'verified')) uploadedAt = process.hrtime.bigint();
      if (!completedAt && batch?.state === 'completed') completedAt = process.hrtime.bigint();
      if (row?.state === 'failed' || batch?.state === 'failed') throw new Error(`engine: ${row?.error ?? batch?.error?.message ?? 'failed'}`);
      if (uploadedAt && completedAt && row?.state === 'verified') break;
      await new Promise((r) => setTimeout(r, 5));
    }
    return { uploadS: Number(uploadedAt - start) / 1e9, completedAfterS: Math.max(0, Number(completedAt - uploadedAt) / 1e9), verified: true };
  } finally {
    await h.close();
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-transfer-throughput-'));
  const service = await spawnService(['--port', '0', '--data-dir', path.join(dir, 'service'), '--auth-key', AUTH_KEY], { ASSEMBLYLINE_AUTH_SECRET: AUTH_SECRET });
  const sink = await spawnSink(path.join(dir, 'stored.bin'));
  try {
    const file = path.join(dir, 'big.bin');
    console.log(`writing a ${String(SIZE / MiB)} MiB file…`);
    await writeFile(file);
    const refs: number[] = [];
    const engines: Array<{ uploadS: number; completedAfterS: number }> = [];
    const gib = SIZE / (1024 * MiB);
    // CPU per GiB of this process (the client: the PUT, or the engine) and of the receiving server: on 2
    // shared cores the rate follows what both ends spend.
    const cpuOf = async <T>(serverPid: number | undefined, run: () => Promise<T>): Promise<{ value: T; text: string }> => {
      const client0 = process.cpuUsage();
      const server0 = cpuSeconds(serverPid);
      const value = await run();
      const c = process.cpuUsage(client0);
      const client = (c.user + c.system) / 1e6 / gib;
      const server = (cpuSeconds(serverPid) - server0) / gib;
      return { value, text: `CPU per GiB: client ${client.toFixed(2)} s + server ${server.toFixed(2)} s = ${(client + server).toFixed(2)} s` };
    };
    for (let round = 1; round <= ROUNDS; round++) {
      const ref = await cpuOf(sink.pid, () => put(sink.url, file));
      refs.push(ref.value);
      console.log(`round ${String(round)}: PUT to a storing sink ${(SIZE / MiB / ref.value).toFixed(0)} MiB/s (${ref.text})`);
      const e = await cpuOf(service.child.pid, () => viaEngine(service, path.join(dir, `engine-${String(round)}`), file));
      engines.push(e.value);
      console.log(
        `round ${String(round)}: transfer engine ${(SIZE / MiB / e.value.uploadS).toFixed(0)} MiB/s, Assembly completed ${e.value.completedAfterS.toFixed(2)} s after the last byte, md5 verified (${e.text}, the engine's start and end included)`,
      );
    }
    const bestRef = Math.min(...refs);
    const bestEngine = Math.min(...engines.map((e) => e.uploadS));
    const ratio = bestRef / bestEngine;
    const completion = Math.min(...engines.map((e) => e.completedAfterS));
    console.log('');
    console.log(`best: storing PUT ${(SIZE / MiB / bestRef).toFixed(0)} MiB/s, engine ${(SIZE / MiB / bestEngine).toFixed(0)} MiB/s`);
    console.log(`ratio engine / storing PUT: ${ratio.toFixed(2)} (${ratio >= 0.9 ? 'meets' : 'MISSES'} the goal of ≥ 0.90)`);
    console.log(`completion after the last byte: ${completion.toFixed(2)} s (${completion <= 0.5 ? 'meets' : 'MISSES'} the goal of ≤ 0.5 s)`);
  } finally {
    sink.close();
    await service.kill();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
