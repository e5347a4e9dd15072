// /sftp/store: puts each file on an SFTP server, with `credentials` (a Template credentials name of type
// sftp) or the connection given inline (dynamic storage parameters). The file passes on as a result.

import { posix } from 'node:path';
import SftpClient from 'ssh2-sftp-client';
import { sftpTargetFromContent, type SftpTarget } from '../../shared/api/sftp-target';
import { interpolateString } from '../instructions/interpolation';
import type { CredentialLookup, RobotFileOutcome, RobotRunner } from './robot-types';
import { connectionSource } from './storage/connection-source';
import { collapseSlashes } from './storage/store-path';

const DEFAULT_PATH = '${unique_prefix}/${file.url_name}';
const CONNECT_TIMEOUT_MS = 15_000;

export type { SftpTarget };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const fail = (code: string, message: string): RobotFileOutcome => ({ ok: false, code, message });

/** The connection from the credentials named in `credentials`, else from inline params; a string is the problem. */
export function sftpTarget(params: Record<string, unknown>, lookup: CredentialLookup): SftpTarget | string {
  const source = connectionSource(params, lookup, { type: 'sftp', destinationKeys: ['host', 'port'], stepKeys: ['path', 'url_template', 'recursive'], needs: 'host, user, password or key' });
  if (typeof source === 'string') return source;
  if (!str(source.host) || !str(source.user)) return 'give "credentials" (a Template credentials name) or "host" and "user"';
  return sftpTargetFromContent(source);
}

/** Connects, or says why not (could not log in / could not connect) as the robot's failure. */
export async function connectSftp(robot: string, codes: { denied: string; failure: string }, target: SftpTarget, signal: AbortSignal): Promise<SftpClient | RobotFileOutcome> {
  const client = new SftpClient();
  signal.addEventListener('abort', () => void client.end().catch(() => undefined), { once: true });
  try {
    await client.connect({ host: target.host, port: target.port, username: target.user, password: target.password, privateKey: target.privateKey, readyTimeout: CONNECT_TIMEOUT_MS });
    return client;
  } catch (e) {
    const message = (e as Error).message;
    const auth = /authentication|auth.*fail|permission denied/i.test(message);
    return fail(auth ? codes.denied : codes.failure, `${robot} could not ${auth ? 'log in to' : 'connect to'} ${target.user}@${target.host}:${target.port}: ${message}`);
  }
}

/**
 * `mkdir -p` that tolerates the other jobs of the step making the same folders at the same moment: the
 * library checks, then creates, so a folder made in between fails the create (OpenSSH answers a bare
 * "failure", which the library calls "permission denied"). Each retry finds one more level made.
 */
async function makeDir(client: SftpClient, dir: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.mkdir(dir, true);
      return;
    } catch (e) {
      if ((await client.exists(dir)) === 'd') return;
      if (attempt >= dir.split('/').length) throw e;
    }
  }
}

export const runSftpStore: RobotRunner = async ({ params, input, scope, credentials, signal }) => {
  const target = sftpTarget(params, credentials);
  if (typeof target === 'string') return fail('SFTP_STORE_VALIDATION', `/sftp/store: ${target}.`);
  const remotePath = collapseSlashes(String(typeof params.path === 'string' ? params.path : interpolateString(DEFAULT_PATH, scope)));
  const client = await connectSftp('/sftp/store', { denied: 'SFTP_STORE_AUTH_FAILED', failure: 'SFTP_STORE_CONNECTION_ERROR' }, target, signal);
  if (!(client instanceof SftpClient)) return client;
  try {
    const dir = posix.dirname(remotePath);
    if (dir !== '.' && dir !== '/') await makeDir(client, dir);
    await client.fastPut(input.localPath, remotePath);
    const url = typeof params.url_template === 'string' ? params.url_template.replaceAll('${path}', remotePath) : `sftp://${target.host}:${target.port}/${remotePath.replace(/^\//, '')}`;
    return { ok: true, files: [{ ...input, meta: { ...input.meta, stored_path: remotePath, stored_url: url } }] };
  } catch (e) {
    return fail('SFTP_STORE_ERROR', `/sftp/store could not write ${remotePath} on ${target.host}: ${(e as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
};
