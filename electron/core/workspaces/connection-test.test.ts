// The connection test against a real local service, with this computer's clock set wrong.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { testConnection } from './connection-test';
import type { StoredWorkspace } from './workspace-store';

let dir = '';
let service: LocalService;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-conn-'));
  service = await startLocalService({ dataDir: dir });
});
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

const workspace = (): StoredWorkspace => ({
  id: 'w',
  name: 'W',
  kind: 'remote',
  endpoint: service.url,
  authKey: service.authKey,
  signatureAlgo: 'sha384',
  slug: '',
  authMode: 'signature',
  tokenScopes: null,
});

describe('connection test', () => {
  it('two hours behind: says so, and passes, because the app signs by the service\'s time', async () => {
    const report = await testConnection({ workspace: workspace(), secret: service.authSecret, clock: () => Date.now() - 2 * 3600_000 });
    expect(report.ok).toBe(true);
    expect(report.skewSeconds).toBeGreaterThan(7000);
    const clock = report.checks.find((c) => c.id === 'clock');
    expect(clock).toMatchObject({ status: 'warn' });
    expect(clock?.message).toMatch(/120 minutes behind the service.*set it automatically/);
    // The key and secret themselves are fine, and the report says so.
    expect(report.checks.find((c) => c.id === 'secret')?.status).toBe('ok');
  });

  it('warns about a small skew but passes', async () => {
    const report = await testConnection({ workspace: workspace(), secret: service.authSecret, clock: () => Date.now() + 90_000 });
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.id === 'clock')).toMatchObject({ status: 'warn' });
    expect(report.checks.find((c) => c.id === 'clock')?.message).toMatch(/\b(89|90|91) seconds ahead of the service/);
  });

  it('says when a saved workspace has no secret', async () => {
    const report = await testConnection({ workspace: workspace(), secret: null });
    expect(report.checks.find((c) => c.id === 'secret')).toMatchObject({ status: 'fail' });
    expect(report.checks.find((c) => c.id === 'secret')?.message).toMatch(/No Auth Secret is stored/);
  });
});
