import { createHash, randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import SftpClient from 'ssh2-sftp-client';
import { sftpTargetFromContent } from '../../../shared/api/sftp-target';
import type { CredentialCheck, CredentialTestReport } from '../../../shared/ipc/template-models';
import { check, describeNetworkError, report, skipped } from './report';
import { readBanner } from './tcp-banner';

export interface SftpTestOptions {
  /** The folder to check; the login folder when empty. */
  path?: string;
  timeoutMs?: number;
}

const isAuthError = (e: unknown): boolean => {
  const err = e as { level?: string; message?: string };
  return err.level === 'client-authentication' || /authentication methods failed|auth.*fail|permission denied/i.test(err.message ?? '');
};
const isKeyError = (e: unknown): boolean => /parse privateKey|private key|unsupported key|encrypted/i.test((e as Error).message ?? '');
/** ssh2-sftp-client prefixes its method names ("getConnection: …"); the user wants the server's words. */
const stripPrefix = (m: string): string => m.replace(/^(?:[a-zA-Z]+(?:->\w+)?: )+/, '');

/** OpenSSH's fingerprint format (SHA256:base64 without padding), so an admin can compare it with the server's. */
const fingerprint = (key: Buffer): string => `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/**
 * Tests SFTP credentials the way /sftp/store will use them: reach the port (and see an SSH server
 * there), log in, read the folder, write and remove a small file. Each step says exactly what failed.
 */
export async function testSftpCredential(content: Record<string, unknown>, options: SftpTestOptions = {}): Promise<CredentialTestReport> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const target = sftpTargetFromContent(content);
  if (typeof target === 'string') {
    return report('SFTP server', [check('settings', 'fail', `These credentials cannot log in: ${target}.`, 'TEMPLATE_CREDENTIALS_INVALID'), ...skipped(['reach', 'authenticate', 'read', 'write'], 'the settings are incomplete')]);
  }
  const where = `${target.host}:${target.port}`;
  const wanted = (options.path ?? '').trim();
  const label = `${target.user}@${where}${wanted ? ` ${wanted}` : ''}`;
  const checks: CredentialCheck[] = [];

  // 1. Reach: a TCP connection, and an SSH greeting on it (a web or FTP server on that port is told apart).
  try {
    const banner = await readBanner(target.host, target.port, timeoutMs);
    if (!banner.startsWith('SSH-')) {
      // What the server said is never repeated (security/probe-words.ts): only whether it greets as SSH.
      const what = banner ? 'answered, but not as an SSH server' : 'accepted the connection but sent no SSH greeting';
      checks.push(check('reach', 'fail', `${where} ${what}: check the port (SFTP is usually 22).`, 'SFTP_NOT_SSH'));
      return report(label, [...checks, ...skipped(['authenticate', 'read', 'write'], 'no SSH server was reached')]);
    }
    checks.push(check('reach', 'ok', `${where} answered as an SSH server.`));
  } catch (e) {
    const { message, code } = describeNetworkError(e, where, timeoutMs);
    checks.push(check('reach', 'fail', `Cannot reach the server: ${message}`, code));
    return report(label, [...checks, ...skipped(['authenticate', 'read', 'write'], 'the server was not reached')]);
  }

  // 2. Authenticate, as the robot will (password and/or private key).
  const client = new SftpClient();
  let hostKey = '';
  try {
    await client.connect({
      host: target.host,
      port: target.port,
      username: target.user,
      password: target.password,
      privateKey: target.privateKey,
      readyTimeout: timeoutMs,
      hostVerifier: (key: Buffer) => ((hostKey = fingerprint(key)), true),
    });
    checks.push(check('authenticate', 'ok', `Logged in as ${target.user}${hostKey ? ` (server host key ${hostKey})` : ''}.`));
  } catch (e) {
    const method = [target.password ? 'password' : '', target.privateKey ? 'private key' : ''].filter(Boolean).join(' and ');
    const reason = stripPrefix((e as Error).message);
    const message = isAuthError(e)
      ? `The server refused ${target.user} with the ${method} given: check the user name and the ${method} (the server said: ${reason}).`
      : isKeyError(e)
        ? `The private key could not be used: ${reason}. Paste an unencrypted OpenSSH or PEM private key.`
        : `Logging in to ${where} failed: ${reason}.`;
    checks.push(check('authenticate', 'fail', message, isAuthError(e) ? 'SFTP_AUTH_FAILED' : 'SFTP_CONNECTION_ERROR'));
    await client.end().catch(() => undefined);
    return report(label, [...checks, ...skipped(['read', 'write'], 'the login failed')]);
  }

  try {
    checks.push(...(await checkFolder(client, wanted)));
  } finally {
    await client.end().catch(() => undefined);
  }
  return report(label, checks);
}

/** 3 and 4: the folder can be listed, and a file can be written there and removed again. */
async function checkFolder(client: SftpClient, wanted: string): Promise<CredentialCheck[]> {
  const folder = wanted || (await client.realPath('.').catch(() => '.'));
  const shown = `"${folder}"`;
  const kind = await client.exists(folder).catch(() => false as const);
  const out: CredentialCheck[] = [];
  const created: string[] = [];
  if (kind === false) {
    out.push(check('read', 'warn', `${shown} does not exist yet; /sftp/store creates missing folders when it writes.`, 'SFTP_PATH_MISSING'));
  } else if (kind !== 'd') {
    out.push(check('read', 'fail', `${shown} is a file, not a folder: give the folder files should go into.`, 'SFTP_PATH_NOT_FOLDER'));
    return [...out, ...skipped(['write'], 'the path is not a folder')];
  } else {
    try {
      const entries = await client.list(folder);
      out.push(check('read', 'ok', `Listed ${shown}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}.`));
    } catch (e) {
      out.push(check('read', 'fail', `Cannot list ${shown}: ${stripPrefix((e as Error).message)}.`, 'SFTP_PATH_NOT_READABLE'));
    }
  }

  // Write a small file with a name nobody uses, and remove it (and any folder made for it) again.
  const probe = posix.join(folder, `.assemblyline-test-${randomBytes(6).toString('hex')}`);
  try {
    if (kind === false) await makeFolders(client, folder, created);
    await client.put(Buffer.from('Assemblyline credential test\n'), probe);
    await client.delete(probe);
    out.push(check('write', 'ok', `Wrote a small test file in ${shown} and removed it again.`));
  } catch (e) {
    out.push(check('write', 'fail', `Cannot write in ${shown}: ${stripPrefix((e as Error).message)}. /sftp/store would fail here.`, 'SFTP_PATH_NOT_WRITABLE'));
  } finally {
    for (const dir of created.reverse()) await client.rmdir(dir).catch(() => undefined);
  }
  return out;
}

/** Creates the missing folders of `folder`, outermost first, noting each in `made` as it goes. */
async function makeFolders(client: SftpClient, folder: string, made: string[]): Promise<void> {
  const missing: string[] = [];
  for (let dir = folder; dir !== '.' && dir !== '/' && dir !== ''; dir = posix.dirname(dir)) {
    if ((await client.exists(dir).catch(() => false)) !== false) break;
    missing.unshift(dir);
  }
  for (const dir of missing) {
    await client.mkdir(dir);
    made.push(dir);
  }
}
