// The local service as a user runs it (`npm run service`): a child process, so a test can watch what
// `ps` shows, and can SIGKILL a service that hangs instead of hanging itself. Not used by production code.
import { spawn, type ChildProcess } from 'node:child_process';
import { serviceCliArgs } from './cli-command';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** SIGKILL (a hung event loop ignores SIGTERM) and wait for the exit. */
  kill(): Promise<void>;
}

const ROOT = new URL('../..', import.meta.url).pathname;

const killGroup = (pid: number): void => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: already gone.
  }
};

/** Services still running when the test process exits are ended with it. */
const live = new Set<number>();
process.once('exit', () => {
  for (const pid of live) killGroup(pid);
});

/** `nodeArgs` go to Node itself (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
export async function spawnService(args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<ServiceProcess> {
  // Node itself, not tsx's CLI (which runs the service in a grandchild that a kill of the CLI leaves
  // running): signals and /proc/<pid> belong to the service itself. Its own process group, so a
  // kill also ends what it started (ffmpeg), and a test that dies early leaves nothing behind.
  const child = spawn(process.execPath, [...nodeArgs, ...serviceCliArgs(), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid!;
  live.add(pid);
  child.once('exit', () => live.delete(pid));
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in: ${out}`)), 20_000);
    const check = (): void => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`exited early: ${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    kill: async () => {
      killGroup(pid);
      await exited;
    },
  };
}
