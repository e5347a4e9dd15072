// The local service as a user runs it (`npm run service`): a child process, so a test can watch what
// `ps` shows, and can SIGKILL a service that hangs instead of hanging itself. Not used by production code.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** SIGKILL (a hung event loop ignores SIGTERM) and wait for the exit. */
  kill(): Promise<void>;
}

const ROOT = new URL('../..', import.meta.url).pathname;

export async function spawnService(args: string[], env: Record<string, string> = {}): Promise<ServiceProcess> {
  // tsx directly (what the npm script runs) so signals and /proc/<pid> belong to the service itself.
  const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'service/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
