// One round of the core crash test: the app's core runs in a child process (core-child.ts) and uploads a
// batch; it is killed with SIGKILL (its whole process group, so whatever it started goes too) once a chosen
// share of the bytes is confirmed; then a new core opens the same data dir and the run is checked:
// - against a service that outlived the core (remote workspace): the run resumes and completes, every file
//   uploaded once, byte for byte (md5), and processed once;
// - against the embedded service (which died with the core): the run ends in a clear state, and each
//   file's state agrees with its bytes.
// Used by core-kill.test.ts (a few rounds) and bench/crash-loop.ts (many).
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Run } from '../../../shared/ipc/models';
import { testBundle } from '../../../shared/testing/test-bundles';
import { createCore } from '../create-core';
import { coreCrashPorts, type CoreChildConfig } from './core-crash-ports';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MiB = 1024 * 1024;
const STEPS = { ':original': { robot: '/upload/handle' }, hashed: { use: ':original', robot: '/file/hash', algorithm: 'md5' } };

export interface CoreCrashOptions {
  dir: string;
  /** A running service (its URL and key) that survives the core; absent = the embedded Local workspace. */
  remote?: { url: string; authKey: string; authSecret: string };
  files: number;
  /** Kill once this share (0..1) of all bytes is confirmed. */
  killAt: number;
  chunkSize?: number;
}

export interface CoreCrashResult {
  mode: 'remote' | 'local';
  killedAtBytes: number;
  totalBytes: number;
  /** The run's final state after the restart. */
  state: string;
  problems: string[];
}

interface ChildReport {
  runId: string | null;
  bytes: number;
  settled: string | null;
  error: unknown;
}

/** Spawns the core child and kills its process group once `killAtBytes` are confirmed (or it settled). */
async function runAndKill(configPath: string, killAtBytes: number): Promise<ChildReport> {
  // Under Vitest, the bundle its global setup built (shared/testing/test-bundles.ts); else through tsx (bench/).
  const entry = testBundle(process.env, 'core-child.cjs');
  const child = spawn(process.execPath, [...(entry ? [entry] : ['--import', 'tsx', 'electron/core/crash/core-child.ts']), configPath], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const report: ChildReport = { runId: null, bytes: 0, settled: null, error: null };
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  let killed = false;
  const killGroup = (): void => {
    killed = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      report.error ??= `no kill point within 120 s: ${stderr}`;
      resolve();
    }, 120_000);
    let buffer = '';
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString();
      let i: number;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        let msg: Record<string, unknown>;
        try {
          msg = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (typeof msg.runId === 'string') report.runId = msg.runId;
        if (typeof msg.bytes === 'number') report.bytes = Math.max(report.bytes, msg.bytes);
        if (typeof msg.settled === 'string') report.settled = msg.settled;
        if (msg.error) report.error = msg.error;
        if (report.runId && (report.bytes >= killAtBytes || report.settled)) {
          clearTimeout(timer);
          killGroup();
          resolve();
        }
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      if (!killed && !report.settled) report.error ??= `the core exited on its own: ${stderr}`;
      resolve();
    });
  });
  killGroup();
  await exited;
  return report;
}

function checkCompletedRun(run: Run, files: { name: string; size: number; md5: string }[]): string[] {
  const problems: string[] = [];
  const uploads = (run.status?.uploads ?? []) as { name: string; md5hash?: string | null; id: string }[];
  const hashed = ((run.status?.results as Record<string, { original_id: string; meta: { hash?: string } }[]> | undefined)?.hashed ?? []);
  for (const f of files) {
    const mine = uploads.filter((u) => u.name === f.name);
    if (mine.length !== 1) problems.push(`${f.name} is in the Assembly's uploads ${mine.length} times`);
    else {
      if (mine[0]!.md5hash !== f.md5) problems.push(`${f.name}: stored md5 ${String(mine[0]!.md5hash)}, file's ${f.md5}`);
      const results = hashed.filter((h) => h.original_id === mine[0]!.id);
      if (results.length !== 1) problems.push(`${f.name} was processed ${results.length} times`);
      else if (results[0]!.meta.hash !== f.md5) problems.push(`${f.name}: processed from other bytes (hash ${String(results[0]!.meta.hash)})`);
    }
  }
  for (const f of run.files) if (f.state !== 'uploaded' || f.bytesUploaded !== f.size) problems.push(`${f.relativePath}: ${f.state} with ${f.bytesUploaded}/${f.size} bytes in a completed run`);
  return problems;
}

export async function coreCrashRound(o: CoreCrashOptions): Promise<CoreCrashResult> {
  const mode = o.remote ? 'remote' : 'local';
  const dataDir = path.join(o.dir, 'core');
  const inputDir = path.join(o.dir, 'in');
  await mkdir(inputDir, { recursive: true });
  await mkdir(dataDir, { recursive: true });
  const files: { path: string; relativePath: string; name: string; size: number; mime: null; md5: string }[] = [];
  for (let i = 0; i < o.files; i++) {
    const bytes = randomBytes(randomInt(MiB / 2, 6 * MiB));
    const file = path.join(inputDir, `part-${i}.bin`);
    await writeFile(file, bytes);
    files.push({ path: file, relativePath: `in/part-${i}.bin`, name: `part-${i}.bin`, size: bytes.length, mime: null, md5: createHash('md5').update(bytes).digest('hex') });
  }
  const totalBytes = files.reduce((n, f) => n + f.size, 0);
  if (o.remote) {
    await writeFile(
      path.join(dataDir, 'workspaces.json'),
      JSON.stringify({ version: 1, activeWorkspaceId: 'remote', workspaces: [{ id: 'remote', name: 'Remote', kind: 'remote', endpoint: o.remote.url, authKey: o.remote.authKey }] }),
    );
  }
  const config: CoreChildConfig = {
    dataDir,
    files: files.map(({ md5: _m, ...f }) => f),
    steps: STEPS,
    chunkSize: o.chunkSize ?? MiB,
    ...(o.remote ? { remote: { workspaceId: 'remote', authSecret: o.remote.authSecret } } : {}),
  };
  const configPath = path.join(o.dir, 'core-child.json');
  await writeFile(configPath, JSON.stringify(config));

  const killAtBytes = Math.max(1, Math.floor(o.killAt * totalBytes));
  const report = await runAndKill(configPath, killAtBytes);
  const problems: string[] = [];
  if (report.error) problems.push(`core child: ${JSON.stringify(report.error)}`);
  if (!report.runId) return { mode, killedAtBytes: report.bytes, totalBytes, state: 'none', problems: [...problems, 'the run never started'] };

  const core = await createCore(coreCrashPorts(config));
  try {
    const listed = core.runs.list().filter((r) => r.runId === report.runId);
    if (listed.length !== 1) problems.push(`the reopened core lists the run ${listed.length} times`);
    const final = await Promise.race([core.runs.settled(report.runId), new Promise<null>((r) => setTimeout(() => r(null), 120_000))]);
    if (!final) return { mode, killedAtBytes: report.bytes, totalBytes, state: 'busy', problems: [...problems, 'the run did not settle within 120 s of the restart'] };
    if (!final.ok) return { mode, killedAtBytes: report.bytes, totalBytes, state: final.error.code, problems: [...problems, `settled with ${final.error.code}: ${final.error.message}`] };
    const run = final.value;
    if (run.state === 'ASSEMBLY_COMPLETED' && !run.error) problems.push(...checkCompletedRun(run, files));
    else if (o.remote) problems.push(`against a service that kept running, the run ended ${run.state} ${JSON.stringify(run.error)} instead of completing`);
    else {
      if (!run.error?.code || !/^[A-Z_]+$/.test(run.error.code)) problems.push(`the run ended ${run.state} without a clear error code`);
      for (const f of run.files) {
        if (f.state === 'uploaded' && f.bytesUploaded !== f.size) problems.push(`${f.relativePath}: "uploaded" with ${f.bytesUploaded}/${f.size} bytes`);
        if (f.state === 'uploading' || f.state === 'queued') problems.push(`${f.relativePath} is still ${f.state} in an ended run`);
      }
    }
    return { mode, killedAtBytes: report.bytes, totalBytes, state: run.state, problems };
  } finally {
    await core.close();
  }
}
