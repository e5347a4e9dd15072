// A real FTP server (pyftpdlib, Debian's python3-pyftpdlib) on 127.0.0.1, an ephemeral port, one user with
// write access to a temp folder, for the tests of /ftp/store and /ftp/import. Stops with the test (and is
// killed if the test process exits first). Not imported by production code.

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FtpServer {
  host: string;
  port: number;
  user: string;
  password: string;
  /** The folder the server serves as "/". */
  root: string;
  stop(): Promise<void>;
}

/** Debian's Python, where python3-pyftpdlib is installed (a pyenv `python3` on PATH would not have it). */
const PYTHON = '/usr/bin/python3';

export async function startFtpServer(): Promise<FtpServer> {
  const root = await mkdtemp(join(tmpdir(), 'al-ftpd-'));
  const user = 'robot';
  const password = 'ftp-pass-1';
  const child = spawn(PYTHON, ['-m', 'pyftpdlib', '-i', '127.0.0.1', '-p', '0', '-w', '-d', root, '-u', user, '-P', password], { stdio: ['ignore', 'ignore', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`pyftpdlib did not start: ${seen}`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /starting FTP server on 127\.0\.0\.1:(\d+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${PYTHON} -m pyftpdlib could not run (apt install python3-pyftpdlib): ${e.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pyftpdlib exited (${code}): ${seen}`));
    });
  });
  // Its log keeps coming; nobody needs it, but the pipe must not fill up.
  child.stderr.resume();
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    root,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      await rm(root, { recursive: true, force: true });
    },
  };
}
