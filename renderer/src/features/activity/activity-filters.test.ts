import { describe, expect, it } from 'vitest';
import type { AssemblyListItem } from '../../../../shared/ipc/assembly-models';
import { dateRangeProblem, dayRange, filtersActive, isItemBusy, listRequest, NO_FILTERS, pagesFor, rowAt, searchKeywords } from './activity-filters';

const item = (over: Partial<AssemblyListItem> = {}): AssemblyListItem => ({
  id: 'a'.repeat(32), parentId: null, templateId: null, state: 'ASSEMBLY_COMPLETED', error: null, created: '2026-11-24T10:00:00.000Z',
  fileNames: [], numInputFiles: 0, bytes: 0, executionDuration: null, notifyUrl: null, run: null, ...over,
});

describe('Activity filters → the list request', () => {
  it('asks for everything, newest first, when nothing is set', () => {
    expect(listRequest(NO_FILTERS, 1)).toEqual({ state: 'all', page: 1, pageSize: 100 });
    expect(filtersActive(NO_FILTERS)).toBe(false);
  });
  it('sends the state, whole days and every search word', () => {
    const filters = { state: 'failed' as const, fromDate: '2026-11-24', toDate: '2026-11-24', search: ' client-7  "holiday photos" ' };
    expect(listRequest(filters, 3, 50)).toEqual({ state: 'failed', page: 3, pageSize: 50, fromDate: '2026-11-24', toDate: '2026-11-24', keywords: ['client-7', 'holiday photos'] });
    expect(filtersActive(filters)).toBe(true);
  });
  it('leaves out a half-typed date, and says when the range is backwards', () => {
    expect(listRequest({ ...NO_FILTERS, fromDate: '2026-1' }, 1)).toEqual({ state: 'all', page: 1, pageSize: 100 });
    expect(dateRangeProblem({ ...NO_FILTERS, fromDate: '2026-11-25', toDate: '2026-11-24' })).toMatch(/after/);
    expect(dateRangeProblem({ ...NO_FILTERS, fromDate: '2026-11-24', toDate: '2026-11-24' })).toBeNull();
  });
  it('splits search words as the service matches them: each must occur, at most 20, no repeats', () => {
    expect(searchKeywords('a b a "c d" ""')).toEqual(['a', 'b', 'c d']);
    expect(searchKeywords(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '))).toHaveLength(20);
    expect(searchKeywords('x'.repeat(300))[0]).toHaveLength(200);
  });
  it('gives quick UTC day ranges', () => {
    const now = new Date('2026-11-25T01:00:00Z');
    expect(dayRange('today', now)).toEqual({ fromDate: '2026-11-25', toDate: '2026-11-25' });
    expect(dayRange('yesterday', now)).toEqual({ fromDate: '2026-11-24', toDate: '2026-11-24' });
    expect(dayRange('week', now)).toEqual({ fromDate: '2026-11-19', toDate: '2026-11-25' });
  });
});

describe('paging a long list', () => {
  it('reads the pages under the rows in view, with a margin, never past the end', () => {
    expect(pagesFor(0, 20, 10_000)).toEqual([1]);
    expect(pagesFor(90, 110, 10_000)).toEqual([1, 2]);
    expect(pagesFor(5_000, 5_020, 10_000)).toEqual([50, 51]);
    expect(pagesFor(9_990, 10_000, 10_000)).toEqual([100]);
    expect(pagesFor(0, 0, 0)).toEqual([1]);
  });
  it('finds a row in its page, or nothing while the page is on its way', () => {
    const pages = new Map([[2, [item({ id: 'b'.repeat(32) })]]]);
    expect(rowAt(pages, 100)?.id).toBe('b'.repeat(32));
    expect(rowAt(pages, 5)).toBeUndefined();
  });
  it('shifts later pages by the runs that lead page 1', () => {
    const first = Array.from({ length: 102 }, (_, i) => item({ id: `p1-${i}` }));
    const pages = new Map([[1, first], [2, [item({ id: 'p2-0' })]]]);
    expect(rowAt(pages, 101)?.id).toBe('p1-101');
    expect(rowAt(pages, 102)?.id).toBe('p2-0');
  });
  it('counts as running what the service runs, and a run of this app still creating or uploading', () => {
    expect(isItemBusy(item({ state: 'ASSEMBLY_EXECUTING' }))).toBe(true);
    expect(isItemBusy(item({ state: 'CREATING', id: null }))).toBe(true);
    expect(isItemBusy(item())).toBe(false);
    expect(isItemBusy(item({ state: 'INVALID_INPUT_ERROR', error: 'INVALID_INPUT_ERROR' }))).toBe(false);
  });
});
