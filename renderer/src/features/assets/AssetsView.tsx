import { useQueryClient } from '@tanstack/react-query';
import './assets.css';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { Steps } from '../../../../shared/api/instructions';
import type { Asset } from '../../../../shared/ipc/asset-models';
import { toAppError, unwrap } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FolderIcon, RetryIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { StaleNotice } from '../../components/StaleNotice';
import { VirtualList, type VirtualListHandle } from '../../components/VirtualList';
import { assetKey, bulkOutcome, describeTargets, keyAt, parentFolder, rowAt, targetsOf } from './asset-rows';
import { formatCount } from '../../lib/format';
import { emptySelection, keyToAction, reduceSelection, type ListSelection, type SelectionAction } from '../../lib/list-selection';
import { useNavigation } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import { AssetDetails } from './AssetDetails';
import { AssetRowView, FolderRow, PlaceholderRow, ROW_HEIGHT, rowId, type RowDrag } from './AssetRow';
import { Breadcrumbs } from './Breadcrumbs';
import { ASSET_DRAG_TYPE, decodeDrag, dropsIntoItself, encodeDrag, type DraggedAssets } from './drag-data';
import { MoveDialog } from './MoveDialog';
import { USE_AS_INPUT_MAX } from '../../../../shared/ipc/asset-models';
import { UseAsInputDialog } from './UseAsInputDialog';
import { useAssetPages } from './use-asset-pages';

/** Rows shown for the next page while it is read (the list grows as it comes). */
const PLACEHOLDER_ROWS = 20;
/** Read the next page when the rows in view come this close to the end of what was read. */
const READ_AHEAD = 200;
export const ASSET_KEYS_ID = 'asset-keys';
const SHORTCUTS = 'Enter Backspace Alt+ArrowUp Delete F2 Control+A';

/** A folder opened with the keyboard puts the focus back on the list of the folder it opens. */
let focusListOnMount = false;

type Targets = { assetIds: string[]; folders: string[] };

/**
 * Assets: the workspace's stored assets, one folder level at a time (folders from the paths), read by
 * cursor as the list scrolls; details with every version; rename, move (drag or dialog), delete, bulk;
 * "Use as input" starts an Assembly on the selected assets. docs/assets.md.
 */
export const AssetsView = ({ folder }: { folder: string }) => {
  const bridge = useBridge();
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const navigate = useNavigation((s) => s.navigate);
  const { query, rows } = useAssetPages(folder);
  const [selection, setSelection] = useState<ListSelection>(emptySelection);
  const [detailId, setDetailId] = useState<string | null>(null);
  const [renamingId, setRenamingId] = useState<string | null>(null);
  const [moveTargets, setMoveTargets] = useState<Targets | null>(null);
  const [deleteTargets, setDeleteTargets] = useState<Targets | null>(null);
  const [useIds, setUseIds] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [needMore, setNeedMore] = useState(false);
  const listHandle = useRef<VirtualListHandle>(null);
  const listWrap = useRef<HTMLDivElement>(null);

  const loaded = rows.folders.length + rows.assets.length;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const count = loaded + (hasNextPage ? PLACEHOLDER_ROWS : 0);
  const idAt = useCallback((i: number) => keyAt(rows, i), [rows]);

  // The range callback only flips a boolean: scrolling re-renders this view once per page, not per row.
  const onRange = useCallback((_start: number, end: number) => setNeedMore(end + READ_AHEAD > loaded), [loaded]);
  useEffect(() => {
    if (needMore && hasNextPage && !isFetchingNextPage && !query.isFetchNextPageError) void fetchNextPage();
  }, [needMore, hasNextPage, isFetchingNextPage, fetchNextPage, query.isFetchNextPageError]);

  useEffect(() => {
    const grid = listWrap.current?.querySelector<HTMLElement>('[role="grid"]');
    if (!focusListOnMount || !grid) return;
    focusListOnMount = false;
    grid.focus();
  }, [query.isSuccess]);

  const focusList = () => listWrap.current?.querySelector<HTMLElement>('[role="grid"]')?.focus();
  const openFolder = useCallback(
    (target: string, fromKeyboard = false) => {
      focusListOnMount = fromKeyboard;
      navigate({ name: 'assets', ...(target ? { folder: target } : {}) });
    },
    [navigate],
  );
  const goUp = () => folder !== '' && openFolder(parentFolder(folder), true);

  const refresh = useCallback(() => {
    void client.invalidateQueries({ queryKey: ['assets:list'] });
    void client.invalidateQueries({ queryKey: ['assets:get'] });
  }, [client]);

  const select = useCallback((action: SelectionAction) => setSelection((s) => reduceSelection(s, action, count, idAt)), [count, idAt]);
  const toggle = useCallback((index: number) => select({ type: 'click', index, shift: false, toggle: true }), [select]);

  const selectedTargets = (): Targets => {
    if (selection.selected.size > 0) return targetsOf(selection.selected);
    const key = selection.focus !== null ? idAt(selection.focus) : undefined;
    return key ? targetsOf([key]) : { assetIds: [], folders: [] };
  };

  // ---- actions ----
  const moveTo = async (targets: Targets, destination: string) => {
    setBusy(true);
    try {
      const result = unwrap(await bridge.invoke('assets:bulkMove', { ...targets, destination }));
      const outcome = bulkOutcome('Moved', result);
      toast(`${outcome.text}${outcome.tone === 'success' ? ` To ${destination === '' ? 'the top level' : destination}.` : ''}`, outcome.tone);
      setSelection(emptySelection);
      setMoveTargets(null);
      refresh();
    } catch (error) {
      const e = toAppError(error);
      toast(`Could not move: ${e.code} — ${e.message}`, 'danger');
    } finally {
      setBusy(false);
    }
  };

  const deleteNow = async (targets: Targets) => {
    setBusy(true);
    try {
      const result = unwrap(await bridge.invoke('assets:bulkDelete', targets));
      const outcome = bulkOutcome('Deleted', result);
      toast(outcome.text, outcome.tone);
      if (detailId && targets.assetIds.includes(detailId)) setDetailId(null);
      setSelection(emptySelection);
      setDeleteTargets(null);
      refresh();
    } catch (error) {
      const e = toAppError(error);
      toast(`Could not delete: ${e.code} — ${e.message}`, 'danger');
    } finally {
      setBusy(false);
      focusList();
    }
  };

  const onRename = useCallback(
    (asset: Asset, filename: string | null) => {
      setRenamingId(null);
      focusList();
      if (filename === null) return;
      void (async () => {
        try {
          unwrap(await bridge.invoke('assets:rename', { assetId: asset.assetId, filename }));
          toast(`Renamed to ${filename}.`, 'success');
          refresh();
        } catch (error) {
          const e = toAppError(error);
          toast(`Could not rename ${asset.filename}: ${e.code} — ${e.message}`, 'danger');
        }
      })();
    },
    [bridge, refresh, toast],
  );

  const startUse = async (choice: { templateId: string } | { steps: Steps }) => {
    if (!useIds) return;
    if (useIds.length > USE_AS_INPUT_MAX) {
      toast(`One Assembly takes up to ${USE_AS_INPUT_MAX.toLocaleString('en-US')} stored assets; ${useIds.length.toLocaleString('en-US')} are selected. Select fewer, or use one folder at a time.`, 'danger');
      return;
    }
    setBusy(true);
    try {
      const { assemblyId } = unwrap(await bridge.invoke('assets:useAsInput', { assetIds: useIds, ...choice }));
      setUseIds(null);
      // The typed steps went into the Assembly: nothing is left to ask about.
      navigate({ name: 'assembly', assemblyId }, { force: true });
    } catch (error) {
      const e = toAppError(error);
      toast(`Could not start the Assembly: ${e.code} — ${e.message}`, 'danger');
    } finally {
      setBusy(false);
    }
  };

  // ---- drag and drop ----
  const selectionRef = useRef(selection);
  selectionRef.current = selection;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const drag = useMemo<RowDrag>(() => {
    const dragged = (index: number): DraggedAssets => {
      const key = keyAt(rowsRef.current, index);
      const keys = key && selectionRef.current.selected.has(key) ? [...selectionRef.current.selected] : key ? [key] : [];
      return targetsOf(keys);
    };
    return {
      onDragStart: (event, index) => {
        event.dataTransfer.setData(ASSET_DRAG_TYPE, encodeDrag(dragged(index)));
        event.dataTransfer.effectAllowed = 'move';
      },
      onDragOverFolder: (event) => {
        if (!event.dataTransfer.types.includes(ASSET_DRAG_TYPE)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
      },
      onDropOnFolder: (event, destination) => {
        const targets = decodeDrag(event.dataTransfer.getData(ASSET_DRAG_TYPE));
        if (!targets) return;
        event.preventDefault();
        if (dropsIntoItself(targets, destination)) return;
        void moveToRef.current(targets, destination);
      },
    };
  }, []);
  const moveToRef = useRef(moveTo);
  moveToRef.current = moveTo;

  // ---- keyboard and mouse on the list ----
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const focusedRow = selection.focus !== null ? rowAt(rows, selection.focus) : undefined;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      setSelection((s) => ({ ...s, selected: new Set(Array.from({ length: loaded }, (_, i) => keyAt(rows, i)!)) }));
      return;
    }
    if (event.key === 'Enter' && focusedRow) {
      event.preventDefault();
      if (focusedRow.kind === 'folder') openFolder(focusedRow.folder, true);
      else setDetailId(focusedRow.asset.assetId);
      return;
    }
    if (event.key === 'Backspace' || (event.altKey && event.key === 'ArrowUp')) {
      event.preventDefault();
      goUp();
      return;
    }
    if (event.key === 'Delete') {
      const targets = selectedTargets();
      if (targets.assetIds.length + targets.folders.length > 0) {
        event.preventDefault();
        setDeleteTargets(targets);
      }
      return;
    }
    if (event.key === 'F2' && focusedRow?.kind === 'asset') {
      event.preventDefault();
      setRenamingId(focusedRow.asset.assetId);
      return;
    }
    const action = keyToAction(event.key, event.shiftKey, 10);
    if (!action) return;
    event.preventDefault();
    select(action);
    requestAnimationFrame(() => {
      const focus = selectionRef.current.focus;
      if (focus !== null) listHandle.current?.scrollToIndex(focus);
    });
  };

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const el = (event.target as HTMLElement).closest<HTMLElement>('[data-line]');
    if (!el) return;
    const index = Number(el.dataset.line);
    const toggleKey = event.ctrlKey || event.metaKey;
    select({ type: 'click', index, shift: event.shiftKey, toggle: toggleKey });
    const row = rowAt(rows, index);
    if (row?.kind === 'asset' && !event.shiftKey && !toggleKey) setDetailId(row.asset.assetId);
  };
  const onDoubleClick = (event: MouseEvent<HTMLDivElement>) => {
    const el = (event.target as HTMLElement).closest<HTMLElement>('[data-line]');
    const row = el ? rowAt(rows, Number(el.dataset.line)) : undefined;
    if (row?.kind === 'folder') openFolder(row.folder);
  };

  // ---- what the screen shows ----
  const selected = targetsOf(selection.selected);
  const selectedCount = selection.selected.size;
  const error = query.isError && !query.data ? query.error : null;
  const scopeMissing = error?.code === 'INSUFFICIENT_AUTH_SCOPE';
  const empty = query.isSuccess && loaded === 0 && !hasNextPage;
  const knownFolders = rows.folders;

  return (
    <div className={`assets-view${detailId ? ' with-details' : ''}`}>
      <div className="section-head">
        <h1 className="page-title">Assets</h1>
        <span className="muted small asset-count" data-testid="asset-count" aria-live="polite">
          {query.data ? `${formatCount(loaded, 'item')}${hasNextPage ? ' so far' : ''}` : ''}
        </span>
        <Button size="sm" variant="ghost" icon={<RetryIcon />} onClick={refresh} busy={query.isFetching && !query.isPending && !isFetchingNextPage}>
          Refresh
        </Button>
      </div>

      <Breadcrumbs folder={folder} onOpen={(f) => openFolder(f)} onDragOver={drag.onDragOverFolder} onDrop={drag.onDropOnFolder} />

      <div className="asm-selection asset-selection" aria-live="polite">
        {selectedCount > 0 ? (
          <>
            <span className="num" data-testid="asset-selection-count">
              {describeTargets(selected)} selected
            </span>
            <Button size="sm" onClick={() => setMoveTargets(selected)}>
              Move to…
            </Button>
            <Button size="sm" variant="danger" onClick={() => setDeleteTargets(selected)}>
              Delete…
            </Button>
            <Button size="sm" variant="primary" disabled={selected.assetIds.length === 0} title={selected.assetIds.length === 0 ? 'Select assets (folders are not taken)' : undefined} onClick={() => setUseIds(selected.assetIds)}>
              Use as input…
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setSelection(emptySelection)}>
              Clear selection
            </Button>
          </>
        ) : (
          <span className="muted small">Select with click, Shift, Ctrl or Ctrl+A; drag onto a folder or the path above to move.</span>
        )}
      </div>

      {query.isError && query.data && <StaleNotice updatedAt={query.dataUpdatedAt} error={query.error} onRetry={refresh} />}

      {query.isPending && (
        <div className="center-pane">
          <Spinner size={24} label="Loading assets" />
        </div>
      )}
      {error && (
        <ErrorPanel
          title={scopeMissing ? "This workspace's key cannot read stored assets" : 'Could not load the assets'}
          code={error.code}
          httpCode={error.httpCode}
          message={scopeMissing ? `Reading stored assets needs the dam:read scope (${error.message}).` : error.message}
          action={<Button onClick={refresh}>Try again</Button>}
        />
      )}
      {empty && folder === '' && (
        <EmptyState
          icon={<FolderIcon />}
          title="No stored assets yet"
          action={
            <Button variant="primary" onClick={() => navigate({ name: 'templates' })}>
              Open Templates
            </Button>
          }
        >
          Assemblies keep their results here when a step stores them: add a <code>/transloadit/store</code> step with a <code>path</code> (like{' '}
          <code>{'photos/${file.name}'}</code>) to a Template or your steps. Storing to the same path again makes a new version.
        </EmptyState>
      )}
      {empty && folder !== '' && (
        <EmptyState icon={<FolderIcon />} title="This folder is empty" action={<Button onClick={goUp}>Up to {parentFolder(folder) || 'All assets'}</Button>}>
          Its assets were moved or deleted.
        </EmptyState>
      )}

      {query.data && !empty && (
        <div className="asset-body">
          <div className="asset-list-wrap" ref={listWrap} onClick={onClick} onDoubleClick={onDoubleClick}>
            <VirtualList
              className="asset-list"
              label={`Assets in ${folder || 'All assets'}`}
              data-testid="asset-list"
              role="grid"
              rowRole="presentation"
              aria-multiselectable
              aria-describedby={ASSET_KEYS_ID}
              aria-keyshortcuts={SHORTCUTS}
              aria-activedescendant={selection.focus === null ? undefined : rowId(selection.focus)}
              count={count}
              rowHeight={ROW_HEIGHT}
              overscan={4}
              chunk={8}
              fallbackRows={14}
              onRangeChange={onRange}
              onKeyDown={onKeyDown}
              handleRef={listHandle}
              getRowKey={(i) => idAt(i) ?? `placeholder-${i}`}
              renderRow={(index) => {
                const row = rowAt(rows, index);
                if (!row) return <PlaceholderRow index={index} />;
                const key = row.kind === 'folder' ? `folder:${row.folder}` : assetKey(row.asset.assetId);
                const isSelected = selection.selected.has(key);
                const focused = selection.focus === index;
                return row.kind === 'folder' ? (
                  <FolderRow folder={row.folder} index={index} selected={isSelected} focused={focused} onToggle={toggle} onOpenFolder={openFolder} drag={drag} />
                ) : (
                  <AssetRowView asset={row.asset} index={index} selected={isSelected} focused={focused} renaming={renamingId === row.asset.assetId} onToggle={toggle} onRename={onRename} drag={drag} />
                );
              }}
            />
            {query.isFetchNextPageError && (
              <StaleNotice updatedAt={query.dataUpdatedAt} error={query.error} onRetry={() => void fetchNextPage()} />
            )}
            <p className="muted small asset-keys" id={ASSET_KEYS_ID}>
              Keys: arrows move, Shift extends, Space selects, Ctrl+A selects {hasNextPage ? 'every row read so far' : 'every row'}, Enter opens, Backspace or Alt+↑ goes up, F2 renames, Delete deletes.
            </p>
          </div>
          {detailId && (
            <AssetDetails
              key={detailId}
              assetId={detailId}
              onClose={() => setDetailId(null)}
              onRename={() => setRenamingId(detailId)}
              onMove={() => setMoveTargets({ assetIds: [detailId], folders: [] })}
              onDelete={() => setDeleteTargets({ assetIds: [detailId], folders: [] })}
              onUse={() => setUseIds([detailId])}
            />
          )}
        </div>
      )}

      <MoveDialog
        open={moveTargets !== null}
        what={describeTargets(moveTargets ?? { assetIds: [], folders: [] })}
        current={folder}
        known={knownFolders}
        busy={busy}
        onMove={(destination) => moveTargets && void moveTo(moveTargets, destination)}
        onCancel={() => setMoveTargets(null)}
      />
      <ConfirmDialog
        open={deleteTargets !== null}
        tone="danger"
        title={`Delete ${describeTargets(deleteTargets ?? { assetIds: [], folders: [] })}?`}
        confirmLabel="Delete"
        busy={busy}
        onConfirm={() => deleteTargets && void deleteNow(deleteTargets)}
        onCancel={() => setDeleteTargets(null)}
      >
        <p data-testid="delete-consequences">
          {deleteTargets && deleteTargets.folders.length > 0 ? 'Folders are deleted with every asset in them. ' : ''}
          Every version of {deleteTargets && deleteTargets.assetIds.length + deleteTargets.folders.length === 1 ? 'it' : 'them'} is deleted; Assemblies can no longer import them.
        </p>
      </ConfirmDialog>
      <UseAsInputDialog open={useIds !== null} count={useIds?.length ?? 0} busy={busy} onStart={(choice) => void startUse(choice)} onCancel={() => setUseIds(null)} />
    </div>
  );
};
