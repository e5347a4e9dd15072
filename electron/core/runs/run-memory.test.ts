import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { PRESETS } from '../../../shared/api/presets';
import { ok } from '../../../shared/result';
import { createApiClient } from '../api/api-client';
import { createCoreEvents } from '../events';
import { feedOf } from '../transfers/draft-feed';
import { makeFiles, openEngine } from '../transfers/testing/engine-fixture';
import { createRunManager } from './run-manager';
import { openRunStore } from './run-store';

// P3 (issue 11): 100 finished Assemblies of 1,000 files kept ~400 MB of statuses in memory. A finished run
// keeps its status header in memory; the Assembly view (runs:get) and results still see the whole status.
const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
let dir = '';
let service: LocalService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-run-memory-'));
  service = await startLocalService({ dataDir: path.join(dir, 'service'), port: 0 });
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('finished runs keep their statuses on disk', () => {
  it('lists headers, answers runs:get whole (also after a restart)', async () => {
    const files = await makeFiles(path.join(dir, 'shoot'), Array.from({ length: 12 }, (_, i) => ({ relativePath: `shoot/c-${i}.jpg`, size: 500 + i })));
    const data = path.join(dir, 'data');
    const h = await openEngine(service, data, { batchMode: 'every-n', batchMaxFiles: 6 });
    const started = await h.engine.start({ instructions: { steps }, feed: feedOf('shoot', files) });
    if (!started.ok) throw new Error(started.error.message);
    await h.engine.settled(started.value.id);
    const runIds = h.engine.batchesOf(started.value.id).map((b) => b.runId!);
    expect(runIds).toHaveLength(2);

    const check = (runs: typeof h.runs) => {
      for (const runId of runIds) {
        const listed = runs.list().find((r) => r.runId === runId)!;
        expect(listed.state).toBe('ASSEMBLY_COMPLETED');
        expect(listed.status?.ok).toBe('ASSEMBLY_COMPLETED');
        expect(listed.status?.uploads).toBeUndefined();
        const got = runs.get(runId);
        if (!got.ok) throw new Error(got.error.message);
        expect(got.value.status?.uploads?.map((u) => u.name).sort()).toHaveLength(6);
        expect(Object.values(got.value.status?.results ?? {}).flat()).toHaveLength(6);
      }
    };
    check(h.runs);
    await h.close();

    const again = await openEngine(service, data);
    check(again.runs);
    await again.close();
  }, 30_000);
});

describe('a running Assembly is stored as its header', () => {
  // Issue 27: every status of a running 1,000-file Assembly was written whole (~4 MB of JSON) on each change.
  it('keeps state and URL while it runs, the whole status once it ends, and a restart follows it again', async () => {
    const api = createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => service.authSecret });
    // One file in the POST, one tus upload still expected: the Assembly waits, listing one upload.
    const created = await api.createAssembly({ instructions: { steps }, expectedUploads: 1, files: [{ field: 'a', name: 'a.jpg', data: new Blob(['first file']) }] });
    if (!created.ok) throw new Error(created.error.message);
    expect(created.value.ok).toBe('ASSEMBLY_UPLOADING');
    expect(created.value.uploads).toHaveLength(1);
    const data = path.join(dir, 'header-data');
    const managerOn = (store: ReturnType<typeof openRunStore>) => createRunManager({ events: createCoreEvents(), clientFor: () => ok({ workspaceId: 'local', api }), store, pollIntervalMs: 200 });

    const first = managerOn(openRunStore(data));
    const adopted = first.adopt({ workspaceId: 'local', status: created.value, instructions: { steps } });
    if (!adopted.ok) throw new Error(adopted.error.message);
    const runId = adopted.value.runId;
    // In memory the run keeps its whole status while it runs (the engine verifies each file against it).
    const live = first.get(runId);
    expect(live.ok && live.value.status?.uploads).toHaveLength(1);
    await first.close();

    const store = openRunStore(data);
    const [stored] = store.load();
    expect(stored).toMatchObject({ runId, finished: false, state: 'ASSEMBLY_UPLOADING', status: { ok: 'ASSEMBLY_UPLOADING', assembly_id: created.value.assembly_id } });
    expect(stored!.status?.assembly_ssl_url ?? stored!.status?.assembly_url).toBeTruthy();
    expect(stored!.status?.uploads).toBeUndefined();

    // A restart follows the Assembly from its stored URL; canceling it ends the run with the whole status.
    const second = managerOn(store);
    await second.restore();
    const canceled = await second.cancel(runId);
    if (!canceled.ok) throw new Error(canceled.error.message);
    expect(canceled.value.state).toBe('ASSEMBLY_CANCELED');
    expect(canceled.value.status?.uploads?.map((u) => u.name)).toEqual(['a.jpg']);
    await second.close();
    const reopened = openRunStore(data);
    expect(reopened.statusOf(runId)?.uploads?.map((u) => u.name)).toEqual(['a.jpg']);
    reopened.close();
  }, 30_000);

  it('stores a status that says the Assembly ended whole, even when the app stops before the run is marked finished', async () => {
    const api = createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => service.authSecret });
    const created = await api.createAssembly({ instructions: { steps }, expectedUploads: 1, files: [{ field: 'a', name: 'a.jpg', data: new Blob(['first file']) }] });
    if (!created.ok) throw new Error(created.error.message);
    const data = path.join(dir, 'ended-data');
    const events = createCoreEvents();
    const first = createRunManager({ events, clientFor: () => ok({ workspaceId: 'local', api }), store: openRunStore(data), pollIntervalMs: 100 });
    // The app stops the moment the run learns the Assembly ended (before it marks the run finished).
    events.on((name, payload) => {
      if (name === 'run:updated' && (payload as { run?: { state?: string } }).run?.state === 'ASSEMBLY_CANCELED') void first.close();
    });
    const adopted = first.adopt({ workspaceId: 'local', status: created.value, instructions: { steps } });
    if (!adopted.ok) throw new Error(adopted.error.message);
    // Ended from elsewhere (another client, the console): the run follows it to its end.
    const url = created.value.assembly_ssl_url ?? created.value.assembly_url;
    expect((await api.cancelAssembly(url!)).ok).toBe(true);
    const stored = await (async () => {
      for (let i = 0; i < 200; i++) {
        const store = openRunStore(data);
        const [run] = store.load();
        const whole = run ? store.statusOf(run.runId) : null;
        const header = run?.status ?? null;
        store.close();
        if (header?.ok === 'ASSEMBLY_CANCELED') return { header, whole, finished: run!.finished };
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the run never stored the ended Assembly');
    })();
    // Not marked finished (the app stopped first), yet its uploads are kept: a restart can verify against them.
    expect(stored.finished).toBe(false);
    const reopened = openRunStore(data);
    const [run] = reopened.load();
    expect(run?.status?.uploads?.map((u) => u.name)).toEqual(['a.jpg']);
    reopened.close();
  }, 30_000);
});
