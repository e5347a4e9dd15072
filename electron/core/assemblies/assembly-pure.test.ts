import { describe, expect, it } from 'vitest';
import { assemblyListQuerySchema, type AssemblyListItem } from '../../../shared/ipc/assembly-models';
import type { Run } from '../../../shared/ipc/models';
import { replayParams } from './assembly-api';
import { executionProgress } from './assembly-follower';
import { toListItem } from './list-items';
import { listParams, serviceDateToIso } from './list-params';
import { mergeRuns } from './merge-runs';

const q = (over: Record<string, unknown> = {}) => assemblyListQuerySchema.parse(over);
const A = 'a'.repeat(32);
const B = 'b'.repeat(32);

const item = (id: string, over: Partial<AssemblyListItem> = {}): AssemblyListItem => ({
  id, parentId: null, templateId: null, state: 'ASSEMBLY_COMPLETED', error: null, created: '2026-11-24T10:00:00.000Z',
  fileNames: ['a.jpg'], numInputFiles: 1, bytes: 100, executionDuration: 1, notifyUrl: null, run: null, ...over,
});
const totals = { bytesTotal: 10, bytesUploaded: 5, filesTotal: 1, filesUploaded: 0, speedBps: 0, etaSeconds: null };
const run = (runId: string, assemblyId: string | null, over: Partial<Run> = {}): Run => ({
  runId, workspaceId: 'local', assemblyId, createdAt: '2026-11-25T08:00:00.000Z', state: assemblyId ? 'ASSEMBLY_UPLOADING' : 'CREATING',
  error: null, totals, files: [{ fileId: 'f', relativePath: 'shots/cat.jpg', size: 10, bytesUploaded: 5, state: 'uploading' }], status: null, ...over,
});

describe('list query → GET /assemblies params', () => {
  it('sends only what is set: state as type, whole UTC days, trimmed keywords, page and size', () => {
    expect(listParams(q())).toEqual({ page: 1, pagesize: 100 });
    expect(listParams(q({ state: 'failed', fromDate: '2026-11-01', toDate: '2026-11-24', keywords: [' client ', ' '], page: 3, pageSize: 50 }))).toEqual({
      page: 3, pagesize: 50, type: 'failed', fromdate: '2026-11-01 00:00:00', todate: '2026-11-24 23:59:59', keywords: ['client'],
    });
  });
  it('refuses what the service would refuse, before it leaves the app', () => {
    expect(assemblyListQuerySchema.safeParse({ state: 'done' }).success).toBe(false);
    expect(assemblyListQuerySchema.safeParse({ fromDate: '24.11.2026' }).success).toBe(false);
    expect(assemblyListQuerySchema.safeParse({ pageSize: 5001 }).success).toBe(false);
    expect(assemblyListQuerySchema.safeParse({ keywords: Array(21).fill('x') }).success).toBe(false);
  });
  it('reads the service dates as UTC', () => {
    expect(serviceDateToIso('2026-11-24 09:08:07')).toBe('2026-11-24T09:08:07.000Z');
    expect(serviceDateToIso(null)).toBe('');
  });
});

describe('list items', () => {
  it('reads an index item leniently: files as a JSON string, error as the state, odd fields dropped', () => {
    expect(toListItem({ id: A, ok: 'ASSEMBLY_COMPLETED', error: 'INVALID_INPUT_ERROR', files: '["x.jpg","y.png"]', created: '2026-11-24 01:02:03', num_input_files: 'two', bytes_usage: 12 })).toMatchObject({
      id: A, state: 'INVALID_INPUT_ERROR', error: 'INVALID_INPUT_ERROR', fileNames: ['x.jpg', 'y.png'], numInputFiles: null, bytes: 12, created: '2026-11-24T01:02:03.000Z',
    });
    expect(toListItem({ ok: 'ASSEMBLY_COMPLETED' })).toBeNull();
    expect(toListItem({ id: A, files: 'not json' })?.fileNames).toEqual([]);
  });
});

describe('runs merged into the service list', () => {
  it('an Assembly this app started shows once, with its run extras; others stay as the service listed them', () => {
    const merged = mergeRuns({ items: [item(A), item(B)], count: 2 }, [run('r1', A), run('r9', 'c'.repeat(32))], q());
    expect(merged.count).toBe(2);
    expect(merged.items.map((i) => [i.id, i.run?.runId ?? null])).toEqual([[A, 'r1'], [B, null]]);
    expect(merged.items[0]!.run).toEqual({ runId: 'r1', state: 'ASSEMBLY_UPLOADING', totals });
  });
  it('a run whose Assembly does not exist yet leads page 1 when the filter matches, and counts', () => {
    const runs = [run('creating', null), run('refused', null, { state: 'RATE_LIMIT_REACHED', error: { code: 'RATE_LIMIT_REACHED', message: 'slow down' } })];
    const page1 = mergeRuns({ items: [item(A)], count: 1 }, runs, q());
    expect(page1.items.map((i) => i.id ?? i.run?.runId)).toEqual(['creating', 'refused', A]);
    expect(page1.count).toBe(3);
    expect(page1.items[0]).toMatchObject({ state: 'CREATING', fileNames: ['cat.jpg'] });
    expect(mergeRuns({ items: [item(A)], count: 30 }, runs, q({ page: 2 })).items.map((i) => i.id)).toEqual([A]);
    expect(mergeRuns({ items: [], count: 0 }, runs, q({ state: 'failed' })).items.map((i) => i.run?.runId)).toEqual(['refused']);
    expect(mergeRuns({ items: [], count: 0 }, runs, q({ state: 'completed' })).items).toEqual([]);
    expect(mergeRuns({ items: [], count: 0 }, runs, q({ keywords: ['CAT'] })).count).toBe(2);
    expect(mergeRuns({ items: [], count: 0 }, runs, q({ keywords: ['dog'] })).count).toBe(0);
    expect(mergeRuns({ items: [], count: 0 }, runs, q({ toDate: '2026-11-24' })).count).toBe(0);
  });
});

describe('replay params and execution progress', () => {
  it('sends only the options chosen, in the service spelling, and always asks for execution progress', () => {
    expect(replayParams({})).toEqual({ emit_execution_progress: true });
    expect(replayParams({ steps: { a: {} }, templateId: 't1', reparseTemplate: true, notifyUrl: ' https://h/x ' })).toEqual({
      emit_execution_progress: true, steps: { a: {} }, template_id: 't1', reparse_template: 1, notify_url: 'https://h/x',
    });
    expect(replayParams({ reparseTemplate: false, notifyUrl: '' })).toEqual({ emit_execution_progress: true, reparse_template: 0 });
  });
  it('reads assembly_execution_progress, and nothing from an odd payload', () => {
    expect(executionProgress({ progress_combined: 40, progress_per_original_file: [{ original_id: 'u1', progress: 40 }, { x: 1 }] })).toEqual({
      combined: 40, perFile: [{ originalId: 'u1', progress: 40 }], perStep: null,
    });
    expect(executionProgress('nope')).toBeNull();
  });
  it('reads the local service\'s progress_per_step, leaving out malformed entries', () => {
    const data = {
      progress_combined: 50,
      progress_per_original_file: [],
      progress_per_step: [
        { step: ':original', robot: '/upload/handle', state: 'done', progress: 100, files_done: 1, files_total: 1 },
        { step: 'encoded', robot: '/video/encode', state: 'executing', progress: 42, files_done: 0, files_total: 1 },
        { step: 'thumbs', progress: 0 },
        { robot: 'no step name' },
      ],
    };
    expect(executionProgress(data)?.perStep).toEqual([
      { step: ':original', robot: '/upload/handle', state: 'done', progress: 100, filesDone: 1, filesTotal: 1 },
      { step: 'encoded', robot: '/video/encode', state: 'executing', progress: 42, filesDone: 0, filesTotal: 1 },
      { step: 'thumbs', robot: null, state: 'waiting', progress: 0, filesDone: 0, filesTotal: 0 },
    ]);
  });
});

describe('replays of an Assembly', () => {
  it('keeps the listed replays first, adds the ones this app started that the list lacks, once each', async () => {
    const { mergeReplays } = await import('../handlers/assembly-handlers');
    const a = 'a'.repeat(32);
    const b = 'b'.repeat(32);
    const c = 'c'.repeat(32);
    expect(mergeReplays([b, a], [a.toUpperCase(), c])).toEqual([b, a, c]);
    expect(mergeReplays([], [c])).toEqual([c]);
  });
});
