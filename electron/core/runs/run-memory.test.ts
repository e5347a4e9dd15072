import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { PRESETS } from '../../../shared/api/presets';
import { feedOf } from '../transfers/draft-feed';
import { makeFiles, openEngine } from '../transfers/testing/engine-fixture';

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
