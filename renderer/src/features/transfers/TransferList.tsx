import { assemblyRouteOfRun } from './open-assembly';
import { memo, useCallback, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { VirtualList, type VirtualListHandle } from '../../components/VirtualList';
import { keyToAction, type ListSelection, type SelectionAction } from '../../lib/list-selection';
import { rowAt } from '../../lib/row-pages';
import { lineAt } from './transfer-layout';
import { useNavigation } from '../../state/navigation-store';
import { useTransferController } from '../../bridge/transfer-events';
import { BatchLine, LINE_HEIGHT, PlaceholderLine, RowLine, type Control } from './TransferLines';
import { TRANSFER_KEYS_ID, TRANSFER_SHORTCUTS } from './SelectionBar';
import { useTransfers } from './transfer-store';

/**
 * One line of the list: it reads only what it shows from the store, so a delta renders only its lines;
 * memoized, so a scroll renders only the lines that came into view.
 */
const Line = memo(({ line, selection, onControl }: { line: number; selection: ListSelection; onControl: Control }) => {
  const layout = useTransfers((s) => s.layout);
  const at = lineAt(layout, line);
  const row = useTransfers((s) => (at.kind === 'row' ? rowAt(s.cache, at.offset) : undefined));
  const batch = useTransfers((s) => (at.kind === 'header' && at.group.batchId ? s.batches.get(at.group.batchId) : undefined));
  const transfer = useTransfers((s) => (batch ? s.transfers.get(batch.transferId) : undefined));
  const navigate = useNavigation((s) => s.navigate);
  const focused = selection.focus === line;
  if (at.kind === 'header') {
    return <BatchLine batchId={at.group.batchId} batch={batch} transfer={transfer} rowsShown={at.group.count} line={line} focused={focused} onControl={onControl} onOpenRun={(runId) => navigate(assemblyRouteOfRun(runId))} />;
  }
  if (!row) return <PlaceholderLine line={line} />;
  return <RowLine row={row} line={line} selected={selection.selected.has(row.id)} focused={focused} onControl={onControl} />;
});
Line.displayName = 'Line';

export interface TransferListProps {
  readonly selection: ListSelection;
  readonly onSelect: (action: SelectionAction) => void;
  readonly onControl: Control;
  /** P, R, Delete…: true when the key did something (see key-target.ts). */
  readonly onShortcut?: (key: string) => boolean;
}

/** The queue as one virtualized list: a header line per batch, then its files; only lines in view exist. */
export const TransferList = ({ selection, onSelect, onControl, onShortcut }: TransferListProps) => {
  const controller = useTransferController();
  const count = useTransfers((s) => s.layout.count);
  const handle = useRef<VirtualListHandle>(null);
  const onRange = useCallback((start: number, end: number) => controller.setLines(start, end), [controller]);

  const focusRef = useRef<number | null>(null);
  focusRef.current = selection.focus;

  const navigate = useNavigation((s) => s.navigate);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    // The lines' buttons are mouse-only (the list is one Tab stop): Enter on a batch opens its Assembly.
    if (event.key === 'Enter' && selection.focus !== null) {
      const state = useTransfers.getState();
      const at = lineAt(state.layout, selection.focus);
      const runId = at.kind === 'header' && at.group.batchId ? state.batches.get(at.group.batchId)?.runId : undefined;
      if (runId) {
        event.preventDefault();
        navigate(assemblyRouteOfRun(runId));
      }
      return;
    }
    if (!event.ctrlKey && !event.metaKey && !event.altKey && onShortcut?.(event.key)) {
      event.preventDefault();
      return;
    }
    const action = keyToAction(event.key, event.shiftKey, 10);
    if (!action) return;
    event.preventDefault();
    onSelect(action);
    // Where the focus lands is known after the reducer ran; scroll there on the next frame.
    requestAnimationFrame(() => {
      const focus = focusRef.current;
      if (focus !== null) handle.current?.scrollToIndex(focus);
    });
  };

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const el = (event.target as HTMLElement).closest<HTMLElement>('[data-line]');
    if (!el) return;
    onSelect({ type: 'click', index: Number(el.dataset.line), shift: event.shiftKey, toggle: event.ctrlKey || event.metaKey });
  };

  return (
    <div className="tx-list-wrap" onClick={onClick}>
      <VirtualList
        className="tx-list"
        label="Files in the transfer queue"
        data-testid="transfer-list"
        role="grid"
        rowRole="presentation"
        aria-multiselectable
        aria-describedby={TRANSFER_KEYS_ID}
        aria-keyshortcuts={TRANSFER_SHORTCUTS}
        aria-activedescendant={selection.focus === null ? undefined : `tline-${selection.focus}`}
        count={count}
        rowHeight={LINE_HEIGHT}
        overscan={2}
        chunk={8}
        fallbackRows={16}
        onRangeChange={onRange}
        onKeyDown={onKeyDown}
        handleRef={handle}
        renderRow={(line) => <Line line={line} selection={selection} onControl={onControl} />}
      />
    </div>
  );
};
