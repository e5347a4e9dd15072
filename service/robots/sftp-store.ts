// /sftp/store: puts each file on an SFTP server, with `credentials` (a Template credentials name of type
// sftp) or the connection given inline (dynamic storage parameters). The file passes on as a result.

import { posix } from 'node:path';
import SftpClient from 'ssh2-sftp-client';
import { sftpTargetFromContent, type SftpTarget } from '../../shared/api/sftp-target';
import { interpolateString } from '../instructions/interpolation';
import type { RobotFileOutcome, RobotRunner } from './robot-types';

const DEFAULT_PATH = '${unique_prefix}/${file.url_name}';
const CONNECT_TIMEOUT_MS = 15_000;

export type { SftpTarget };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const fail = (code: string, message: string): RobotFileOutcome => ({ ok: false, code, message });

/** The connection from the credentials named in `credentials`, else from inline params; a string is the problem. */
export function sftpTarget(params: Record<string, unknown>, lookup: (name: string) => { type: string; content: unknown } | null): SftpTarget | string {
  let source = params;
  if (params.credentials !== undefined) {
    const name = str(params.credentials);
    const found = name ? lookup(name) : null;
    if (!found) return `there are no Template credentials named "${String(params.credentials)}"`;
    if (found.type !== 'sftp') return `the Template credentials "${name}" are of type ${found.type}, not sftp`;
    // Content may be any JSON value (the spec); sftp needs its fields.
    const c = found.content;
    if (typeof c !== 'object' || c === null || Array.isArray(c)) {
      return `the Template credentials "${name}" hold ${c === null ? 'null' : Array.isArray(c) ? 'an array' : `a ${typeof c}`}, not the fields sftp needs (host, user, password or key)`;
    }
    source = { ...(c as Record<string, unknown>), ...Object.fromEntries(Object.entries(params).filter(([k]) => k === 'path' || k === 'url_template')) };
  }
  if (!str(source.host) || !str(source.user)) return 'give "credentials" (a Template credentials name) or "host" and "user"';
  return sftpTargetFromContent(source);
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
  const remotePath = String(typeof params.path === 'string' ? params.path : interpolateString(DEFAULT_PATH, scope));
  const client = new SftpClient();
  const abort = () => void client.end().catch(() => undefined);
  signal.addEventListener('abort', abort, { once: true });
  try {
    await client.connect({ host: target.host, port: target.port, username: target.user, password: target.password, privateKey: target.privateKey, readyTimeout: CONNECT_TIMEOUT_MS });
  } catch (e) {
    const message = (e as Error).message;
    const auth = /authentication|auth.*fail|permission denied/i.test(message);
    return fail(auth ? 'SFTP_STORE_AUTH_FAILED' : 'SFTP_STORE_CONNECTION_ERROR', `/sftp/store could not ${auth ? 'log in to' : 'connect to'} ${target.user}@${target.host}:${target.port}: ${message}`);
  }
  try {
    const dir = posix.dirname(remotePath);
    if (dir !== '.' && dir !== '/') await makeDir(client, dir);
    await client.fastPut(input.localPath, remotePath);
    const url = typeof params.url_template === 'string' ? params.url_template.replaceAll('${path}', remotePath) : `sftp://${target.host}:${target.port}/${remotePath.replace(/^\//, '')}`;
    return { ok: true, files: [{ ...input, meta: { ...input.meta, stored_path: remotePath, stored_url: url } }] };
  } catch (e) {
    return fail('SFTP_STORE_ERROR', `/sftp/store could not write ${remotePath} on ${target.host}: ${(e as Error).message}`);
  } finally {
    signal.removeEventListener('abort', abort);
    await client.end().catch(() => undefined);
  }
};
