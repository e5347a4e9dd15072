// `npm start`'s browser host, as a user starts it: the URL it hands the system browser (whose command line
// any local user can read in /proc/<pid>/cmdline) carries a one-time code, never the lasting token, and
// that code opens the app once. A stand-in `xdg-open` on PATH records what it was given. Needs `npm run build`.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
let dir = '';
let child: ChildProcess;
let printed = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-start-open-'));
  const bin = path.join(dir, 'bin');
  await writeFile(path.join(dir, 'opened.txt'), '');
  await mkdir(bin);
  await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" >> "${path.join(dir, 'opened.txt')}"\n`);
  await chmod(path.join(bin, 'xdg-open'), 0o755);
  const { ASSEMBLYLINE_NO_OPEN: _no, DBUS_SESSION_BUS_ADDRESS: _bus, ...env } = process.env;
  child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['electron/web/start.ts'], {
    cwd: root,
    env: { ...env, PATH: `${bin}:${env.PATH ?? ''}`, DISPLAY: ':99', ASSEMBLYLINE_DATA_DIR: path.join(dir, 'data'), ASSEMBLYLINE_DOWNLOADS_DIR: path.join(dir, 'downloads') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  printed = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Assemblyline is running at (\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`start.ts ended (${code}) before it was ready:\n${output}`)));
  });
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
});

describe('npm start in the browser host', () => {
  it('prints the lasting address (token in the fragment) and opens the browser on a one-time code only', async () => {
    expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
    const token = printed.slice(printed.indexOf('#token=') + '#token='.length);
    let opened: string[] = [];
    await expect
      .poll(async () => (opened = (await readFile(path.join(dir, 'opened.txt'), 'utf8')).split('\n').filter(Boolean)), { timeout: 15_000 })
      .toHaveLength(1);
    const [url] = opened as [string];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/open\?code=[A-Za-z0-9_-]{32}$/);
    expect(url).not.toContain(token);

    // The browser's first visit trades the code for the token in the fragment; the code then opens nothing.
    const first = await fetch(url, { redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`/#token=${token}`);
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(403);
  });
});
