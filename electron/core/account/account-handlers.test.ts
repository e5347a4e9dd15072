// account:bill and account:stats through core's dispatch (requests parsed as the page's are), for the
// Local workspace and for a "remote" one — a second real local service — signed and with Bearer tokens.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { runUsageAssemblies, type UsageRun } from '../../../service/testing/usage-runs';
import { BYTES_PER_GB } from '../../../shared/api/account-records';
import type { Bill, Stats } from '../../../shared/ipc/account-models';
import type { Workspace } from '../../../shared/ipc/models';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { channelCaller } from '../ipc/dispatch-testing';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';

let dir = '';
let core: Core;
let remote: LocalService;
let run: UsageRun;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-account-'));
  remote = await startLocalService({ dataDir: path.join(dir, 'remote-service') });
  run = await runUsageAssemblies(remote);
  core = await createCore(testCorePorts(dir, { secretStore: createKeyringSecretStore('assemblyline-account-test') }));
}, 60_000);
afterAll(async () => {
  await core?.close();
  await remote?.close();
  await rm(dir, { recursive: true, force: true });
});

const { call, failure } = channelCaller(() => core.handlers);
const thisMonth = (): string => new Date().toISOString().slice(0, 7);
const nowS = (): number => Math.floor(Date.now() / 1000);
const remoteDraft = (over: Record<string, unknown> = {}) => ({ name: 'Remote', endpoint: remote.url, authKey: remote.authKey, authSecret: remote.authSecret, slug: 'remote', ...over });

describe('account channels', () => {
  it('Local: an empty month and no Assemblies yet (statistics then ask for every region)', async () => {
    const bill = await call<Bill>('account:bill', { month: thisMonth() });
    expect(bill).toMatchObject({ month: thisMonth(), invoiceId: null, usedGb: 0 });
    const stats = await call<Stats>('account:stats', { since: nowS() - 3600, until: nowS() + 1, region: 'workspace' });
    expect(stats).toMatchObject({ region: 'all', totals: { assemblies: 0 } });
  });

  it('a remote workspace: its own bill and statistics, figures as the test sent them', async () => {
    const ws = await call<Workspace>('workspaces:save', remoteDraft());
    const bill = await call<Bill>('account:bill', { workspaceId: ws.id, month: thisMonth() });
    expect(bill.usedGb * BYTES_PER_GB).toBeCloseTo(run.uploadedBytes + run.resizeInputBytes, 3);
    const stats = await call<Stats>('account:stats', { workspaceId: ws.id, since: nowS() - 3600, until: nowS() + 1, region: 'workspace' });
    expect(stats.region).toBe('local');
    expect(stats.totals).toMatchObject({ assemblies: 3, bytesUploaded: run.uploadedBytes, outputBytes: run.outputBytes });
  });

  it('Bearer tokens limited to assemblies:read: statistics yes, the bill says which scope is missing', async () => {
    const ws = await call<Workspace>('workspaces:save', remoteDraft({ name: 'Tokens', authMode: 'bearer', tokenScopes: ['assemblies:read'] }));
    const stats = await call<Stats>('account:stats', { workspaceId: ws.id, since: nowS() - 3600, until: nowS() + 1, region: 'all' });
    expect(stats.totals.assemblies).toBe(3);
    expect(await failure('account:bill', { workspaceId: ws.id, month: thisMonth() })).toMatchObject({ code: 'INSUFFICIENT_AUTH_SCOPE' });
  });

  it('refuses a month or range the page should never send, before any request', async () => {
    expect(await failure('account:bill', { month: '2026-13' })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
    expect(await failure('account:stats', { since: -1, until: 10, region: 'all' })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
  });
});
