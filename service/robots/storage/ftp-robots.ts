// /ftp/store and /ftp/import with basic-ftp: Template credentials of type ftp, or host, port, user and
// password in the step (`secure`: explicit FTPS). The store puts each file at `path` (folders made as
// needed) and gives it `url_template`'s URL; the import brings in a file, or a folder's files (path
// ending in "/").

import { posix } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client, type FileInfo } from 'basic-ftp';
import { interpolateString, type Scope } from '../../instructions/interpolation';
import type { StoredFile } from '../file-record';
import type { CredentialLookup, RobotFileOutcome, RobotRunner, SourceRunner } from '../robot-types';
import { connectionSource } from './connection-source';
import { baseNameOf, ignoresErrors, importName, keepImported } from './imported-file';
import { DEFAULT_STORE_PATH } from './s3-store';
import { collapseSlashes } from './store-path';

const TIMEOUT_MS = 15_000;
const MAX_LISTED = 10_000;

export interface FtpTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  secure: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const fail = (code: string, message: string): RobotFileOutcome => ({ ok: false, code, message });

/** The FTP server a step uses, or the problem. Pure. */
export function ftpTarget(params: Record<string, unknown>, lookup: CredentialLookup): FtpTarget | string {
  const source = connectionSource(params, lookup, { type: 'ftp', destinationKeys: ['host', 'port', 'secure'], stepKeys: ['path'], needs: 'host, user and password' });
  if (typeof source === 'string') return source;
  const host = str(source.host);
  if (!host) return 'give "credentials" (a Template credentials name) or "host", "user" and "password"';
  const port = source.port === undefined ? 21 : Number(source.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `port must be a whole number from 1 to 65535 (got ${JSON.stringify(source.port)})`;
  return { host, port, user: str(source.user) ?? 'anonymous', password: typeof source.password === 'string' ? source.password : '', secure: source.secure === true };
}

async function connect(target: FtpTarget, signal: AbortSignal): Promise<Client> {
  const client = new Client(TIMEOUT_MS);
  signal.addEventListener('abort', () => client.close(), { once: true });
  await client.access({ host: target.host, port: target.port, user: target.user, password: target.password, secure: target.secure });
  return client;
}

/** "could not log in" or "could not connect", from basic-ftp's error (530 is FTP's "not logged in"). */
function connectFailure(prefix: string, robot: string, target: FtpTarget, e: unknown): RobotFileOutcome {
  const message = (e as Error).message;
  const auth = /^530\b|login|password/i.test(message) || (e as { code?: number }).code === 530;
  return fail(auth ? `${prefix}_ACCESS_DENIED` : `${prefix}_FAILURE`, `${robot} could not ${auth ? 'log in to' : 'connect to'} ${target.user}@${target.host}:${target.port}: ${message}`);
}

/** `{HOST}` and `{PATH}` of a URL template filled in (the path's segments percent-encoded). Pure. */
export const fillUrlTemplate = (template: string, host: string, path: string): string =>
  template.replaceAll('{HOST}', host).replaceAll('{PATH}', path.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/'));

/**
 * Downloads `remote` into what `keep` makes of a stream. basic-ftp ends the stream it is given even when
 * the transfer fails, so it writes into a stream of its own, and the kept one ends only on success (a
 * broken transfer never looks like a whole file).
 */
async function downloadFile(client: Client, remote: string, keep: (body: PassThrough) => Promise<StoredFile>): Promise<StoredFile> {
  const sink = new PassThrough();
  const body = new PassThrough();
  sink.pipe(body, { end: false });
  const sunk = new Promise<void>((resolve) => sink.once('end', resolve));
  const kept = keep(body);
  kept.catch(() => sink.destroy());
  try {
    await client.downloadTo(sink, remote);
    await sunk;
    body.end();
  } catch (e) {
    body.destroy(e as Error);
  }
  return kept;
}

export const runFtpStore: RobotRunner = async ({ robot, params, input, scope, credentials, signal }) => {
  const target = ftpTarget(params, credentials);
  if (typeof target === 'string') return fail('FTP_STORE_VALIDATION', `${robot}: ${target}.`);
  const path = collapseSlashes(String(typeof params.path === 'string' ? params.path : interpolateString(DEFAULT_STORE_PATH, scope as Scope)));
  if (path === '' || path.endsWith('/')) return fail('FTP_STORE_VALIDATION', `${robot}: path "${path}" names a folder; it must end with a file name.`);
  let client: Client;
  try {
    client = await connect(target, signal);
  } catch (e) {
    return connectFailure('FTP_STORE', robot, target, e);
  }
  try {
    const dir = posix.dirname(path);
    // ensureDir makes each level and moves into it; the upload then names the file alone.
    if (dir !== '.' && dir !== '/') await client.ensureDir(dir);
    else if (dir === '/') await client.cd('/');
    await client.uploadFrom(input.localPath, posix.basename(path));
    const url = fillUrlTemplate(str(params.url_template) ?? 'https://{HOST}/{PATH}', target.host, path);
    const sslUrl = fillUrlTemplate(str(params.ssl_url_template) ?? str(params.url_template) ?? 'https://{HOST}/{PATH}', target.host, path);
    return { ok: true, files: [{ ...input, meta: { ...input.meta, stored_path: path }, remoteUrls: { url, ssl_url: sslUrl } }] };
  } catch (e) {
    return fail('FTP_STORE_FAILURE', `${robot} could not write ${path} on ${target.host}: ${(e as Error).message}`);
  } finally {
    client.close();
  }
};

export const runFtpImport: SourceRunner = async ({ robot, params, outDir, credentials, signal }) => {
  const target = ftpTarget(params, credentials);
  if (typeof target === 'string') return fail('FTP_IMPORT_VALIDATION', `${robot}: ${target}.`);
  if (params.passive_mode === false) return fail('FTP_IMPORT_VALIDATION', `${robot}: passive_mode false (active FTP) is not supported by the local service.`);
  const path = str(params.path);
  if (!path) return fail('FTP_IMPORT_VALIDATION', `${robot}: give "path" (a file, or a folder ending in "/").`);
  let client: Client;
  try {
    client = await connect(target, signal);
  } catch (e) {
    return connectFailure('FTP_IMPORT', robot, target, e);
  }
  try {
    let remote: string[];
    if (path.endsWith('/')) {
      const listed: FileInfo[] = await client.list(path);
      remote = listed.filter((f) => f.isFile).map((f) => posix.join(path, f.name));
      if (remote.length > MAX_LISTED) return fail('FTP_IMPORT_FAILURE', `${robot}: more than ${MAX_LISTED} files in ${path}; import a narrower folder.`);
    } else remote = [path];
    const files: StoredFile[] = [];
    for (const [i, file] of remote.entries()) {
      try {
        const stored = await downloadFile(client, file, (body) => keepImported(outDir, importName(params.force_name, i, baseNameOf(file)), body, { signal }));
        files.push({ ...stored, meta: { ...stored.meta, stored_path: file } });
      } catch (e) {
        if (signal.aborted) throw e;
        if (ignoresErrors(params.ignore_errors, 'import')) continue;
        return fail(/^550\b/.test((e as Error).message) ? 'FTP_IMPORT_NOT_FOUND' : 'FTP_IMPORT_FAILURE', `${robot} could not import ${file} from ${target.host}: ${(e as Error).message}`);
      }
    }
    return { ok: true, files };
  } catch (e) {
    if (signal.aborted) return fail('FTP_IMPORT_FAILURE', `${robot}: canceled.`);
    return fail(/^550\b/.test((e as Error).message) ? 'FTP_IMPORT_NOT_FOUND' : 'FTP_IMPORT_FAILURE', `${robot} could not list ${path} on ${target.host}: ${(e as Error).message}`);
  } finally {
    client.close();
  }
};
