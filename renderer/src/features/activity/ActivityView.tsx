import { keepPreviousData, useQueries, useQueryClient } from '@tanstack/react-query';
import '../../styles/assemblies.css';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AssemblyListItem, AssemblyListPage } from '../../../../shared/ipc/assembly-models';
import { toAppError, unwrap } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { bridgeKey, useBridgeQuery } from '../../bridge/use-bridge';
import { ResultsActions } from '../results/ResultsActions';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { ActivityIcon, RetryIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { VirtualList } from '../../components/VirtualList';
import { useDebounced } from '../../hooks/use-debounced';
import { dateRangeProblem, dayRange, filtersActive, isItemBusy, itemKey, listRequest, pagesFor, rowAt, STATE_CHIPS } from './activity-filters';
import { formatCount } from '../../lib/format';
import { useNavigation } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import { useActivityFilters } from './activity-store';
import { AssemblyRow, PlaceholderRow, ROW_HEIGHT } from './AssemblyRow';
import { CancelSelection } from './CancelSelection';
import { LocalRunsList } from './LocalRunsList';
import { replayManySummary } from './replay-summary';
import './activity.css';

/** While anything listed runs, the list is read again this often (the service has no list stream). */
const REFRESH_MS = 2000;
/** Bulk replay and cancel take at most this many (core's limit per request). */
const MAX_BULK = 1000;

/** Two row ranges that need the same pages (whatever the count: it only caps the last page). */
const samePages = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  pagesFor(a.start, a.end, Number.MAX_SAFE_INTEGER).join() === pagesFor(b.start, b.end, Number.MAX_SAFE_INTEGER).join();

/** The previous map while it holds the same pages (the same arrays): the list below then skips a render. */
const useSamePages = (next: ReadonlyMap<number, readonly AssemblyListItem[]>) => {
  const kept = useRef(next);
  const prev = kept.current;
  const same = prev.size === next.size && [...next].every(([page, items]) => prev.get(page) === items);
  if (!same) kept.current = next;
  return same ? prev : next;
};

interface AssemblyListProps {
  readonly count: number;
  readonly pages: ReadonlyMap<number, readonly AssemblyListItem[]>;
  readonly selected: ReadonlySet<string>;
  readonly onOpen: (item: AssemblyListItem) => void;
  readonly onToggle: (id: string) => void;
  readonly onRange: (start: number, end: number) => void;
}

/**
 * The list itself, memoized: a keystroke in the search box (debounced before it filters) or a chip's
 * pressed state re-renders the view but not the list and its rows.
 */
const AssemblyList = memo(({ count, pages, selected, onOpen, onToggle, onRange }: AssemblyListProps) => (
  <VirtualList
    className="asm-list"
    label="Recent Assemblies"
    count={count}
    rowHeight={ROW_HEIGHT}
    fallbackRows={12}
    // Whole chunks of 8 rows: most scroll frames then change no DOM (no style, layout or paint); every
    // ~8th adds and drops 8 rows at once (bench:activity-scale).
    chunk={8}
    overscan={2}
    onRangeChange={onRange}
    getRowKey={(index) => {
      const item = rowAt(pages, index);
      return item ? itemKey(item) : `placeholder-${index}`;
    }}
    renderRow={(index) => {
      const item = rowAt(pages, index);
      return item ? <AssemblyRow item={item} selected={item.id !== null && selected.has(item.id)} onOpen={onOpen} onToggle={onToggle} /> : <PlaceholderRow />;
    }}
  />
));
AssemblyList.displayName = 'AssemblyList';

/**
 * Activity: every Assembly of the workspace (the service's list), newest first, with the runs of this app
 * merged in (core's `assemblies:list`). Filter by state, days and words; rows are read a page at a time
 * for what is in view, so 10,000 Assemblies scroll like 10. Select rows (or all that match) to replay them.
 */
export const ActivityView = () => {
  const bridge = useBridge();
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const navigate = useNavigation((s) => s.navigate);
  const { filters, setFilters, clear } = useActivityFilters();
  const search = useDebounced(filters.search, 250);
  const effective = useMemo(() => ({ ...filters, search }), [filters, search]);
  const rangeProblem = dateRangeProblem(effective);
  const [range, setRange] = useState({ start: 0, end: 30 });
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirm, setConfirm] = useState(false);
  const [reparse, setReparse] = useState(false);
  const [replaying, setReplaying] = useState(false);
  const [selectingAll, setSelectingAll] = useState(false);

  // A run of this app changed (uploads moved, its Assembly ended): read the rows in view again, at most every 500 ms.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = bridge.on('run:updated', () => {
      timer ??= setTimeout(() => {
        timer = null;
        void client.invalidateQueries({ queryKey: ['assemblies:list'] });
      }, 500);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [bridge, client]);

  // "Running" and "Uploading" are live views: read again while they are chosen, even when none is listed yet.
  const liveFilter = effective.state === 'executing' || effective.state === 'uploading';
  const refetchInterval = busy || liveFilter ? REFRESH_MS : false;
  const first = useBridgeQuery('assemblies:list', listRequest(effective, 1), { placeholderData: keepPreviousData, refetchInterval, enabled: rangeProblem === null });
  const count = first.data?.count ?? 0;
  const more = pagesFor(range.start, range.end, count).filter((p) => p !== 1);
  const others = useQueries({
    queries: more.map((page) => {
      const request = listRequest(effective, page);
      return {
        queryKey: bridgeKey('assemblies:list', request),
        queryFn: async () => unwrap(await bridge.invoke('assemblies:list', request)),
        refetchInterval,
        staleTime: 5_000,
        enabled: rangeProblem === null,
      };
    }),
  });
  const read = new Map<number, readonly AssemblyListItem[]>();
  if (first.data) read.set(1, first.data.items);
  others.forEach((q, i) => q.data && read.set(more[i]!, (q.data as AssemblyListPage).items));
  const pages = useSamePages(read);
  const anyBusy = [...pages.values()].some((items) => items.some(isItemBusy));
  if (anyBusy !== busy) setBusy(anyBusy);

  // Only a change of the pages to read re-renders this view (the list scrolls its rows itself): once per
  // 100 rows rather than per row scrolled (bench:activity-scale).
  const onRange = useCallback((start: number, end: number) => setRange((r) => (samePages(r, { start, end }) ? r : { start, end })), []);
  const open = useCallback(
    (item: AssemblyListItem) => {
      // One view for every Assembly, whoever started it; a run not yet created opens through its run.
      if (item.id) navigate({ name: 'assembly', assemblyId: item.id });
      else if (item.run) navigate({ name: 'run', runId: item.run.runId });
    },
    [navigate],
  );
  const toggle = useCallback(
    (id: string) =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );

  /** Every Assembly that matches the filter (not only the rows read so far), up to MAX_BULK. */
  const selectAll = async () => {
    setSelectingAll(true);
    try {
      const ids: string[] = [];
      for (let page = 1; ids.length < Math.min(count, MAX_BULK); page++) {
        const answer = unwrap(await bridge.invoke('assemblies:list', listRequest(effective, page, 500)));
        for (const item of answer.items) if (item.id && ids.length < MAX_BULK) ids.push(item.id);
        if (answer.items.length < 500) break;
      }
      setSelected(new Set(ids));
    } catch (error) {
      const e = toAppError(error);
      toast(`Could not select every Assembly: ${e.code} — ${e.message}`, 'danger');
    } finally {
      setSelectingAll(false);
    }
  };

  const replaySelected = async () => {
    setReplaying(true);
    try {
      const result = unwrap(await bridge.invoke('assemblies:replayMany', { assemblyIds: [...selected], ...(reparse ? { reparseTemplate: true } : {}) }));
      // The replays are new Assemblies of today, running: show the whole list, where they lead, live.
      if (result.started.length > 0) clear();
      const summary = replayManySummary(result);
      toast(summary.text, summary.tone);
      setSelected(new Set());
      setConfirm(false);
      void client.invalidateQueries({ queryKey: ['assemblies:list'] });
    } catch (error) {
      const e = toAppError(error);
      toast(`Could not replay: ${e.code} — ${e.message}`, 'danger');
    } finally {
      setReplaying(false);
    }
  };

  const error = first.isError ? first.error : null;
  const scopeMissing = error?.code === 'INSUFFICIENT_AUTH_SCOPE';
  const filtered = filtersActive(effective);

  return (
    <div className="activity-view">
      <div className="section-head">
        <h1 className="page-title">Activity</h1>
        <span className="muted small" data-testid="activity-count" aria-live="polite">
          {first.data ? `${formatCount(count, 'Assembly', 'Assemblies')}${filtered ? ' match' : ''}` : ''}
          {busy ? ' · updating while they run' : ''}
        </span>
        <Button size="sm" variant="ghost" icon={<RetryIcon />} onClick={() => void client.invalidateQueries({ queryKey: ['assemblies:list'] })} busy={first.isFetching && !first.isPending}>
          Refresh
        </Button>
      </div>

      <div className="toolbar asm-toolbar">
        <div className="chips" role="group" aria-label="State">
          {STATE_CHIPS.map((chip) => (
            <button key={chip.value} type="button" className="chip" aria-pressed={filters.state === chip.value} onClick={() => setFilters({ state: chip.value })}>
              {chip.label}
            </button>
          ))}
        </div>
        <input
          className="input asm-search"
          type="search"
          placeholder="Search ids, fields, file names, errors"
          aria-label="Search Assemblies"
          value={filters.search}
          onChange={(e) => setFilters({ search: e.currentTarget.value })}
        />
      </div>
      <div className="toolbar asm-toolbar">
        <label className="toolbar-field small">
          From (UTC)
          <input className="input" type="date" aria-label="From day" value={filters.fromDate} onChange={(e) => setFilters({ fromDate: e.currentTarget.value })} />
        </label>
        <label className="toolbar-field small">
          To (UTC)
          <input className="input" type="date" aria-label="To day" value={filters.toDate} onChange={(e) => setFilters({ toDate: e.currentTarget.value })} aria-invalid={rangeProblem !== null} />
        </label>
        <div className="toolbar-actions">
          <Button size="sm" variant="ghost" onClick={() => setFilters(dayRange('today', new Date()))}>
            Today
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setFilters(dayRange('yesterday', new Date()))}>
            Yesterday
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setFilters(dayRange('week', new Date()))}>
            Last 7 days
          </Button>
          {filtersActive(filters) && (
            <Button size="sm" variant="ghost" onClick={clear}>
              Clear filters
            </Button>
          )}
        </div>
      </div>
      {rangeProblem && (
        <p className="field-error" role="alert">
          {rangeProblem}
        </p>
      )}

      <div className="asm-selection" aria-live="polite">
        {selected.size > 0 ? (
          <>
            <span className="num" data-testid="selection-count">
              {formatCount(selected.size, 'Assembly', 'Assemblies')} selected
            </span>
            <Button size="sm" variant="primary" icon={<RetryIcon />} onClick={() => setConfirm(true)}>
              Replay {selected.size.toLocaleString('en-US')}…
            </Button>
            <CancelSelection
              assemblyIds={[...selected]}
              onDone={() => {
                setSelected(new Set());
                void client.invalidateQueries({ queryKey: ['assemblies:list'] });
              }}
            />
            <ResultsActions size="sm" scope={{ kind: 'assemblies', assemblyIds: [...selected] }} what={`The ${formatCount(selected.size, 'selected Assembly', 'selected Assemblies')}`} />
            <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </>
        ) : (
          <span className="muted small">Select Assemblies to replay or cancel them, save their results or export a manifest{count > 0 ? ', or' : '.'}</span>
        )}
        {count > 0 && selected.size < Math.min(count, MAX_BULK) && (
          <Button size="sm" variant="ghost" busy={selectingAll} onClick={() => void selectAll()}>
            Select all {Math.min(count, MAX_BULK).toLocaleString('en-US')}
          </Button>
        )}
      </div>

      {first.isPending && rangeProblem === null && (
        <div className="center-pane">
          <Spinner size={24} label="Loading Assemblies" />
        </div>
      )}
      {error && (
        <>
          <ErrorPanel
            title={scopeMissing ? "This workspace's key cannot list its Assemblies" : 'Could not load the Assemblies'}
            code={error.code}
            message={
              scopeMissing
                ? `Listing Assemblies needs the assemblies:read scope (${error.message}). Below are only the runs this app started.`
                : error.message
            }
          />
          <LocalRunsList />
        </>
      )}
      {first.data && count === 0 && !filtered && (
        <EmptyState icon={<ActivityIcon />} title="No Assemblies yet" action={<Button variant="primary" onClick={() => navigate({ name: 'upload' })}>Upload files</Button>}>
          Assemblies of this workspace appear here — those you start and those other tools start — with their progress and results.
        </EmptyState>
      )}
      {first.data && count === 0 && filtered && (
        <EmptyState icon={<ActivityIcon />} title="No Assemblies match" action={<Button onClick={clear}>Clear filters</Button>}>
          No Assembly of this workspace matches the state, days and words chosen.
        </EmptyState>
      )}
      {first.data && count > 0 && !error && (
        <AssemblyList count={count} pages={pages} selected={selected} onOpen={open} onToggle={toggle} onRange={onRange} />
      )}

      <ConfirmDialog
        open={confirm}
        title={`Replay ${formatCount(selected.size, 'Assembly', 'Assemblies')}?`}
        confirmLabel={`Replay ${selected.size.toLocaleString('en-US')}`}
        busy={replaying}
        onConfirm={() => void replaySelected()}
        onCancel={() => setConfirm(false)}
      >
        <p data-testid="replay-consequences">
          Each of the {selected.size.toLocaleString('en-US')} selected Assemblies runs again as a new Assembly over the same files, with the steps it
          ran with. The originals stay as they are.
        </p>
        <label className="toolbar-check">
          <input type="checkbox" checked={reparse} onChange={(e) => setReparse(e.currentTarget.checked)} />
          Read their Templates again (as they are now)
        </label>
      </ConfirmDialog>
    </div>
  );
};
