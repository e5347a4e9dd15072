import { describe, expect, it } from 'vitest';
import type { AssemblyFile, AssemblyStatus } from '../api/assembly-status';
import type { Run } from './models';
import { applyRunUpdate, runUpdateOf } from './run-update';

const file = (id: string, extra: Partial<AssemblyFile> = {}): AssemblyFile => ({ id, name: `${id}.jpg`, size: 1000, ssl_url: `https://x/${id}`, ...extra });
const files = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => file(`${prefix}${i}`));

const run = (status: AssemblyStatus | null, over: Partial<Run> = {}): Run => ({
  runId: 'r1',
  workspaceId: 'local',
  assemblyId: 'a1',
  createdAt: '2026-11-25T00:00:00Z',
  state: status?.ok ?? 'CREATING',
  error: null,
  totals: { bytesTotal: 0, bytesUploaded: 0, filesTotal: 0, filesUploaded: 0, speedBps: 0, etaSeconds: null },
  files: [{ fileId: 'f0', relativePath: 'a.jpg', size: 1, bytesUploaded: 1, state: 'uploaded' }],
  status,
  ...over,
});

const status = (uploads: number, results: Record<string, number>, ok = 'ASSEMBLY_EXECUTING'): AssemblyStatus => ({
  ok,
  assembly_id: 'a1',
  uploads: files('u', uploads),
  results: Object.fromEntries(Object.entries(results).map(([step, n]) => [step, files(`${step}-`, n)])),
});

describe('run:updated as small deltas', () => {
  it('sends a 2,000-result Assembly whole once, then only what each event appended, and the page rebuilds the same record', () => {
    let sent: AssemblyStatus | null = null;
    let held: Run | undefined;
    const sizes: number[] = [];
    for (let done = 0; done <= 2_000; done += 100) {
      const next = run(status(2_000, { thumb: done, resize: Math.floor(done / 2) }));
      const update = runUpdateOf(next, sent);
      sizes.push(JSON.stringify(update).length);
      sent = next.status;
      held = applyRunUpdate(held, update) ?? undefined;
      expect(held?.status).toEqual(next.status);
    }
    // The first event carries the record; every later one carries 150 new results at most, not the 2,000 uploads again.
    expect(sizes[0]).toBeGreaterThan(2_000 * 40);
    expect(Math.max(...sizes.slice(1))).toBeLessThan(sizes[0]! / 5);
    expect(sizes.at(-1)).toBeLessThan(150 * 150);
  });

  it('never carries the per-file rows (they travel as run:progress) and keeps the ones the page holds', () => {
    const update = runUpdateOf(run(status(1, {})), null);
    expect(update.run.files).toEqual([]);
    const held = run(status(1, {}));
    expect(applyRunUpdate(held, runUpdateOf(run(status(2, {})), held.status))?.files).toEqual(held.files);
  });

  it('falls back to the whole record when something other than an append happened', () => {
    const before = status(3, { thumb: 3 });
    const shrunk = status(2, { thumb: 3 });
    expect(runUpdateOf(run(shrunk), before).delta).toBeNull();
    const replaced: AssemblyStatus = { ...before, results: { thumb: [file('other'), ...files('thumb-', 3).slice(1)] } };
    expect(runUpdateOf(run(replaced), before).delta).toBeNull();
    const stepGone: AssemblyStatus = { ...before, results: {} };
    expect(runUpdateOf(run(stepGone), before).delta).toBeNull();
  });

  it('a page that holds less than the delta assumes (it connected late) is told to fetch the run again', () => {
    const first = status(10, { thumb: 5 });
    const update = runUpdateOf(run(status(10, { thumb: 8 })), first);
    expect(update.delta?.results.thumb?.from).toBe(5);
    expect(applyRunUpdate(undefined, update)).toBeNull();
    expect(applyRunUpdate(run(status(10, { thumb: 4 })), update)).toBeNull();
    expect(applyRunUpdate(run(status(9, { thumb: 5 })), update)).toBeNull();
  });

  it('state and error changes travel with every update', () => {
    const done = runUpdateOf(run(status(1, { thumb: 1 }, 'ASSEMBLY_COMPLETED')), status(1, { thumb: 1 }));
    const held = applyRunUpdate(run(status(1, { thumb: 1 })), done);
    expect(held?.state).toBe('ASSEMBLY_COMPLETED');
    expect(held?.status?.ok).toBe('ASSEMBLY_COMPLETED');
  });
});
