// "A stored secret goes only where it was given", for Template credentials, through core's dispatch with
// the real local service holding them and real listeners on loopback recording every byte: a test or an
// edit that points a saved credential elsewhere never carries its stored password, key or headers there.
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential, CredentialTestReport } from '../../../shared/ipc/template-models';
import { createApiClient } from '../api/api-client';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { channelCaller } from '../ipc/dispatch-testing';
import { startRecordingListener, type RecordingListener } from '../security/testing/recording-listener';
import { readCredentialContent } from '../templates/credential-api';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';

const PASSWORD = 'pw-stored-5b1e9c';
const TOKEN = 'tok-stored-88d0aa';
const basic = (user: string, pw: string) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;

let dir = '';
let core: Core;
/** Where the credentials were saved (A), another port (B), another loopback address (C) and IPv6 loopback (D). */
let a: RecordingListener;
let b: RecordingListener;
let c: RecordingListener;
let d: RecordingListener;
let sshA: RecordingListener;
let sshB: RecordingListener;
const all = () => [a, b, c, d, sshA, sshB];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-stored-secrets-'));
  [core, a, b, sshA, sshB] = await Promise.all([
    createCore(testCorePorts(dir, { secretStore: createKeyringSecretStore('assemblyline-stored-secrets-test') })),
    startRecordingListener(),
    startRecordingListener(),
    startRecordingListener({ greeting: 'SSH-2.0-OpenSSH_9.2\r\n' }),
    startRecordingListener({ greeting: 'SSH-2.0-OpenSSH_9.2\r\n' }),
  ]);
  // The same port number on other loopback addresses: only the address differs from A.
  [c, d] = await Promise.all([startRecordingListener({ host: '127.0.0.2', port: a.port }), startRecordingListener({ host: '::1', port: a.port })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([core?.close(), ...all().map((l) => l?.close())]);
  await rm(dir, { recursive: true, force: true });
});

const { call, failure } = channelCaller(() => core.handlers);
const resetAll = () => all().forEach((l) => l.reset());
const leaked = () => all().filter((l) => l.received().includes(PASSWORD) || l.received().includes(TOKEN) || l.received().includes(basic('media', PASSWORD)));
/** What the service holds, read with the Local workspace's own signed client, as core does. */
const stored = async (id: string) => {
  const [local] = await call<{ endpoint: string; authKey: string }[]>('workspaces:list', {});
  const secret = await core.vault.get('local');
  const api = createApiClient({ endpoint: local!.endpoint, authKey: local!.authKey, getSecret: async () => secret });
  const content = await readCredentialContent(api, id);
  if (!content.ok) throw new Error(content.error.message);
  return content.value.content;
};
const httpValues = (url: string, over: Record<string, string> = {}) => ({ url, username: 'media', password: PASSWORD, headers: JSON.stringify({ 'X-Api-Token': TOKEN }), ...over });
const create = async (name: string, type: string, values: Record<string, string>) => (await call<Credential>('credentials:create', { name, type, values })).id;

describe('credentials:test sends stored secrets only to the saved destination', () => {
  it('HTTP: the saved URL gets the login and headers; another port gets nothing at all until they are typed again', async () => {
    const id = await create('files_http', 'http', httpValues(`http://127.0.0.1:${a.port}/files/`));
    resetAll();
    expect((await call<CredentialTestReport>('credentials:test', { id })).ok).toBe(true);
    expect(a.received()).toContain(`authorization: ${basic('media', PASSWORD)}`);
    expect(a.received()).toContain(`X-Api-Token: ${TOKEN}`);

    resetAll();
    const moved = await call<CredentialTestReport>('credentials:test', { id, draft: { type: 'http', values: httpValues(`http://127.0.0.1:${b.port}/files/`, { password: '', headers: '' }) } });
    expect(moved.checks).toEqual([expect.objectContaining({ id: 'settings', status: 'fail', code: 'SECRET_NOT_FOR_DESTINATION' })]);
    expect(moved.checks[0]!.message).toBe(
      `The stored Password, Extra headers (JSON) were saved for http://127.0.0.1:${a.port}/files, not http://127.0.0.1:${b.port}/files: type them again to test the HTTP server there.`,
    );
    expect(b.connections()).toBe(0);
    expect(leaked()).toEqual([]);

    // A password typed again goes there; the stored headers still do not.
    resetAll();
    await call<CredentialTestReport>('credentials:test', { id, draft: { type: 'http', values: httpValues(`http://127.0.0.1:${b.port}/files/`, { password: 'typed-again', headers: '' }) } });
    expect(b.received()).toContain(`authorization: ${basic('media', 'typed-again')}`);
    expect(leaked()).toEqual([]);
  });

  it('SFTP: a draft on another port connects nowhere with the stored password', async () => {
    const id = await create('box_sftp', 'sftp', { host: '127.0.0.1', port: String(sshA.port), user: 'deploy', password: PASSWORD });
    resetAll();
    await call<CredentialTestReport>('credentials:test', { id });
    expect(sshA.connections()).toBeGreaterThan(0);

    resetAll();
    const moved = await call<CredentialTestReport>('credentials:test', { id, draft: { type: 'sftp', values: { host: '127.0.0.1', port: String(sshB.port), user: 'deploy', password: '' } } });
    expect(moved.checks[0]).toMatchObject({ id: 'settings', status: 'fail', code: 'SECRET_NOT_FOR_DESTINATION' });
    expect(sshB.connections()).toBe(0);
    // The same place written differently (another spelling of 127.0.0.1) is no move.
    resetAll();
    await call<CredentialTestReport>('credentials:test', { id, draft: { type: 'sftp', values: { host: '127.1', port: ` ${sshA.port}`, user: 'deploy', password: '' } } });
    expect(sshA.connections()).toBeGreaterThan(0);
  });

  it('over generated destination changes, a changed one never receives a stored secret and an unchanged one still does', async () => {
    const id = await create('prop_http', 'http', httpValues(`http://127.0.0.1:${a.port}/files/`));
    // The oracle, written independently of the rule: which of these spellings name the saved place.
    // (An IPv4 address may end in a dot: the URL standard reads 127.0.0.1. as 127.0.0.1. A name may not.)
    const sameHosts = ['127.0.0.1', '127.1', '2130706433', '0x7f.0.0.1', '0177.0.0.1', '127.0.0.1.'];
    const otherHosts = ['localhost', 'LOCALHOST', 'localhost.', '127.0.0.2', '[::1]', '[::ffff:127.0.0.1]', '127.0.0.01.x'];
    const samePaths = ['/files', '/files/', '/files/.', '/files/../files/', '/files#x', '/./files', '/files/#@evil'];
    const otherPaths = ['', '/', '/FILES', '/other', '/files/sub', '/files?x=1', '/files%2f', '//files'];
    const draft = fc.record({
      scheme: fc.constantFrom('http', 'HTTP', 'Http', 'https'),
      user: fc.constantFrom('', '', '', 'media@', 'media:x@'),
      host: fc.constantFrom(...sameHosts, ...otherHosts),
      port: fc.constantFrom('a', 'a', '0a', 'b', 'none'),
      path: fc.constantFrom(...samePaths, ...otherPaths),
    });
    await fc.assert(
      fc.asyncProperty(draft, async (g) => {
        const port = g.port === 'a' ? `:${a.port}` : g.port === '0a' ? `:0${a.port}` : g.port === 'b' ? `:${b.port}` : '';
        const url = `${g.scheme}://${g.user}${g.host}${port}${g.path}`;
        const same = g.scheme.toLowerCase() === 'http' && g.user === '' && sameHosts.includes(g.host) && (g.port === 'a' || g.port === '0a') && samePaths.includes(g.path);
        resetAll();
        await call<CredentialTestReport>('credentials:test', { id, draft: { type: 'http', values: httpValues(url, { password: '', headers: '' }) } });
        if (same) {
          expect(a.received(), url).toContain(basic('media', PASSWORD));
          expect(a.received(), url).toContain(TOKEN);
        } else {
          expect(leaked().map((l) => `${l.host}:${l.port}`), url).toEqual([]);
        }
      }),
      { numRuns: Number(process.env.ASSEMBLYLINE_FUZZ_RUNS ?? 80) },
    );
  }, 120_000);
});

describe('credentials:update moving a credential elsewhere leaves its stored secrets behind', () => {
  it('HTTP: the new URL is saved without the password and headers, and nothing of them reaches it', async () => {
    const id = await create('move_http', 'http', httpValues(`http://127.0.0.1:${a.port}/files/`));
    const moved = await call<Credential>('credentials:update', { id, name: 'move_http', type: 'http', values: httpValues(`http://127.0.0.1:${b.port}/files/`, { password: '', headers: '' }) });
    expect(moved).toMatchObject({ values: { url: `http://127.0.0.1:${b.port}/files/`, username: 'media' }, secretsSet: [] });
    expect(await stored(id)).toEqual({ url: `http://127.0.0.1:${b.port}/files/`, username: 'media' });
    resetAll();
    await call<CredentialTestReport>('credentials:test', { id });
    expect(b.connections()).toBe(1);
    expect(leaked()).toEqual([]);
  });

  it('FTP: moving the host without typing the required password again is refused, and nothing changes', async () => {
    const id = await create('move_ftp', 'ftp', { host: 'ftp-a.example.com', port: '21', user: 'me', password: PASSWORD });
    const refused = await failure('credentials:update', { id, name: 'move_ftp', type: 'ftp', values: { host: 'ftp-b.example.com', port: '21', user: 'me', password: '' } });
    expect(refused).toMatchObject({
      code: 'SECRET_NOT_FOR_DESTINATION',
      message: 'Type the Password again: it was saved for ftp-a.example.com:21, and these credentials now point to ftp-b.example.com:21.',
    });
    expect(await stored(id)).toEqual({ host: 'ftp-a.example.com', port: 21, user: 'me', password: PASSWORD });
    // Typed again, it moves; the same place written differently keeps the stored one.
    await call<Credential>('credentials:update', { id, name: 'move_ftp', type: 'ftp', values: { host: 'FTP-B.example.com', port: '', user: 'me', password: 'new-pw' } });
    const kept = await call<Credential>('credentials:update', { id, name: 'move_ftp', type: 'ftp', values: { host: 'ftp-b.example.com', port: '21', user: 'you', password: '' } });
    expect(kept.secretsSet).toEqual(['password']);
    expect(await stored(id)).toEqual({ host: 'ftp-b.example.com', port: 21, user: 'you', password: 'new-pw' });
  });

  it('a type without a form: a changed endpoint field drops the secrets that look secret', async () => {
    const id = await create('move_ai', 'ai', { endpoint: `http://127.0.0.1:${a.port}/v1`, api_key: PASSWORD });
    const moved = await call<Credential>('credentials:update', { id, name: 'move_ai', type: 'ai', values: { endpoint: `http://127.0.0.1:${b.port}/v1`, api_key: '' } });
    expect(moved.secretsSet).toEqual([]);
    expect(JSON.stringify(await stored(id))).not.toContain(PASSWORD);
  });
});

describe('connection tests say reachable or not in the app’s own words, never what the other side sent', () => {
  it('FTP and SFTP: a banner is never repeated, FTP or not', async () => {
    const secretBanner = 'internal-admin root:hunter2-banner';
    const servers = await Promise.all([
      startRecordingListener({ greeting: `${secretBanner}\r\n` }),
      startRecordingListener({ greeting: `220 ${secretBanner}\r\n` }),
      startRecordingListener({ greeting: `SSH-2.0-${secretBanner}\r\n` }),
    ]);
    try {
      const [notFtp, ftp, ssh] = servers as [RecordingListener, RecordingListener, RecordingListener];
      const reports = [
        await call<CredentialTestReport>('credentials:test', { draft: { type: 'ftp', values: { host: '127.0.0.1', port: String(notFtp.port), user: 'u', password: 'p' } } }),
        await call<CredentialTestReport>('credentials:test', { draft: { type: 'ftp', values: { host: '127.0.0.1', port: String(ftp.port), user: 'u', password: 'p' } } }),
        await call<CredentialTestReport>('credentials:test', { draft: { type: 'sftp', values: { host: '127.0.0.1', port: String(notFtp.port), user: 'u', password: 'p' } } }),
      ];
      expect(reports.map((r) => r.checks[0]?.message)).toEqual([
        `127.0.0.1:${notFtp.port} answered, but not with an FTP greeting: check the port (FTP is usually 21).`,
        `127.0.0.1:${ftp.port} answered as an FTP server.`,
        `127.0.0.1:${notFtp.port} answered, but not as an SSH server: check the port (SFTP is usually 22).`,
      ]);
      const sftp = await call<CredentialTestReport>('credentials:test', { draft: { type: 'sftp', values: { host: '127.0.0.1', port: String(ssh.port), user: 'u', password: 'p' } } });
      expect(sftp.checks[0]?.message).toBe(`127.0.0.1:${ssh.port} answered as an SSH server.`);
      for (const report of [...reports, sftp]) expect(JSON.stringify(report)).not.toContain('hunter2');
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  }, 30_000);
});
