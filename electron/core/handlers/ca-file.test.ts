import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostedDeployment, type HostedDeployment } from '../../../service/testing/hosted-deployment';
import { createTestCa } from '../../../service/testing/test-ca';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';
import type { ChannelName, ChannelRequest, ChannelResponse } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';
import { CA_FILE_INVALID, TLS_CERT_UNTRUSTED } from '../net/transport';

// A workspace's CA file as the Workspaces form hands it over: the user picks a file, the page gets a handle,
// core reads and checks it (workspaces:readCaFile) and the workspace saved with it reaches a deployment
// whose certificates that CA signed (service/testing/hosted-deployment.ts), through the real core and the
// real keyring (run with scripts/with-keyring.sh).
let dir = '';
let core: Core;
let d: HostedDeployment;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-ca-file-'));
  [core, d] = await Promise.all([
    createCore(
      testCorePorts(dir, {
        secretStore: createKeyringSecretStore(`assemblyline-ca-file-test-${process.pid}`),
        version: 'test',
      }),
    ),
    startHostedDeployment({ dataDir: path.join(dir, 'service') }),
  ]);
}, 60_000);

afterAll(async () => {
  await core?.close();
  await d?.close();
  await rm(dir, { recursive: true, force: true });
});

/** What the user picked, registered as a host registers a picked file. */
const pick = async (name: string, text: string | Buffer): Promise<string> => {
  const file = path.join(dir, 'picked', name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return core.files.register(file);
};
/** A request as the page sends it (parsed by the contract), answered with the channel's type. */
const call = <C extends ChannelName>(channel: C, request: ChannelRequest<C>) =>
  dispatch(core.handlers, channel, request) as Promise<Result<ChannelResponse<C>>>;
const codeOf = (r: Result<unknown>) => (r.ok ? 'ok' : r.error.code);

describe('a workspace CA file picked in the form', () => {
  it('is read in core and names its authority; what is no CA file is refused with CA_FILE_INVALID and why', async () => {
    const read = await call('workspaces:readCaFile', { handle: await pick('company-ca.pem', d.caPem) });
    expect(read).toMatchObject({ ok: true, value: { pem: d.caPem, subject: 'Assemblyline Hosted Test CA' } });
    if (read.ok) expect(Date.parse(read.value.validTo)).toBeGreaterThan(Date.now());

    const notPem = await call('workspaces:readCaFile', { handle: await pick('notes.txt', 'just some notes') });
    expect(notPem.ok || notPem.error).toMatchObject({ code: CA_FILE_INVALID, message: expect.stringMatching(/holds no certificate/) });
    const broken = await call('workspaces:readCaFile', {
      handle: await pick('broken.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'),
    });
    expect(broken.ok || broken.error).toMatchObject({ code: CA_FILE_INVALID, message: expect.stringMatching(/cannot be read/) });
    const huge = await call('workspaces:readCaFile', { handle: await pick('huge.pem', Buffer.alloc(300_000, 65)) });
    expect(huge.ok || huge.error).toMatchObject({ code: CA_FILE_INVALID, message: expect.stringMatching(/too large/) });
    await mkdir(path.join(dir, 'picked', 'a-folder'), { recursive: true });
    const folder = await call('workspaces:readCaFile', { handle: core.files.register(path.join(dir, 'picked', 'a-folder')) });
    expect(folder.ok || folder.error).toMatchObject({ code: CA_FILE_INVALID, message: expect.stringMatching(/not a folder/) });
    // Only what the user picked: a path, or a handle core never issued, is not read.
    expect(codeOf(await call('workspaces:readCaFile', { handle: '/etc/ssl/certs/ca-certificates.crt' }))).not.toBe('ok');
  });

  it('the workspace saved with it connects; without it (or with another CA) the certificate is said to be untrusted', async () => {
    const draft = { name: 'Company', endpoint: d.endpoint, authKey: d.service.authKey, authSecret: d.service.authSecret };
    const untrusted = await call('workspaces:test', { draft });
    expect(untrusted.ok && untrusted.value.checks[0]).toMatchObject({ id: 'reach', status: 'fail', code: TLS_CERT_UNTRUSTED });

    const other = await createTestCa('Some Other CA');
    const wrongCa = await call('workspaces:test', { draft: { ...draft, caPem: other.caPem } });
    expect(wrongCa.ok && wrongCa.value.checks[0]).toMatchObject({ status: 'fail', code: TLS_CERT_UNTRUSTED });

    const read = await call('workspaces:readCaFile', { handle: await pick('ca.pem', d.caPem) });
    if (!read.ok) throw new Error(read.error.message);
    const tested = await call('workspaces:test', { draft: { ...draft, caPem: read.value.pem } });
    expect(tested.ok && tested.value.checks.filter((c) => c.status === 'fail')).toEqual([]);
    const saved = await call('workspaces:save', { ...draft, caPem: read.value.pem });
    expect(saved).toMatchObject({ ok: true, value: { ca: { subject: 'Assemblyline Hosted Test CA' } } });
    if (!saved.ok) return;
    const templates = await call('templates:list', { workspaceId: saved.value.id });
    expect(codeOf(templates)).toBe('ok');

    // Browser sign-in is discovered through the same CA (the form's, or the saved workspace's); without it the
    // deployment's metadata cannot be read.
    expect(await call('workspaces:signInAvailable', { endpoint: d.endpoint })).toMatchObject({ ok: true, value: { available: false } });
    expect(await call('workspaces:signInAvailable', { endpoint: d.endpoint, caPem: read.value.pem })).toMatchObject({ ok: true, value: { available: true } });
    expect(await call('workspaces:signInAvailable', { endpoint: d.endpoint, id: saved.value.id })).toMatchObject({ ok: true, value: { available: true } });

    // Edited without a CA in the request keeps it; null removes it, and the deployment is untrusted again.
    const renamed = await call('workspaces:save', { ...draft, id: saved.value.id, name: 'Company EU' });
    expect(renamed).toMatchObject({ ok: true, value: { name: 'Company EU', ca: { subject: 'Assemblyline Hosted Test CA' } } });
    const removed = await call('workspaces:save', { ...draft, id: saved.value.id, caPem: null });
    expect(removed).toMatchObject({ ok: true, value: { ca: null } });
    const after = await call('workspaces:test', { id: saved.value.id });
    expect(after.ok && after.value.checks[0]).toMatchObject({ status: 'fail', code: TLS_CERT_UNTRUSTED });
  });
});
