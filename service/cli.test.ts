// `npm run service` as a user runs it: a child process that prints its URL and stops on SIGTERM.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './testing/service-fixture';

describe('npm run service', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('prints the generated key and secret and "listening on http://127.0.0.1:<port>", serves, and exits on SIGTERM', async () => {
    const dataDir = await tempDir('svc-cli-');
    dirs.push(dataDir);
    // tsx directly (what the npm script runs) so the signal reaches the service process itself.
    const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'service/cli.ts', '--port', '0', '--data-dir', dataDir], {
      cwd: new URL('..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line in: ${out}`)), 20_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(out);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.on('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    expect(out).toMatch(/auth key:\s+[0-9a-f]{32}/);
    expect(out).toMatch(/auth secret:\s+[0-9a-f]{40}/);
    const root = (await (await fetch(`${url}/`)).json()) as { ok: string };
    expect(root.ok).toBe('SERVER_ROOT');
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
