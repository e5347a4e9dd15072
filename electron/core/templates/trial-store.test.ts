import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../../../shared/ipc/models';
import { err, ok } from '../../../shared/result';
import { createTemplateTrials } from './template-trial';
import { openTrialStore, type StoredTrial } from './trial-store';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const trial = (id: string, templateId: string, remoteRun: string): StoredTrial => ({
  id,
  createdAt: '2026-11-29T07:00:00.000Z',
  templateId,
  templateName: 'Thumbnails to S3',
  localTemplateId: 'tpl_local',
  remoteContent: { steps: { thumb: { robot: '/image/resize', use: ':original' } } },
  localContent: { steps: { thumb: { robot: '/image/resize', use: ':original' } } },
  changes: [{ step: 'store', kind: 'swapped', from: '/s3/store', to: '/transloadit/store', reason: 'no credentials here' }],
  files: 2,
  remote: { workspaceId: 'ws_prod', runId: remoteRun },
  local: { workspaceId: 'local', runId: `${remoteRun}_local` },
});

describe('template tries on disk', () => {
  it('keeps every try and the Local copy of each Template across a restart; the newest try of a Template comes back', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'trials-'));
    dirs.push(dir);
    const first = openTrialStore(dir);
    first.save(trial('t1', 'tpl_a', 'r1'));
    first.save(trial('t2', 'tpl_a', 'r2'));
    first.save(trial('t3', 'tpl_b', 'r3'));
    first.setCopy('ws_prod', 'tpl_a', 'tpl_local_a');
    first.close();

    const store = openTrialStore(dir);
    expect(store.get('t1')).toEqual(trial('t1', 'tpl_a', 'r1'));
    expect(store.latest('ws_prod', 'tpl_a')?.id).toBe('t2');
    expect(store.latest('ws_prod', 'tpl_b')?.id).toBe('t3');
    expect(store.latest('ws_other', 'tpl_a')).toBeNull();
    expect([store.copyOf('ws_prod', 'tpl_a'), store.copyOf('ws_prod', 'tpl_b')]).toEqual(['tpl_local_a', null]);

    // Core after a restart: the try's comparison is built again from what was kept (its runs as core has them).
    const completed = { runId: 'r2', state: 'ASSEMBLY_COMPLETED', error: null, assemblyId: 'a2', status: { ok: 'ASSEMBLY_COMPLETED', results: { thumb: [{ size: 100, meta: { width: 8, height: 6 } }] }, execution_duration: 1.5 } } as unknown as Run;
    const runs = { get: (runId: string) => (runId === 'r2' ? ok(completed) : err('NOT_FOUND', 'gone')) };
    const trials = createTemplateTrials({ clientFor: () => err('NOT_USED', 'not used'), startRun: async () => err('NOT_USED', 'not used'), runs, store });
    const last = trials.latest({ workspaceId: 'ws_prod', templateId: 'tpl_a' });
    expect(last.ok && last.value).toMatchObject({ id: 't2', templateName: 'Thumbnails to S3', files: 2, changes: [{ step: 'store', kind: 'swapped' }], remote: { runId: 'r2', assemblyId: 'a2', ended: true, executionSeconds: 1.5 }, local: { runId: 'r2_local' } });
    expect(last.ok && last.value?.steps).toMatchObject([{ step: 'thumb', remote: { results: 1, bytes: 100 }, local: null }]);
    const missing = trials.get('nope');
    expect(missing.ok).toBe(false);
    store.close();
  });
});
