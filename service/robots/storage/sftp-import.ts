// /sftp/import: brings a file, or a folder's files (path ending in "/"; all below it with `recursive`),
// from an SFTP server into the Assembly, with Template credentials of type sftp or the connection inline.

import { posix } from 'node:path';
import { PassThrough } from 'node:stream';
import SftpClient from 'ssh2-sftp-client';
import type { StoredFile } from '../file-record';
import type { RobotFileOutcome, SourceRunner } from '../robot-types';
import { connectSftp, sftpTarget } from '../sftp-store';
import { baseNameOf, ignoresErrors, importName, keepImported } from './imported-file';

const MAX_LISTED = 10_000;
const fail = (code: string, message: string): RobotFileOutcome => ({ ok: false, code, message });

/** The files below `dir` (its direct files, or all below it), without following links out of it. */
async function listFiles(client: SftpClient, dir: string, recursive: boolean, into: string[] = []): Promise<string[]> {
  for (const entry of await client.list(dir)) {
    const path = posix.join(dir, entry.name);
    if (entry.type === '-') into.push(path);
    else if (entry.type === 'd' && recursive) await listFiles(client, path, true, into);
    if (into.length > MAX_LISTED) throw new RangeError(`more than ${MAX_LISTED} files below ${dir}`);
  }
  return into;
}

export const runSftpImport: SourceRunner = async ({ robot, params, outDir, credentials, signal }) => {
  const target = sftpTarget(params, credentials);
  if (typeof target === 'string') return fail('SFTP_IMPORT_VALIDATION', `${robot}: ${target}.`);
  const path = typeof params.path === 'string' && params.path !== '' ? params.path : null;
  if (!path) return fail('SFTP_IMPORT_VALIDATION', `${robot}: give "path" (a file, or a folder ending in "/").`);
  const client = await connectSftp(robot, { denied: 'SFTP_IMPORT_ACCESS_DENIED', failure: 'SFTP_IMPORT_FAILURE' }, target, signal);
  if (!(client instanceof SftpClient)) return client;
  try {
    const remote = path.endsWith('/') ? await listFiles(client, path.replace(/\/+$/, '') || '/', params.recursive === true) : [path];
    const files: StoredFile[] = [];
    for (const [i, file] of remote.entries()) {
      try {
        const body = new PassThrough();
        const [stored] = await Promise.all([
          keepImported(outDir, importName(params.force_name, i, baseNameOf(file)), body, { signal }),
          client.get(file, body).catch((e: Error) => {
            body.destroy(e);
            throw e;
          }),
        ]);
        files.push({ ...stored, meta: { ...stored.meta, stored_path: file } });
      } catch (e) {
        if (signal.aborted) throw e;
        if (ignoresErrors(params.ignore_errors, 'import')) continue;
        return fail(/no such file/i.test((e as Error).message) ? 'SFTP_IMPORT_NOT_FOUND' : 'SFTP_IMPORT_FAILURE', `${robot} could not import ${file} from ${target.host}: ${(e as Error).message}`);
      }
    }
    return { ok: true, files };
  } catch (e) {
    if (signal.aborted) return fail('SFTP_IMPORT_FAILURE', `${robot}: canceled.`);
    return fail(/no such file/i.test((e as Error).message) ? 'SFTP_IMPORT_NOT_FOUND' : 'SFTP_IMPORT_FAILURE', `${robot} could not list ${path} on ${target.host}: ${(e as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
};
