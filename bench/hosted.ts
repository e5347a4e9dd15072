/**
 * Issue 29, long: one drop — `BENCH_FILES` small files (10 KB, `BENCH_FILE_KB`) and one large file
 * (`BENCH_LARGE_MB`, 64 MiB) — into one completed Assembly per client, on a deployment like the hosted one
 * (service/testing/hosted-deployment.ts in a process of its own: TLS signed by a CA made for the run, the
 * API, regional status, tus and result roles on four loopback addresses) behind a user's link (100 ms round
 * trips, 200 Mbit/s up: `BENCH_RTT_MS`, `BENCH_MBIT`), and the same drop on Local (the local service over
 * plain HTTP on 127.0.0.1, no link). Two clients, one after the other on the same files:
 * - the app's transfer engine (core, as createCore wires it), the hosted workspace trusting the CA through
 *   its CA file; every file verified against the service's md5;
 * - the vendor's Node SDK (`@transloadit/node`'s `createAssembly` with every file, waitForCompletion: a tus
 *   upload per file, 10 at once, then polling), in a process of its own trusting the CA through
 *   NODE_EXTRA_CA_CERTS.
 * Prints each time and the ratio SDK time / engine time (> 1: the app is faster) per deployment.
 *
 *   npm run bench:hosted
 *   BENCH_TARGETS=hosted BENCH_FILES=50 npm run bench:hosted
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { feedOf, type DraftFile } from '../electron/core/transfers/draft-feed';
import { openEngine } from '../electron/core/transfers/testing/engine-fixture';
import { createWorkspaceClient } from '../electron/core/workspaces/workspace-client';
import type { ApiClient } from '../electron/core/api/api-client';
import { fmt, MiB, ROOT, runBench, seconds, withBenchService } from './lib/bench-kit';
import { spawnHostedDeployment } from './lib/hosted-process';
import { describeLink } from './lib/link-proxy';

const FILES = Number(process.env.BENCH_FILES ?? 200);
const FILE_BYTES = Number(process.env.BENCH_FILE_KB ?? 10) * 1024;
const LARGE_BYTES = Number(process.env.BENCH_LARGE_MB ?? 64) * MiB;
const LINK = { rttMs: Number(process.env.BENCH_RTT_MS ?? 100), uplinkBps: Number(process.env.BENCH_MBIT ?? 200) * 1e6, downlinkBps: 1e9 };
const TARGETS = (process.env.BENCH_TARGETS ?? 'hosted,local').split(',');
const STEPS = { ':original': { robot: '/upload/handle' } };

interface Target {
  name: string;
  endpoint: string;
  authKey: string;
  authSecret: string;
  /** The engine's API client (the hosted one trusts the run's CA through the workspace's CA file). */
  client?: ApiClient;
  /** Extra environment for the SDK's process (NODE_EXTRA_CA_CERTS for the hosted one). */
  sdkEnv: Record<string, string>;
}

async function makeDrop(dir: string): Promise<DraftFile[]> {
  await mkdir(dir, { recursive: true });
  const files: DraftFile[] = [];
  const add = async (name: string, size: number) => {
    await writeFile(path.join(dir, name), randomBytes(size));
    files.push({ path: path.join(dir, name), relativePath: `drop/${name}`, name, size, mime: null, mtimeMs: Date.now() });
  };
  for (let i = 0; i < FILES; i++) await add(`f${String(i).padStart(5, '0')}.bin`, FILE_BYTES);
  await add('large.bin', LARGE_BYTES);
  return files;
}

async function viaEngine(t: Target, dataDir: string, files: DraftFile[]): Promise<number> {
  const h = await openEngine({ url: t.endpoint, authKey: t.authKey, authSecret: t.authSecret }, dataDir, {}, {}, t.client);
  try {
    const t0 = process.hrtime.bigint();
    const started = await h.engine.start({ instructions: { steps: STEPS }, feed: feedOf('drop', files) });
    if (!started.ok) throw new Error(started.error.message);
    const done = await h.engine.settled(started.value.id);
    const s = seconds(t0);
    const verified = h.engine.rows({ offset: 0, limit: 1, states: ['verified'] }).total;
    if (done.state !== 'done' || verified !== files.length) throw new Error(`engine on ${t.name}: ${done.state}, ${String(verified)} of ${String(files.length)} verified`);
    return s;
  } finally {
    await h.close();
  }
}

const SDK_SCRIPT = `
import { Transloadit } from '@transloadit/node';
const [endpoint, listFile, steps] = process.argv.slice(1);
const { readFileSync } = await import('node:fs');
const files = Object.fromEntries(JSON.parse(readFileSync(listFile, 'utf8')).map((p, i) => ['file_' + i, p]));
const sdk = new Transloadit({ authKey: process.env.BENCH_KEY, authSecret: process.env.BENCH_SECRET, endpoint });
const status = await sdk.createAssembly({ files, params: { steps: JSON.parse(steps) }, waitForCompletion: true });
console.log('sdk ' + JSON.stringify({ ok: status.ok, error: status.error ?? null, uploads: (status.uploads ?? []).length }));
`;

function viaSdk(t: Target, files: DraftFile[], listFile: string): Promise<number> {
  return new Promise((resolve, reject) => {
    void writeFile(listFile, JSON.stringify(files.map((f) => f.path))).then(() => {
      const t0 = process.hrtime.bigint();
      const child = spawn(process.execPath, ['--input-type=module', '-e', SDK_SCRIPT, t.endpoint, listFile, JSON.stringify(STEPS)], {
        cwd: ROOT, env: { ...process.env, ...t.sdkEnv, BENCH_KEY: t.authKey, BENCH_SECRET: t.authSecret }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
      child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
      child.once('exit', (code) => {
        const s = seconds(t0);
        const m = /^sdk (.*)$/m.exec(out);
        const answer = m?.[1] ? (JSON.parse(m[1]) as { ok: string; error: string | null; uploads: number }) : null;
        if (code === 0 && answer?.ok === 'ASSEMBLY_COMPLETED' && answer.uploads === files.length) resolve(s);
        else reject(new Error(`SDK on ${t.name} (exit ${String(code)}): ${out}`));
      });
    }, reject);
  });
}

async function measure(t: Target, dir: string, files: DraftFile[]): Promise<void> {
  console.log(`${t.name}: load ${fmt(loadavg()[0]!)}`);
  const engine = await viaEngine(t, path.join(dir, `engine-${t.name}`), files);
  console.log(`  transfer engine: ${fmt(engine, 2)} s (every file verified)`);
  const sdk = await viaSdk(t, files, path.join(dir, `sdk-${t.name}.json`));
  console.log(`  vendor Node SDK: ${fmt(sdk, 2)} s`);
  console.log(`  ratio SDK / engine on ${t.name}: ${fmt(sdk / engine, 2)} (load ${fmt(loadavg()[0]!)})`);
}

runBench(async () => {
  await withBenchService('bench-hosted-', async (dir, local) => {
    const files = await makeDrop(path.join(dir, 'drop'));
    console.log(`${String(FILES)} files of ${String(FILE_BYTES / 1024)} KB and one of ${fmt(LARGE_BYTES / MiB, 0)} MiB, one Assembly per client`);
    if (TARGETS.includes('hosted')) {
      const d = await spawnHostedDeployment(path.join(dir, 'hosted-service'), LINK);
      try {
        const caFile = path.join(dir, 'hosted-ca.pem');
        await writeFile(caFile, d.caPem);
        const workspace = { id: 'ws-hosted', name: 'Hosted', kind: 'remote' as const, endpoint: d.endpoint, authKey: d.authKey, signatureAlgo: 'sha384' as const, slug: '', authMode: 'signature' as const, tokenScopes: null, caPem: d.caPem };
        const client = createWorkspaceClient(workspace, { getSecret: async () => d.authSecret }).api;
        console.log(`hosted-like deployment over TLS on four hosts, ${describeLink(LINK)}`);
        await measure({ name: 'hosted', endpoint: d.endpoint, authKey: d.authKey, authSecret: d.authSecret, client, sdkEnv: { NODE_EXTRA_CA_CERTS: caFile } }, dir, files);
        console.log(`  deployment process CPU: ${fmt(await d.cpuSeconds(), 1)} s`);
      } finally {
        await d.close();
      }
    }
    if (TARGETS.includes('local')) {
      console.log('Local: the local service over plain HTTP on 127.0.0.1, no added link');
      await measure({ name: 'local', endpoint: local.url, authKey: local.authKey, authSecret: local.authSecret, sdkEnv: {} }, dir, files);
    }
  });
});
