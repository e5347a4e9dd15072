// `npm run service` as a user runs it: a child process that prints its URL and stops on SIGTERM, and
// that takes its Auth Secret without showing it to other users (finding 5 of issue 10).
import { spawn } from 'node:child_process';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signParams } from './auth/signature';
import { AUTH_SECRET_ENV } from './cli-secret';
import { tempDir } from './testing/service-fixture';
import { spawnService, type ServiceProcess } from './testing/service-process';

const dirs: string[] = [];
const running: ServiceProcess[] = [];
afterAll(async () => {
  for (const s of running) await s.kill();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function dir(prefix: string): Promise<string> {
  const d = await tempDir(prefix);
  dirs.push(d);
  return d;
}

async function start(args: string[], env: Record<string, string> = {}): Promise<ServiceProcess> {
  const s = await spawnService(args, env);
  running.push(s);
  return s;
}

/** What `ps` shows of a process: its command line. */
const cmdline = async (pid: number): Promise<string> => (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replace(/\0/g, ' ');

/** GET /templates needs a signature: 200 proves the service holds exactly this secret. */
async function signedStatus(url: string, key: string, secret: string): Promise<number> {
  const params = JSON.stringify({ auth: { key, expires: new Date(Date.now() + 60_000).toISOString() } });
  const u = new URL('/templates', url);
  u.searchParams.set('params', params);
  u.searchParams.set('signature', signParams(params, secret));
  return (await fetch(u)).status;
}

describe('npm run service', () => {
  it('prints the generated key and where the secret is (never the secret), serves, and exits on SIGTERM', async () => {
    const dataDir = await dir('svc-cli-');
    // tsx directly (what the npm script runs) so the signal reaches the service process itself.
    const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'service/cli.ts', '--port', '0', '--data-dir', dataDir], {
      cwd: new URL('..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      // A process start through tsx (~2 s of CPU): 45 s, as for other process starts on a loaded machine (a
      // whole run at load ~20 saw 20 s pass without the line).
      const timer = setTimeout(() => reject(new Error(`no listening line in: ${out}`)), 45_000);
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
    const key = /auth key:\s+([0-9a-f]{32})/.exec(out)?.[1] ?? '';
    expect(key).not.toBe('');
    const secretFile = join(dataDir, 'auth-secret');
    expect(out).toContain(`auth secret: in ${secretFile}`);
    const secret = (await readFile(secretFile, 'utf8')).trim();
    expect(secret).toMatch(/^[0-9a-f]{40}$/);
    expect((await stat(secretFile)).mode & 0o777).toBe(0o600);
    expect(out).not.toContain(secret);
    expect(await signedStatus(url, key, secret)).toBe(200);
    const root = (await (await fetch(`${url}/`)).json()) as { ok: string };
    expect(root.ok).toBe('SERVER_ROOT');
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it(`takes the secret from ${AUTH_SECRET_ENV}: not in the command line, not printed`, async () => {
    const secret = 'env-secret-4f1c2a9be7d0';
    const svc = await start(['--port', '0', '--data-dir', await dir('svc-cli-env-'), '--auth-key', 'env-key'], { [AUTH_SECRET_ENV]: secret });
    expect(await cmdline(svc.child.pid!)).not.toContain(secret);
    expect(svc.output()).toContain(`auth secret: from ${AUTH_SECRET_ENV}`);
    expect(svc.output()).not.toContain(secret);
    expect(await signedStatus(svc.url, 'env-key', secret)).toBe(200);
    expect(await signedStatus(svc.url, 'env-key', 'another-secret')).toBe(401);
  });

  it('takes the secret from --auth-secret-file, and warns when that file is readable by others', async () => {
    const d = await dir('svc-cli-file-');
    const secret = 'file-secret-8c3d1e2f5a6b';
    const file = join(d, 'secret.txt');
    await writeFile(file, `${secret}\n`, { mode: 0o600 });
    const svc = await start(['--port', '0', '--data-dir', join(d, 'data'), '--auth-key', 'file-key', '--auth-secret-file', file]);
    expect(await cmdline(svc.child.pid!)).not.toContain(secret);
    expect(svc.output()).not.toContain(secret);
    expect(svc.output()).not.toMatch(/warning/);
    expect(await signedStatus(svc.url, 'file-key', secret)).toBe(200);
    await svc.kill();

    const open = join(d, 'open.txt');
    await writeFile(open, secret, { mode: 0o644 });
    const loose = await start(['--port', '0', '--data-dir', join(d, 'data2'), '--auth-key', 'file-key', '--auth-secret-file', open]);
    expect(loose.output()).toMatch(/warning: .*open\.txt can be read by other users \(mode 644\)/);
    expect(await signedStatus(loose.url, 'file-key', secret)).toBe(200);
  });

  it('still accepts --auth-secret but warns that ps shows it, and refuses two sources at once', async () => {
    const d = await dir('svc-cli-flag-');
    const svc = await start(['--port', '0', '--data-dir', d, '--auth-key', 'flag-key', '--auth-secret', 'flag-secret-123']);
    expect(svc.output()).toMatch(/warning: --auth-secret shows the secret to every user/);
    expect(await signedStatus(svc.url, 'flag-key', 'flag-secret-123')).toBe(200);
    await svc.kill();
    const file = join(d, 's');
    await writeFile(file, 'x', { mode: 0o600 });
    await expect(spawnService(['--port', '0', '--data-dir', d, '--auth-key', 'k', '--auth-secret', 'y', '--auth-secret-file', file])).rejects.toThrow(/one way/);
    await expect(spawnService(['--port', '0', '--data-dir', d], { [AUTH_SECRET_ENV]: 'lonely' })).rejects.toThrow(/needs --auth-key/);
  });
});

describe('npm run service --job-slots', () => {
  const slotsTotal = async (url: string, key: string, secret: string): Promise<unknown> => {
    const params = JSON.stringify({ auth: { key, expires: new Date(Date.now() + 60_000).toISOString() } });
    const u = new URL('/queues/job_slots', url);
    u.searchParams.set('params', params);
    u.searchParams.set('signature', signParams(params, secret));
    return ((await (await fetch(u)).json()) as { queue_details: { slots_total: number } }).queue_details.slots_total;
  };

  it('sizes the pool from the flag, else ASSEMBLYLINE_JOB_SLOTS; the flag wins', async () => {
    const secret = 'slots-secret-9a8b7c';
    const env = { [AUTH_SECRET_ENV]: secret, ASSEMBLYLINE_JOB_SLOTS: '5' };
    const fromEnv = await start(['--port', '0', '--data-dir', await dir('svc-cli-slots-'), '--auth-key', 'slots-key'], env);
    expect(await slotsTotal(fromEnv.url, 'slots-key', secret)).toBe(5);
    const fromFlag = await start(['--port', '0', '--data-dir', await dir('svc-cli-slots-'), '--auth-key', 'slots-key', '--job-slots', '3'], env);
    expect(await slotsTotal(fromFlag.url, 'slots-key', secret)).toBe(3);
  });
});
