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
});
