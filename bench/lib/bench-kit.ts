// What every benchmark here repeats: a temp folder, a local service in its own process with a fresh key
// and secret, timing and formatting, CPU seconds from /proc, and the verdict line.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { spawnService, type ServiceProcess } from '../../service/testing/service-process';

/** The repository's root (bench/ runs with it as cwd, but say so). */
export const ROOT = new URL('../..', import.meta.url).pathname;
export const MiB = 1024 * 1024;

export interface BenchService extends ServiceProcess {
  authKey: string;
  authSecret: string;
}

export interface BenchServiceOptions {
  /** More arguments for `service/cli.ts`. */
  args?: string[];
  env?: Record<string, string>;
  /** Arguments for Node itself (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

/**
 * A fresh temp folder (`<prefix>…`) and a local service on it (`<dir>/service`), both gone afterwards,
 * whatever `body` does.
 */
export async function withBenchService<T>(prefix: string, body: (dir: string, service: BenchService) => Promise<T>, options: BenchServiceOptions = {}): Promise<T> {
  const root = benchRoot();
  console.log(`bench folder: ${root} (creating a 10 KB file there: ${fileCreateMs(root).toFixed(2)} ms of kernel CPU; BENCH_TMPDIR to change)`);
  const dir = await mkdtemp(path.join(root, prefix));
  const authKey = `${prefix.replace(/[^a-z]+/g, '-')}key`;
  const authSecret = randomBytes(20).toString('hex');
  try {
    const child = await spawnService(['--port', '0', '--data-dir', path.join(dir, 'service'), '--auth-key', authKey, ...(options.args ?? [])], { ASSEMBLYLINE_AUTH_SECRET: authSecret, ...options.env }, options.nodeArgs);
    try {
      return await body(dir, Object.assign(child, { authKey, authSecret }));
    } finally {
      // A profiled service writes its profile when it exits: SIGTERM first (a clean close), then SIGKILL.
      if (options.nodeArgs?.some((a) => a.startsWith('--cpu-prof') || a.startsWith('--heap-prof'))) {
        const exited = new Promise((resolve) => child.child.once('exit', resolve));
        child.child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      }
      await child.kill();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Where benchmarks keep their files and the service's data: `BENCH_TMPDIR`, else a folder under the home
 * directory, as the app's own service keeps its uploads under the user's data folder. On this VM's ext4 a
 * new file costs 0.04–1.7 ms of kernel CPU depending on the folder and the hour (issue 27: most of the
 * service's CPU per small file in a slow one), so withBenchService prints it with every run.
 */
export function benchRoot(): string {
  const root = process.env.BENCH_TMPDIR ?? path.join(homedir(), '.cache', 'assemblyline-bench');
  mkdirSync(root, { recursive: true });
  return root;
}

/** Kernel CPU per new 10 KB file in a fresh folder under `root` (200 files): what storing each upload costs there. */
export function fileCreateMs(root: string, files = 200): number {
  const dir = mkdtempSync(path.join(root, 'create-probe-'));
  const bytes = Buffer.alloc(10 * 1024, 1);
  try {
    const before = process.cpuUsage();
    for (let i = 0; i < files; i++) {
      const fd = openSync(path.join(dir, String(i)), 'w');
      writeSync(fd, bytes);
      closeSync(fd);
    }
    return process.cpuUsage(before).system / 1000 / files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Node arguments that make a service write a CPU profile into BENCH_PROFILE_DIR, when it is set. */
export const profileArgs = (): string[] => (process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []);

/** Runs a benchmark's main; a throw prints and exits 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

export const seconds = (startNs: bigint): number => Number(process.hrtime.bigint() - startNs) / 1e9;
export const fmt = (n: number, digits = 1): string => n.toFixed(digits);
/** The word each benchmark prints next to a goal. */
export const verdict = (met: boolean): string => (met ? 'meets' : 'MISSES');

/** CPU seconds (user + system, all threads) a process has used, from /proc (Linux); NaN elsewhere. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${String(pid)}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds (user, system) of each thread of a process now, by thread id, with its name (Linux /proc; empty elsewhere). */
export function threadCpu(pid: number | undefined): Map<string, { name: string; user: number; system: number }> {
  const out = new Map<string, { name: string; user: number; system: number }>();
  try {
    for (const tid of readdirSync(`/proc/${String(pid)}/task`)) {
      try {
        const stat = readFileSync(`/proc/${String(pid)}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
        out.set(tid, { name, user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 });
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  } catch {
    // No /proc, or the process is gone.
  }
  return out;
}

/** Resident memory (bytes) of a process now, from /proc (Linux); NaN elsewhere or once it is gone. */
export function rssOf(pid: number | undefined): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
