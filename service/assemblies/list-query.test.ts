// The pure parts of GET /assemblies and replay: list params, list dates, summaries, replay plans.
import { describe, expect, it } from 'vitest';
import type { AssemblyState } from './assembly-state';
import { assemblySummary, listKind } from './assembly-summary';
import { parseListDate, parseListQuery } from './list-assemblies';
import { planReplay, type ReplayPlan } from './replay-assembly';
import { progressSeconds, timeProgress } from '../robots/ffmpeg';

describe('parseListQuery', () => {
  it('applies the defaults of service-facts §7', () => {
    expect(parseListQuery({})).toEqual({ page: 1, pagesize: 50, type: 'all', fromMs: null, toMs: null, keywords: [], assemblyId: null });
  });
  it('reads numbers sent as strings, keywords as a list or GO’s single keyword, lowercased', () => {
    expect(parseListQuery({ page: '2', pagesize: '5000', keywords: ['Foo', ' bar '] })).toMatchObject({ page: 2, pagesize: 5000, keywords: ['foo', 'bar'] });
    expect(parseListQuery({ keyword: 'One' })).toMatchObject({ keywords: ['one'] });
  });
  it('refuses bad values with a message naming the parameter', () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ page: 0 }, /page/],
      [{ page: 1.5 }, /page/],
      [{ page: 1e21 }, /page must be an integer from 1 to 1000000/], // an offset SQLite cannot bind was a 500
      [{ page: '99999999999999999999' }, /page/],
      [{ pagesize: 5001 }, /pagesize/],
      [{ type: 'done' }, /type/],
      [{ fromdate: 'last week' }, /fromdate/],
      [{ todate: 12 }, /todate/],
      [{ keywords: [null] }, /keywords/],
      [{ assembly_id: 'xyz' }, /assembly_id/],
    ];
    for (const [params, why] of bad) expect(parseListQuery(params)).toMatch(why);
  });
  it('reads Y-m-d H:i:s as UTC and refuses dates that do not exist', () => {
    expect(parseListDate('2026-01-02 03:04:05')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(parseListDate('2026-01-02')).toBe(Date.UTC(2026, 0, 2));
    expect(parseListDate('2026-01-02T03:04:05.000Z')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(parseListDate('NOW()')).toBeNull();
    expect(parseListDate('2026-02-30 00:00:00')).toBeNaN();
    expect(parseListDate('2026-01-02 24:00:00')).toBeNaN();
  });
});

const base = (over: Partial<AssemblyState> = {}): AssemblyState =>
  ({
    id: 'b'.repeat(32),
    authKey: 'k',
    ok: 'ASSEMBLY_COMPLETED',
    error: null,
    message: 'done',
    params: '{"auth":{"key":"k"},"steps":{"a":{"robot":"/image/resize","use":":original","width":1}}}',
    steps: { a: { robot: '/image/resize', use: ':original', width: 1 } },
    fields: { f: 'x' },
    uploads: [],
    warnings: [],
    createdAtMs: 0,
    ...over,
  }) as AssemblyState;

describe('assembly summaries', () => {
  it('puts each state in one list kind', () => {
    expect(listKind({ ok: 'ASSEMBLY_UPLOADING', error: null })).toBe('uploading');
    expect(listKind({ ok: 'ASSEMBLY_REPLAYING', error: null })).toBe('executing');
    expect(listKind({ ok: null, error: 'X' })).toBe('failed');
    expect(listKind({ ok: 'REQUEST_ABORTED', error: null })).toBe('request_aborted');
  });
  it('searches id, fields, notify_url, the error and file names, lowercased', () => {
    const s = assemblySummary(base({ ok: null, error: 'INVALID_INPUT_ERROR', message: 'Bad JPEG', notifyUrl: 'http://Hook', fields: { Client: 'ACME' } }));
    for (const word of ['bbbb', 'acme', 'http://hook', 'bad jpeg', 'invalid_input_error']) expect(s.search).toContain(word);
    expect(JSON.parse(s.item)).toMatchObject({ ok: null, error: 'INVALID_INPUT_ERROR', notify_url: 'http://Hook' });
  });
});

describe('planReplay', () => {
  const none = () => null;
  it('keeps the original steps and fields, replacing what the replay brings', () => {
    const plan = planReplay(base(), { fields: { g: 'y' } }, none);
    expect(plan).toMatchObject({ params: { steps: base().steps, fields: { f: 'x', g: 'y' } }, template: null });
    const withSteps = planReplay(base(), { steps: { b: { robot: '/file/hash', use: ':original' } }, notify_url: 'http://h' }, none);
    expect(withSteps).toMatchObject({ params: { steps: { b: { robot: '/file/hash' } }, notify_url: 'http://h' } });
    // Execution progress: as the original asked, unless the replay asks otherwise.
    expect(planReplay(base(), {}, none)).not.toHaveProperty('params.emit_execution_progress');
    expect(planReplay(base(), { emit_execution_progress: true }, none)).toMatchObject({ params: { emit_execution_progress: true } });
    expect(planReplay(base({ requestParams: { emit_execution_progress: true } }), { emit_execution_progress: false }, none)).toMatchObject({ params: { emit_execution_progress: false } });
  });
  it('uses the Template content the original ran with unless told to re-read it', () => {
    const original = base({ templateId: 't1', templateName: 'old', templateContent: JSON.stringify({ steps: { s: { robot: '/file/hash', use: ':original' } } }), requestParams: {} });
    const now = { id: 't1', name: 'new', content: { steps: { s: { robot: '/file/read', use: ':original' } } } };
    const keep = planReplay(original, { reparse_template: 0 }, () => now);
    expect(keep).toMatchObject({ params: { steps: { s: { robot: '/file/hash' } } }, template: { name: 'old' } });
    const reread = planReplay(original, { reparse_template: '1' }, () => now);
    expect(reread).toMatchObject({ params: { steps: { s: { robot: '/file/read' } } }, template: { name: 'new' } });
    expect(planReplay(original, { reparse_template: 1 }, none)).toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
    expect(planReplay(original, { reparse_template: 'yes' }, none)).toMatchObject({ code: 'ASSEMBLY_NOT_REPLAYED' });
    expect(planReplay(original, { template_id: 5 }, none)).toMatchObject({ code: 'NO_TEMPLATE_ID' });
    // Another Template for an Assembly that ran its own steps: the Template's steps run.
    const other = { id: 't9', name: 'other', content: { steps: { o: { robot: '/file/read', use: ':original' } } } };
    expect(planReplay(base(), { template_id: 't9' }, () => other)).toMatchObject({ params: { steps: { o: { robot: '/file/read' } } }, template: { id: 't9' } });
    expect((planReplay(base(), { template_id: 't9' }, () => other) as ReplayPlan).params.steps).not.toHaveProperty('a');
    const denying = base({ templateId: 't2', templateContent: JSON.stringify({ allow_steps_override: false, steps: {} }), requestParams: {} });
    expect(planReplay(denying, { steps: { x: { robot: '/file/hash' } } }, none)).toMatchObject({ code: 'TEMPLATE_DENIES_STEPS_OVERRIDE' });
  });
});

describe('ffmpeg progress', () => {
  it('reads the encoded time from a -progress block and turns it into a fraction of the duration', () => {
    expect(progressSeconds('frame=10\nout_time_us=2500000\nout_time_ms=2500000\nprogress=continue')).toBe(2.5);
    expect(progressSeconds('out_time_us=N/A\nprogress=continue')).toBeNull();
    const seen: number[] = [];
    const onTime = timeProgress(10, (f) => seen.push(f))!;
    onTime(2.5);
    onTime(12);
    expect(seen).toEqual([0.25, 1]);
    expect(timeProgress(undefined, () => undefined)).toBeUndefined();
  });
});
