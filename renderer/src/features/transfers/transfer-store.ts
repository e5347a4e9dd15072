import { create } from 'zustand';
import type { AssemblylineBridge } from '../../../../shared/ipc/bridge';
import type { Transfer, TransferBatch, TransferChanges, TransferRow, TransferRowsQuery, TransferTotals } from '../../../../shared/ipc/transfer-models';
import { unwrap, toAppError } from '../../bridge/bridge-error';
import { applyRowChanges, emptyCache, evictFar, markAllStale, pageOf, pagesToFetch, putPage, type RowCache } from '../../lib/row-pages';
import { matchesFilter, statesOf, type TransferFilter } from './transfer-filters';
import { buildLayout, rowRangeOf, type Group, type Layout } from './transfer-layout';

/**
 * The Transfers view's data: totals, transfers and batches (from transfers:overview, then deltas) and the
 * pages of rows in view (transfers:rows). core's `transfers:changed` events are queued and applied once
 * per animation frame; a delta replaces the rows it names and nothing else, so only those rows render
 * again. Rows are read by page for the lines in view only.
 */

export const PAGE_SIZE = 200;
const MAX_PAGES = 24;
/** At most this often the rows in view are read again because rows moved (a filter, new files). */
export const REFETCH_MS = 500;

export interface RowsView {
  readonly filter: TransferFilter;
  readonly search: string;
  readonly batchId: string | null;
}

export interface TransferStoreState {
  readonly loaded: boolean;
  readonly error: { code: string; message: string } | null;
  readonly totals: TransferTotals | null;
  readonly transfers: ReadonlyMap<string, Transfer>;
  readonly batches: ReadonlyMap<string, TransferBatch>;
  readonly view: RowsView;
  readonly layout: Layout;
  readonly cache: RowCache<TransferRow>;
  /** The rows' first answer for this view has come (before it, the list shows its loading state). */
  readonly rowsLoaded: boolean;
  readonly rowsError: { code: string; message: string } | null;
}

const initial = (): TransferStoreState => ({
  loaded: false,
  error: null,
  totals: null,
  transfers: new Map(),
  batches: new Map(),
  view: { filter: 'all', search: '', batchId: null },
  layout: buildLayout([], 0),
  cache: emptyCache(PAGE_SIZE),
  rowsLoaded: false,
  rowsError: null,
});

export const useTransfers = create<TransferStoreState>(() => initial());

const sameGroups = (a: readonly Group[], b: readonly Group[]): boolean =>
  a.length === b.length && a.every((g, i) => g.batchId === b[i]?.batchId && g.offset === b[i]?.offset && g.count === b[i]?.count);

const upsert = <T extends { id: string }>(map: ReadonlyMap<string, T>, items: readonly T[]): ReadonlyMap<string, T> => {
  if (items.length === 0) return map;
  const next = new Map(map);
  for (const item of items) next.set(item.id, item);
  return next;
};

const frame = (run: () => void): void => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  else setTimeout(run, 16);
};

/** The one controller per bridge: subscribe it once (App), point the list at it (TransfersView). */
export const createTransferController = (bridge: AssemblylineBridge) => {
  const store = useTransfers;
  let pending: TransferChanges[] = [];
  let scheduled = false;
  let generation = 0;
  let inFlight = new Set<number>();
  let lines = { start: 0, end: 0 };
  let refetchTimer: ReturnType<typeof setTimeout> | null = null;
  let lastRefetch = 0;
  // After stop, answers and frames still on their way are dropped: they must not write a gone page's data.
  let stopped = false;

  const queryOf = (view: RowsView, page: number): TransferRowsQuery => {
    const states = statesOf(view.filter);
    return {
      ...(states ? { states } : {}),
      ...(view.search.trim() ? { search: view.search.trim() } : {}),
      ...(view.batchId ? { batchId: view.batchId } : {}),
      offset: page * PAGE_SIZE,
      limit: PAGE_SIZE,
    };
  };

  const fetchPage = async (page: number) => {
    const gen = generation;
    inFlight.add(page);
    const answer = await bridge.invoke('transfers:rows', queryOf(store.getState().view, page));
    if (gen !== generation) return;
    inFlight.delete(page);
    if (!answer.ok) {
      store.setState({ rowsError: answer.error, rowsLoaded: true });
      return;
    }
    const { total, groups, rows } = answer.value;
    const state = store.getState();
    const layoutChanged = total + state.layout.groups.length !== state.layout.count || !sameGroups(state.layout.groups, groups.filter((g) => g.count > 0).sort((a, b) => a.offset - b.offset));
    let cache = putPage(state.cache, page, rows);
    // Rows past the new end are gone.
    if (layoutChanged) for (const p of cache.pages.keys()) if (p * PAGE_SIZE >= total && p !== 0) cache = { ...cache, pages: new Map([...cache.pages].filter(([k]) => k !== p)) };
    cache = evictFar(cache, page, MAX_PAGES);
    store.setState({ cache, rowsLoaded: true, rowsError: null, ...(layoutChanged ? { layout: buildLayout(groups, total) } : {}) });
    // A new layout may put other rows in view.
    if (layoutChanged) ensureRows();
  };

  const ensureRows = () => {
    const { layout, cache, rowsLoaded } = store.getState();
    const range = rowsLoaded ? rowRangeOf(layout, lines.start, lines.end) : { start: 0, end: PAGE_SIZE };
    const pages = pagesToFetch(cache, range.start, Math.max(range.end, range.start + 1), inFlight);
    for (const p of pages) void fetchPage(p);
  };

  /** Rows moved (filter, new files, order): read the rows in view again, at most every REFETCH_MS. */
  const scheduleRefetch = () => {
    if (refetchTimer) return;
    const wait = Math.max(0, lastRefetch + REFETCH_MS - Date.now());
    refetchTimer = setTimeout(() => {
      refetchTimer = null;
      lastRefetch = Date.now();
      store.setState((s) => ({ cache: markAllStale(s.cache) }));
      inFlight = new Set();
      ensureRows();
    }, wait);
  };

  const flush = () => {
    scheduled = false;
    if (stopped) return;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    const state = store.getState();
    const last = batch[batch.length - 1] as TransferChanges;
    const transfers = upsert(state.transfers, batch.flatMap((c) => c.transfers));
    const changedBatches = batch.flatMap((c) => c.batches);
    const batches = upsert(state.batches, changedBatches);
    const rows = batch.flatMap((c) => c.rows);
    const truncated = batch.some((c) => c.rowsTruncated);
    const { cache } = applyRowChanges(state.cache, rows);
    store.setState({ totals: last.totals, transfers, batches, cache });

    const { view } = state;
    const filtered = view.filter !== 'all' || view.search.trim() !== '' || view.batchId !== null;
    const grew = changedBatches.some((b) => state.batches.get(b.id)?.filesTotal !== b.filesTotal) || last.totals.filesTotal !== state.totals?.filesTotal;
    const leftFilter = rows.some((r) => !matchesFilter(view.filter, r.state));
    if (truncated || grew || (filtered && (leftFilter || rows.length > 0))) scheduleRefetch();
  };

  const onChanged = (changes: TransferChanges) => {
    pending.push(changes);
    if (!scheduled) {
      scheduled = true;
      frame(flush);
    }
  };

  const loadOverview = async () => {
    try {
      const overview = unwrap(await bridge.invoke('transfers:overview', {}));
      if (stopped) return;
      store.setState({
        loaded: true,
        error: null,
        totals: overview.totals,
        transfers: new Map(overview.transfers.map((t) => [t.id, t])),
        batches: new Map(overview.batches.map((b) => [b.id, b])),
      });
    } catch (error) {
      if (stopped) return;
      const e = toAppError(error);
      store.setState({ loaded: true, error: { code: e.code, message: e.message } });
    }
  };

  return {
    /** Subscribe to core's events and read the overview; returns the unsubscribe. */
    start(): () => void {
      stopped = false;
      const off = bridge.on('transfers:changed', onChanged);
      void loadOverview();
      return () => {
        stopped = true;
        generation += 1;
        pending = [];
        off();
        if (refetchTimer) clearTimeout(refetchTimer);
        refetchTimer = null;
      };
    },
    reload(): void {
      void loadOverview();
      store.setState((s) => ({ cache: markAllStale(s.cache) }));
      inFlight = new Set();
      ensureRows();
    },
    /** A new filter, search or batch: forget the rows and read the first page. */
    setView(view: RowsView): void {
      generation += 1;
      inFlight = new Set();
      lines = { start: 0, end: 0 };
      store.setState({ view, cache: emptyCache(PAGE_SIZE), layout: buildLayout([], 0), rowsLoaded: false, rowsError: null });
      ensureRows();
    },
    /** The lines in view changed (scroll, resize). */
    setLines(start: number, end: number): void {
      lines = { start, end };
      ensureRows();
    },
    /** For tests: apply queued deltas now. */
    flushNow: flush,
    pageOf: (offset: number) => pageOf(offset, PAGE_SIZE),
  };
};

export type TransferController = ReturnType<typeof createTransferController>;

/** Tests start each case from an empty store. */
export const resetTransfers = (): void => useTransfers.setState(initial(), true);
