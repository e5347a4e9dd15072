// `npm run service` run to its end: for starts that must be refused (a bad option), where the service
// must not listen at all. Not used by production code.
import { spawn } from 'node:child_process';
import { serviceCliArgs } from './cli-command';

export interface CliExit {
  code: number | null;
  stderr: string;
  stdout: string;
}

/** Runs the service's CLI until it exits (killed, and rejected, if it is still running after 20 s). */
export function runCliToExit(args: string[], env: Record<string, string> = {}): Promise<CliExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...serviceCliArgs(), ...args], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running: ${stdout}`));
    }, 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}
