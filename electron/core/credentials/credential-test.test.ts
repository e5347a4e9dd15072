// "Test credential" through core's dispatch: the local service stores the credentials, a real OpenSSH
// server on loopback is logged in to, and a real HTTP server checks a login. Secrets never come back.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential, CredentialTestReport } from '../../../shared/ipc/template-models';
import { startSftpServer, type SftpServer } from '../../../service/testing/sftp-server';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';

let dir = '';
let core: Core;
let sftp: SftpServer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-credential-test-'));
  [core, sftp] = await Promise.all([
    createCore(testCorePorts(dir, { secretStore: createKeyringSecretStore('assemblyline-credential-test-test') })),
    startSftpServer(),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([core.close(), sftp.stop()]);
  await rm(dir, { recursive: true, force: true });
});

const statuses = (r: CredentialTestReport) => Object.fromEntries(r.checks.map((c) => [c.id, c.status]));
const checkOf = (r: CredentialTestReport, id: string) => r.checks.find((c) => c.id === id)!;

async function test(request: Record<string, unknown>): Promise<CredentialTestReport> {
  const res = await dispatch(core.handlers, 'credentials:test', request);
  expect(res.ok, JSON.stringify(res)).toBe(true);
  const report = (res.ok ? res.value : null) as CredentialTestReport;
  // The key and passwords stay in core, whatever the outcome.
  expect(JSON.stringify(report)).not.toContain(sftp.privateKey.split('\n')[1]);
  expect(JSON.stringify(report)).not.toContain('wrong-password-123');
  return report;
}

const sftpValues = (extra: Record<string, string> = {}) => ({ host: sftp.host, port: String(sftp.port), user: sftp.user, private_key: sftp.privateKey, ...extra });

describe('credentials:test for SFTP against a real sshd', () => {
  it('tests saved prod_sftp by id: reach, log in, read and write the folder, leaving nothing behind', async () => {
    const created = await dispatch(core.handlers, 'credentials:create', { name: 'prod_sftp', type: 'sftp', values: sftpValues() });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const id = (created.ok ? (created.value as Credential) : null)!.id;

    const report = await test({ id, path: sftp.root });
    expect(report).toMatchObject({ ok: true, tested: true, target: `${sftp.user}@${sftp.host}:${sftp.port} ${sftp.root}` });
    expect(statuses(report)).toEqual({ reach: 'ok', authenticate: 'ok', read: 'ok', write: 'ok' });
    expect(checkOf(report, 'reach').message).toBe(`${sftp.host}:${sftp.port} answered as an SSH server.`);
    expect(checkOf(report, 'authenticate').message).toMatch(new RegExp(`Logged in as ${sftp.user} \\(server host key SHA256:`));
    expect(await readdir(sftp.root)).toEqual([]);

    // Without a path: the login folder.
    const home = await test({ id });
    expect(home.ok).toBe(true);
    expect(checkOf(home, 'read').message).toMatch(/^Listed "\//);
  });

  it('fails "authenticate" with a clear message for a wrong password, and does not try the folder', async () => {
    const report = await test({ draft: { type: 'sftp', values: { host: sftp.host, port: String(sftp.port), user: sftp.user, password: 'wrong-password-123' } }, path: sftp.root });
    expect(report.ok).toBe(false);
    expect(statuses(report)).toEqual({ reach: 'ok', authenticate: 'fail', read: 'skipped', write: 'skipped' });
    const auth = checkOf(report, 'authenticate');
    expect(auth.code).toBe('SFTP_AUTH_FAILED');
    expect(auth.message).toMatch(new RegExp(`^The server refused ${sftp.user} with the password given: check the user name and the password \\(the server said: All configured authentication methods failed\\)\\.$`));
    expect(checkOf(report, 'read').message).toBe('Not tried: the login failed.');
  });

  it('fails "authenticate" for a key the server does not accept', async () => {
    const report = await test({ draft: { type: 'sftp', values: sftpValues({ private_key: sftp.wrongKey }) } });
    expect(checkOf(report, 'authenticate')).toMatchObject({ status: 'fail', code: 'SFTP_AUTH_FAILED' });
    expect(checkOf(report, 'authenticate').message).toContain('with the private key given');
  });

  it('tests an edit before it is saved: the draft over the stored content, an empty secret keeping the stored key', async () => {
    const listed = await dispatch(core.handlers, 'credentials:list', {});
    const saved = (listed.ok ? (listed.value as Credential[]) : []).find((c) => c.name === 'prod_sftp')!;
    const good = await test({ id: saved.id, draft: { type: 'sftp', values: { ...sftpValues(), private_key: '' } }, path: sftp.root });
    expect(good.ok).toBe(true);
    // Another port is another place: the stored key is not taken there (stored-secrets.test.ts), a typed one is.
    const otherPort = new URL(core.localServiceUrl!).port;
    const moved = await test({ id: saved.id, draft: { type: 'sftp', values: { ...sftpValues(), private_key: '', port: otherPort } } });
    expect(checkOf(moved, 'settings')).toMatchObject({ status: 'fail', code: 'SECRET_NOT_FOR_DESTINATION' });
    const badPort = await test({ id: saved.id, draft: { type: 'sftp', values: { ...sftpValues(), port: otherPort } } });
    expect(checkOf(badPort, 'reach').status).toBe('fail');
  });

  it('says a missing folder will be created (and writes there without leaving it), and refuses a file as the folder', async () => {
    const missing = path.join(sftp.root, 'new', 'deeper');
    const report = await test({ draft: { type: 'sftp', values: sftpValues() }, path: missing });
    expect(statuses(report)).toEqual({ reach: 'ok', authenticate: 'ok', read: 'warn', write: 'ok' });
    expect(checkOf(report, 'read').message).toContain('does not exist yet; /sftp/store creates missing folders');
    expect(await readdir(sftp.root)).toEqual([]);

    const file = path.join(sftp.root, 'a-file.txt');
    await writeFile(file, 'x');
    const onFile = await test({ draft: { type: 'sftp', values: sftpValues() }, path: file });
    expect(statuses(onFile)).toEqual({ reach: 'ok', authenticate: 'ok', read: 'fail', write: 'skipped' });
    expect(checkOf(onFile, 'read').message).toContain('is a file, not a folder');
    await rm(file);
  });

  it('tells a closed port and a port that is not SSH apart, and lists what is missing from the settings', async () => {
    const closed = await test({ draft: { type: 'sftp', values: sftpValues({ port: '1' }) } });
    expect(checkOf(closed, 'reach')).toMatchObject({ status: 'fail', code: 'ECONNREFUSED' });
    expect(checkOf(closed, 'reach').message).toContain('connection refused');
    expect(statuses(closed)).toEqual({ reach: 'fail', authenticate: 'skipped', read: 'skipped', write: 'skipped' });

    const http = await startHttp();
    try {
      const notSsh = await test({ draft: { type: 'sftp', values: sftpValues({ port: String(http.port) }) } });
      expect(checkOf(notSsh, 'reach')).toMatchObject({ status: 'fail', code: 'SFTP_NOT_SSH' });
    } finally {
      await http.close();
    }

    const incomplete = await test({ draft: { type: 'sftp', values: { host: sftp.host, user: sftp.user } } });
    expect(checkOf(incomplete, 'settings')).toMatchObject({ status: 'fail', message: 'These credentials cannot log in: give a "password" or a "private_key" for the SFTP user.' });
  });
});

describe('credentials:test for other types', () => {
  it('checks an HTTP login against a real server: refused, then accepted', async () => {
    const http = await startHttp();
    try {
      const url = `http://127.0.0.1:${http.port}/files/`;
      const refused = await test({ draft: { type: 'http', values: { url, username: 'media', password: 'wrong-password-123' } } });
      expect(statuses(refused)).toEqual({ reach: 'ok', authenticate: 'fail', read: 'skipped' });
      expect(checkOf(refused, 'authenticate').code).toBe('HTTP_401');
      const accepted = await test({ draft: { type: 'http', values: { url, username: 'media', password: 'letmein' } } });
      expect(accepted.ok).toBe(true);
      expect(statuses(accepted)).toEqual({ reach: 'ok', authenticate: 'ok', read: 'ok' });
    } finally {
      await http.close();
    }
  });

  it('says honestly what it cannot test from here', async () => {
    const dropbox = await test({ draft: { type: 'dropbox', values: { access_token: 'x' } } });
    expect(dropbox).toMatchObject({ ok: true, tested: false, checks: [{ id: 'support', status: 'skipped' }] });
    expect(dropbox.checks[0]!.message).toMatch(/^Dropbox credentials cannot be tested from here/);

    const minio = await test({ draft: { type: 'minio', values: { host: core.localServiceUrl!, bucket: 'b', key: 'k', secret: 's' } } });
    expect(statuses(minio)).toEqual({ reach: 'ok', authenticate: 'skipped' });
  });

  it('answers the service error for an unknown saved id', async () => {
    const res = await dispatch(core.handlers, 'credentials:test', { id: 'no-such-credential' });
    expect(res.ok ? null : res.error.code).toBe('TEMPLATE_CREDENTIALS_NOT_READ');
    const neither = await dispatch(core.handlers, 'credentials:test', {});
    expect(neither.ok ? null : neither.error.code).toBe('INVALID_IPC_REQUEST');
  });
});

/** A real HTTP server: /files/ wants Basic media:letmein. */
async function startHttp(): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const ok = req.headers.authorization === `Basic ${Buffer.from('media:letmein').toString('base64')}`;
    res.writeHead(ok ? 200 : 401, ok ? {} : { 'www-authenticate': 'Basic realm="files"' }).end(ok ? 'index' : 'no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as { port: number }).port, close: () => new Promise((r) => server.close(() => r())) };
}
