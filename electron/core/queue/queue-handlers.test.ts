// Queue channels through core's dispatch, against the real embedded local service (signed requests), and
// a second service as a remote workspace (Bearer tokens with or without queues:read).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobSlots, SlotStats } from '../../../shared/ipc/queue-models';
import type { Workspace } from '../../../shared/ipc/models';
import { startLocalService, type LocalService } from '../../../service/index';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';

let dir = '';
let core: Core;
let remote: LocalService;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-queue-'));
  core = await createCore(
    testCorePorts(dir, {
      secretStore: createKeyringSecretStore('assemblyline-queue-test'),
      localService: { jobSlots: 3 },
    }),
  );
  remote = await startLocalService({ dataDir: path.join(dir, 'remote-service'), jobSlots: 2 });
}, 60_000);
afterAll(async () => {
  await core.close();
  await remote.close();
  await rm(dir, { recursive: true, force: true });
});

describe('queue channels', () => {
  it('read the job slots of the local service, sized by the host (ASSEMBLYLINE_JOB_SLOTS)', async () => {
    const r = await dispatch(core.handlers, 'queue:jobSlots', {});
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect((r as { value: JobSlots }).value).toMatchObject({ inUse: 0, total: 3, jobs: [], waiting: [] });
  });

  it('read slot statistics for the last hour, one bucket a minute', async () => {
    const r = await dispatch(core.handlers, 'queue:slotStats', { range: 'hour', aggregation: 'max' });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const stats = (r as { value: SlotStats }).value;
    expect(stats).toMatchObject({ granularity: 60, aggregation: 'max', total: 3 });
    expect(stats.points).toHaveLength(60);
  });

  it('refuse a bad aggregation before it reaches the service', async () => {
    const r = await dispatch(core.handlers, 'queue:slotStats', { range: 'hour', aggregation: 'median' } as never);
    expect(!r.ok && r.error.code).toBe('INVALID_IPC_REQUEST');
  });

  it('work on a remote workspace with a token holding queues:read, and explain one without it', async () => {
    const save = (name: string, tokenScopes: string[]) =>
      dispatch(core.handlers, 'workspaces:save', { name, endpoint: remote.url, authKey: remote.authKey, authSecret: remote.authSecret, slug: name.toLowerCase().replace(/ /g, '-'), authMode: 'bearer', tokenScopes });
    const allowed = await save('Queue reader', ['queues:read']);
    expect(allowed.ok, JSON.stringify(allowed)).toBe(true);
    const slots = await dispatch(core.handlers, 'queue:jobSlots', { workspaceId: (allowed as { value: Workspace }).value.id });
    expect(slots.ok && (slots.value as JobSlots).total).toBe(2);
    const stats = await dispatch(core.handlers, 'queue:slotStats', { workspaceId: (allowed as { value: Workspace }).value.id, range: 'day', aggregation: 'avg' });
    expect(stats.ok && (stats.value as SlotStats).points).toHaveLength(96);

    const denied = await save('Templates only', ['templates:read']);
    const refused = await dispatch(core.handlers, 'queue:jobSlots', { workspaceId: (denied as { value: Workspace }).value.id });
    expect(!refused.ok && refused.error.code).toBe('INSUFFICIENT_AUTH_SCOPE');
  });
});
