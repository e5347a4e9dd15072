/**
 * A cache of the pages of rows a long list has read from core, keyed by page index. Deltas replace rows
 * by id in place (only the pages holding them are copied), so a row that did not change keeps its object
 * and its memoized component does not render again. Nothing here walks the whole list.
 */

export interface RowCache<R extends { readonly id: string }> {
  readonly pageSize: number;
  readonly pages: ReadonlyMap<number, readonly R[]>;
  /** Pages shown while a fresher copy is fetched (the rows moved, or a delta was truncated). */
  readonly stale: ReadonlySet<number>;
  /** Row id → its offset, for the rows in cached pages. */
  readonly index: ReadonlyMap<string, number>;
}

export const emptyCache = <R extends { readonly id: string }>(pageSize: number): RowCache<R> => ({
  pageSize,
  pages: new Map(),
  stale: new Set(),
  index: new Map(),
});

export const pageOf = (offset: number, pageSize: number): number => Math.floor(offset / pageSize);

/** Page indexes covering offsets [start, end). */
export const pagesFor = (start: number, end: number, pageSize: number): number[] => {
  const pages: number[] = [];
  if (end <= start) return pages;
  for (let p = pageOf(start, pageSize); p <= pageOf(end - 1, pageSize); p += 1) pages.push(p);
  return pages;
};

export const rowAt = <R extends { readonly id: string }>(cache: RowCache<R>, offset: number): R | undefined =>
  cache.pages.get(pageOf(offset, cache.pageSize))?.[offset % cache.pageSize];

export const putPage = <R extends { readonly id: string }>(cache: RowCache<R>, page: number, rows: readonly R[]): RowCache<R> => {
  const pages = new Map(cache.pages);
  const index = new Map(cache.index);
  for (const old of cache.pages.get(page) ?? []) if (index.get(old.id) !== undefined && pageOf(index.get(old.id) as number, cache.pageSize) === page) index.delete(old.id);
  rows.forEach((row, i) => index.set(row.id, page * cache.pageSize + i));
  pages.set(page, rows);
  const stale = new Set(cache.stale);
  stale.delete(page);
  return { ...cache, pages, stale, index };
};

/** Replace the cached copies of changed rows; rows not in the cache are read when scrolled to. */
export const applyRowChanges = <R extends { readonly id: string }>(cache: RowCache<R>, changed: readonly R[]): { cache: RowCache<R>; hits: number } => {
  let pages: Map<number, readonly R[]> | null = null;
  const copied = new Set<number>();
  let hits = 0;
  for (const row of changed) {
    const offset = cache.index.get(row.id);
    if (offset === undefined) continue;
    const page = pageOf(offset, cache.pageSize);
    pages ??= new Map(cache.pages);
    const current = pages.get(page);
    if (!current) continue;
    const rows = copied.has(page) ? (current as R[]) : current.slice();
    copied.add(page);
    rows[offset % cache.pageSize] = row;
    pages.set(page, rows);
    hits += 1;
  }
  return { cache: pages ? { ...cache, pages } : cache, hits };
};

/** Keep showing every cached page, but fetch each again before trusting it. */
export const markAllStale = <R extends { readonly id: string }>(cache: RowCache<R>): RowCache<R> => ({ ...cache, stale: new Set(cache.pages.keys()) });

/** Pages of [start, end) that are missing or stale and not already being fetched. */
export const pagesToFetch = <R extends { readonly id: string }>(cache: RowCache<R>, start: number, end: number, inFlight: ReadonlySet<number>): number[] =>
  pagesFor(start, end, cache.pageSize).filter((p) => !inFlight.has(p) && (!cache.pages.has(p) || cache.stale.has(p)));

/** Drop the pages farthest from the view once more than `max` are cached (memory stays flat on a long scroll). */
export const evictFar = <R extends { readonly id: string }>(cache: RowCache<R>, nearPage: number, max: number): RowCache<R> => {
  if (cache.pages.size <= max) return cache;
  const keep = [...cache.pages.keys()].sort((a, b) => Math.abs(a - nearPage) - Math.abs(b - nearPage)).slice(0, max);
  const keepSet = new Set(keep);
  const pages = new Map([...cache.pages].filter(([p]) => keepSet.has(p)));
  const index = new Map([...cache.index].filter(([, offset]) => keepSet.has(pageOf(offset, cache.pageSize))));
  const stale = new Set([...cache.stale].filter((p) => keepSet.has(p)));
  return { ...cache, pages, index, stale };
};
