/**
 * P5 (issue 11): kill -9 of the app's core at 50 % of a 1 GiB upload, start it again: the bytes sent again
 * must be ≤ 16 MiB. The core runs in a child process (electron/core/crash/core-child.ts, runs:start through
 * the transfer engine with its default 16 MiB tus chunks) against a service in a process of its own that
 * outlives it (a remote workspace). Once the child reports half the bytes sent it is killed (its whole
 * process group); then the tus offset the service kept is read (HEAD on the upload URL from the engine's
 * store), a new core opens the same data dir and finishes the upload.
 *
 *   bytes sent again = bytes the killed core had sent − the offset the service kept
 *
 * (the new core sends exactly size − offset). Also checked: the Assembly completes with one upload whose
 * md5 is the file's.
 *
 *   npm run bench:transfer-crash-resume
 *   BENCH_SIZE_MB=256 npm run bench:transfer-crash-resume
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { coreCrashPorts, type CoreChildConfig } from '../electron/core/crash/core-crash-ports';
import { createCore } from '../electron/core/create-core';
import { MiB, ROOT, runBench, verdict, withBenchService } from './lib/bench-kit';

const SIZE = Number(process.env.BENCH_SIZE_MB ?? 1024) * MiB;

async function writeRandom(file: string): Promise<string> {
  const out = createWriteStream(file);
  const hash = createHash('md5');
  const chunk = randomBytes(4 * MiB);
  for (let written = 0; written < SIZE; written += chunk.length) {
    // Vary each chunk a little so no two are the same.
    chunk.writeUInt32LE(written, 0);
    hash.update(chunk);
    if (!out.write(Buffer.from(chunk))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return hash.digest('hex');
}

/** Runs the core child until it reports `killAt` bytes sent, then SIGKILLs its process group. */
async function runAndKill(configPath: string, killAt: number): Promise<{ runId: string; sent: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/core/crash/core-child.ts', configPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let runId = '';
  let sent = 0;
  let buffer = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString();
      let i: number;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        const msg = JSON.parse(line) as { runId?: string; bytes?: number; error?: unknown };
        if (msg.runId) runId = msg.runId;
        if (typeof msg.bytes === 'number') sent = Math.max(sent, msg.bytes);
        if (msg.error) reject(new Error(JSON.stringify(msg.error)));
        if (runId && sent >= killAt) {
          process.kill(-child.pid!, 'SIGKILL');
          resolve();
        }
      }
    });
    child.once('exit', () => (sent >= killAt ? resolve() : reject(new Error(`the core exited before the kill point: ${stderr}`))));
  });
  await once(child, 'exit').catch(() => undefined);
  return { runId, sent };
}

async function main(): Promise<void> {
  await withBenchService('bench-crash-resume-', async (dir, service) => {
    const file = path.join(dir, 'in', 'master.mov');
    await mkdir(path.dirname(file), { recursive: true });
    console.log(`writing a ${String(SIZE / MiB)} MiB file…`);
    const md5 = await writeRandom(file);
    const dataDir = path.join(dir, 'core');
    await mkdir(dataDir, { recursive: true });
    await writeFile(
      path.join(dataDir, 'workspaces.json'),
      JSON.stringify({ version: 1, activeWorkspaceId: 'remote', workspaces: [{ id: 'remote', name: 'Remote', kind: 'remote', endpoint: service.url, authKey: service.authKey }] }),
    );
    const config: CoreChildConfig = {
      dataDir,
      files: [{ path: file, relativePath: 'in/master.mov', name: 'master.mov', size: SIZE, mime: null }],
      steps: { ':original': { robot: '/upload/handle' } },
      chunkSize: 16 * MiB,
      remote: { workspaceId: 'remote', authSecret: service.authSecret },
    };
    const configPath = path.join(dir, 'config.json');
    await writeFile(configPath, JSON.stringify(config));

    const { runId, sent } = await runAndKill(configPath, SIZE / 2);
    const db = new Database(path.join(dataDir, 'transfers.sqlite'), { readonly: true });
    const row = db.prepare('SELECT upload_url AS url FROM files LIMIT 1').get() as { url: string | null } | undefined;
    db.close();
    if (!row?.url) throw new Error('the engine had not stored the upload URL');
    const head = await fetch(row.url, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
    const kept = Number(head.headers.get('upload-offset'));
    console.log(`killed at ${(sent / MiB).toFixed(1)} MiB sent; the service kept ${(kept / MiB).toFixed(1)} MiB`);

    const started = Date.now();
    const core = await createCore(coreCrashPorts(config));
    try {
      const final = await core.runs.settled(runId);
      if (!final.ok) throw new Error(final.error.message);
      const uploads = final.value.status?.uploads ?? [];
      const intact = final.value.state === 'ASSEMBLY_COMPLETED' && uploads.length === 1 && uploads[0]!.md5hash === md5;
      console.log(`after the restart: ${final.value.state} in ${((Date.now() - started) / 1000).toFixed(1)} s, ${String(uploads.length)} upload, md5 ${intact ? 'equal' : 'DIFFERENT'}`);
      const again = Math.max(0, sent - kept);
      console.log(`bytes sent again: ${(again / MiB).toFixed(2)} MiB — ${verdict(again <= 16 * MiB)} the goal of ≤ 16 MiB`);
      if (!intact) process.exitCode = 1;
    } finally {
      await core.close();
    }
  });
}

runBench(main);
