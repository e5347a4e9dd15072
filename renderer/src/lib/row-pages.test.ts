import { describe, expect, it } from 'vitest';
import { applyRowChanges, emptyCache, evictFar, markAllStale, pagesFor, pagesToFetch, putPage, rowAt } from './row-pages';

interface Row {
  readonly id: string;
  readonly state: string;
}
const page = (p: number, size = 10): Row[] => Array.from({ length: size }, (_, i) => ({ id: `r${p * size + i}`, state: 'queued' }));

describe('row page cache', () => {
  it('asks only for the pages in view that it does not hold', () => {
    const cache = putPage(emptyCache<Row>(10), 0, page(0));
    expect(pagesFor(5, 25, 10)).toEqual([0, 1, 2]);
    expect(pagesToFetch(cache, 5, 25, new Set())).toEqual([1, 2]);
    expect(pagesToFetch(cache, 5, 25, new Set([1]))).toEqual([2]);
    expect(rowAt(cache, 7)).toEqual({ id: 'r7', state: 'queued' });
    expect(rowAt(cache, 17)).toBeUndefined();
  });

  it('replaces changed rows by id and keeps every other row object (so their components do not render again)', () => {
    const cache = putPage(putPage(emptyCache<Row>(10), 0, page(0)), 1, page(1));
    const untouched = rowAt(cache, 3);
    const otherPage = cache.pages.get(1);
    const { cache: next, hits } = applyRowChanges(cache, [
      { id: 'r4', state: 'uploading' },
      { id: 'r5', state: 'failed' },
      { id: 'r999', state: 'failed' }, // not cached: read when scrolled to
    ]);
    expect(hits).toBe(2);
    expect(rowAt(next, 4)?.state).toBe('uploading');
    expect(rowAt(next, 5)?.state).toBe('failed');
    expect(rowAt(next, 3)).toBe(untouched);
    expect(next.pages.get(1)).toBe(otherPage);
    // The old cache is unchanged.
    expect(rowAt(cache, 4)?.state).toBe('queued');
    expect(applyRowChanges(cache, [{ id: 'nope', state: 'x' }]).cache).toBe(cache);
  });

  it('keeps stale pages on screen while refetching them, then trusts the fresh copy', () => {
    const cache = markAllStale(putPage(emptyCache<Row>(10), 0, page(0)));
    expect(rowAt(cache, 0)?.id).toBe('r0');
    expect(pagesToFetch(cache, 0, 10, new Set())).toEqual([0]);
    const fresh = putPage(cache, 0, [{ id: 'x0', state: 'verified' }]);
    expect(pagesToFetch(fresh, 0, 1, new Set())).toEqual([]);
    // The row that moved out of the page is no longer found by id.
    expect(fresh.index.has('r3')).toBe(false);
    expect(fresh.index.get('x0')).toBe(0);
  });

  it('forgets the pages farthest from the view beyond a cap', () => {
    let cache = emptyCache<Row>(10);
    for (let p = 0; p < 8; p += 1) cache = putPage(cache, p, page(p));
    const kept = evictFar(cache, 6, 3);
    expect([...kept.pages.keys()].sort()).toEqual([5, 6, 7]);
    expect(kept.index.has('r0')).toBe(false);
    expect(kept.index.get('r65')).toBe(65);
  });
});
