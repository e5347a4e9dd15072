// The local service as a child process (its CLI: testing/cli-command.ts), as a user runs it. The attack
// and crash suites need it out of the test's own process: a hung service must show up as a timeout, not
// freeze the test, and kill -9 must be a real kill. The child leads its own process group, so stopping it
// also ends anything it started (ffmpeg).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serviceCliArgs } from '../testing/cli-command';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcessOptions {
  dataDir: string;
  authKey: string;
  authSecret: string;
  /** 0 (default) = an ephemeral port; a crash test restarts on the port it had so clients can resume. */
  port?: number;
  requireSignature?: boolean;
  startTimeoutMs?: number;
}

export interface ServiceProcess {
  url: string;
  port: number;
  pid: number;
  /** Resolves when the process has exited (for any reason). */
  exited: Promise<void>;
  /** True once the process has exited. */
  dead(): boolean;
  /** The last few KB it printed (stdout and stderr), for reports. */
  output(): string;
  /** kill -9 of the whole process group; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM (clean close), SIGKILL after a grace period. */
  stop(): Promise<void>;
}

/** Sends a signal to the process group of `pid`; a group that is already gone is not an error. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/** Groups still running: ended when this process exits, so a test run that stops early leaves none behind. */
const live = new Set<number>();
process.once('exit', () => {
  for (const pid of live) signalGroup(pid, 'SIGKILL');
});

export async function startServiceProcess(o: ServiceProcessOptions): Promise<ServiceProcess> {
  const args = [...serviceCliArgs(), '--port', String(o.port ?? 0), '--data-dir', o.dataDir, '--auth-key', o.authKey, '--auth-secret', o.authSecret];
  if (o.requireSignature) args.push('--require-signature');
  const child: ChildProcess = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const pid = child.pid!;
  live.add(pid);
  let isDead = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      isDead = true;
      live.delete(pid);
      resolve();
    }),
  );
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      signalGroup(pid, 'SIGKILL');
      reject(new Error(`service did not start within ${o.startTimeoutMs ?? 30_000} ms: ${out}`));
    }, o.startTimeoutMs ?? 30_000);
    // Stays attached: it keeps draining the output, so a chatty service never blocks on a full pipe.
    child.stdout!.on('data', (d: Buffer) => {
      out = (out + d.toString()).slice(-4000);
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`service exited before listening: ${out}`));
    });
  });
  const kill = async (): Promise<void> => {
    signalGroup(pid, 'SIGKILL');
    await exited;
  };
  return {
    url,
    port: Number(new URL(url).port),
    pid,
    exited,
    dead: () => isDead,
    output: () => out,
    kill,
    stop: async () => {
      signalGroup(pid, 'SIGTERM');
      const grace = setTimeout(() => signalGroup(pid, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(grace);
      // The group may hold a robot's ffmpeg that outlived the service.
      signalGroup(pid, 'SIGKILL');
    },
  };
}
