import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type { Run } from '../../../shared/ipc/models';
import { runUpdateOf } from '../../../shared/ipc/run-update';
import { sampleRun } from './test/fake-bridge';
import { receiveRunUpdate, runKey, runsListKey } from './run-events';

const withResults = (n: number): AssemblyStatus => ({
  ok: 'ASSEMBLY_EXECUTING',
  results: { thumb: Array.from({ length: n }, (_, i) => ({ id: `r${i}`, name: `r${i}.jpg` })) },
});

describe('run:updated into the page cache', () => {
  it('the open Assembly view gains only the new results, and the Activity list its new state', () => {
    const client = new QueryClient();
    const held: Run = sampleRun({ runId: 'r1', status: withResults(2) });
    client.setQueryData(runKey('r1'), held);
    client.setQueryData(runsListKey(), [held]);
    const next = sampleRun({ runId: 'r1', state: 'ASSEMBLY_COMPLETED', status: { ...withResults(5), ok: 'ASSEMBLY_COMPLETED' } });
    receiveRunUpdate(client, runUpdateOf(next, held.status));
    expect(client.getQueryData<Run>(runKey('r1'))?.status?.results?.thumb).toHaveLength(5);
    expect(client.getQueryData<Run[]>(runsListKey())?.[0]?.state).toBe('ASSEMBLY_COMPLETED');
  });

  it('a page that opened the run mid-way and holds fewer results than the update assumes fetches the run again', () => {
    const client = new QueryClient();
    const held: Run = sampleRun({ runId: 'r1', status: withResults(1) });
    client.setQueryData(runKey('r1'), held);
    receiveRunUpdate(client, runUpdateOf(sampleRun({ runId: 'r1', status: withResults(6) }), withResults(4)));
    // Not applied on top of a gap: the cache keeps what it had until the fetch answers.
    expect(client.getQueryData<Run>(runKey('r1'))?.status?.results?.thumb).toHaveLength(1);
    expect(client.getQueryState(runKey('r1'))?.isInvalidated).toBe(true);
  });

  it('a drop of many Assemblies the page never opened leaves no upload or result lists in the cache: what it holds follows the open views, not the queue', () => {
    const client = new QueryClient();
    client.setQueryData(runsListKey(), [] as Run[]);
    const open: Run = sampleRun({ runId: 'open', status: { ok: 'ASSEMBLY_UPLOADING', uploads: [] } });
    client.setQueryData(runKey('open'), open);
    const files = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}-u${i}`, name: `${prefix}-${i}.txt` }));
    const statusOf = (runId: string, n: number): AssemblyStatus => ({ ok: n < 40 ? 'ASSEMBLY_UPLOADING' : 'ASSEMBLY_COMPLETED', uploads: files(n, runId), results: { ':original': files(n, `${runId}-r`) } });
    // 30 Assemblies of 40 files each, the open one among them: a whole first record, then appends of 10.
    const runIds = ['open', ...Array.from({ length: 29 }, (_, i) => `run-${i}`)];
    for (const runId of runIds) {
      let sent: AssemblyStatus | null = null;
      for (const n of [0, 10, 20, 30, 40]) {
        const status = statusOf(runId, n);
        receiveRunUpdate(client, runUpdateOf(sampleRun({ runId, status, state: n < 40 ? 'ASSEMBLY_UPLOADING' : 'ASSEMBLY_COMPLETED' }), sent));
        sent = status;
      }
    }
    const held = client.getQueryCache().getAll().flatMap((q) => {
      const data = q.state.data as Run | Run[] | undefined;
      return (Array.isArray(data) ? data : data ? [data] : []).map((run) => ({ key: q.queryKey, run }));
    });
    const listsHeld = (run: Run) => (run.status?.uploads?.length ?? 0) + Object.values(run.status?.results ?? {}).reduce((sum, items) => sum + items.length, 0);
    // Only the open Assembly's own query holds its 40 uploads and 40 results; the 29 others none anywhere.
    expect(held.reduce((sum, h) => sum + listsHeld(h.run), 0)).toBe(80);
    expect(client.getQueryData<Run>(runKey('open'))?.status?.uploads).toHaveLength(40);
    expect(client.getQueryData<Run>(runKey('run-0'))).toBeUndefined();
    // The Activity list still shows every run, in its latest state.
    const list = client.getQueryData<Run[]>(runsListKey()) ?? [];
    expect(list.map((r) => r.runId).sort()).toEqual([...runIds].sort());
    expect(list.every((r) => r.state === 'ASSEMBLY_COMPLETED' && r.status?.ok === 'ASSEMBLY_COMPLETED')).toBe(true);
  });
});
