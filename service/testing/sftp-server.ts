import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** A real OpenSSH server (Debian's sshd) on 127.0.0.1, key auth only, for tests of storage robots. */
export interface SftpServer {
  host: string;
  port: number;
  user: string;
  /** OpenSSH private key the server accepts. */
  privateKey: string;
  /** A private key the server does not accept. */
  wrongKey: string;
  /** A folder to write into (absolute paths work as SFTP paths). */
  root: string;
  stop(): Promise<void>;
}

const SSHD = '/usr/sbin/sshd';

function keygen(file: string): void {
  const r = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr.toString()}`);
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const c = createConnection({ host: '127.0.0.1', port }, () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });

export async function startSftpServer(): Promise<SftpServer> {
  const dir = await mkdtemp(join(tmpdir(), 'al-sshd-'));
  for (const k of ['host_key', 'client_key', 'wrong_key']) keygen(join(dir, k));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')));
  const root = join(dir, 'files');
  mkdirSync(root);
  // sshd wants its privilege-separation directory even when it never drops privileges for us.
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true });
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      'PidFile none',
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      'Subsystem sftp internal-sftp',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`sshd did not start on port ${port}: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    host: '127.0.0.1',
    port,
    user: userInfo().username,
    privateKey: readFileSync(join(dir, 'client_key'), 'utf8'),
    wrongKey: readFileSync(join(dir, 'wrong_key'), 'utf8'),
    root,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
