import { memo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import type { DraftRow } from '../../../../shared/ipc/transfer-models';
import { IconButton } from '../../components/IconButton';
import { CloseIcon } from '../../components/Icons';
import { VirtualList, type VirtualListHandle } from '../../components/VirtualList';
import { formatBytes } from '../../lib/format';
import { keyToAction, type ListSelection, type SelectionAction } from '../../lib/list-selection';
import { rowAt, type RowCache } from '../../lib/row-pages';
import { mediaKindOf } from '../../lib/selection';
import { LocalThumbnail } from '../../components/Thumbnail';

const ROW_HEIGHT = 44;

/** Why Start leaves a listed file out (the skip rules, which the pre-flight counts). */
export const LEFT_OUT: Record<NonNullable<DraftRow['leftOut']>, string> = {
  hidden: 'Left out: hidden or system file',
  pattern: 'Left out: a pattern',
  size: 'Left out: its size',
};

const DraftLine = memo(({ row, index, selected, focused, onRemove }: { row: DraftRow; index: number; selected: boolean; focused: boolean; onRemove: (id: string) => void }) => (
  <div
    id={`dline-${index}`}
    className={`file-row${selected ? ' selected' : ''}${focused ? ' focused' : ''}${row.leftOut ? ' left-out' : ''}`}
    data-testid="file-row"
    data-left-out={row.leftOut ?? undefined}
    data-line={index}
    role="row"
    aria-rowindex={index + 1}
    aria-selected={selected}
  >
    <span className="cell-flex" role="gridcell">
      <LocalThumbnail handle={row.handle} relativePath={row.relativePath} kind={mediaKindOf(row)} size={32} />
    </span>
    <span className="file-path" role="gridcell" title={row.leftOut ? `${row.relativePath} — ${LEFT_OUT[row.leftOut]}` : row.relativePath}>
      {row.relativePath}
      {row.leftOut && (
        <span className="left-out-note muted small" data-testid="left-out">
          {' '}
          · {LEFT_OUT[row.leftOut]}
        </span>
      )}
    </span>
    <span className="file-size num" role="gridcell">
      {formatBytes(row.size)}
    </span>
    <span className="cell-flex" role="gridcell">
      <IconButton
        label={`Remove ${row.relativePath}`}
        // Mouse only: the grid is one Tab stop (arrows move inside it); keyboard users select rows and use
        // "Remove N selected files".
        tabIndex={-1}
        onClick={(e) => {
          e.stopPropagation();
          onRemove(row.id);
        }}
      >
        <CloseIcon />
      </IconButton>
    </span>
  </div>
));
DraftLine.displayName = 'DraftLine';

export interface DraftFileListProps {
  readonly count: number;
  readonly cache: RowCache<DraftRow>;
  readonly onRange: (start: number, end: number) => void;
  readonly selection: ListSelection;
  readonly onSelect: (action: SelectionAction) => void;
  readonly onRemove: (id: string) => void;
}

/** The draft's files, windowed: only the rows in view are read from core and rendered. */
export const DraftFileList = ({ count, cache, onRange, selection, onSelect, onRemove }: DraftFileListProps) => {
  const handle = useRef<VirtualListHandle>(null);
  const focusRef = useRef<number | null>(null);
  focusRef.current = selection.focus;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const action = keyToAction(event.key, event.shiftKey, 10);
    if (!action) return;
    event.preventDefault();
    onSelect(action);
    requestAnimationFrame(() => focusRef.current !== null && handle.current?.scrollToIndex(focusRef.current));
  };
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const el = (event.target as HTMLElement).closest<HTMLElement>('[data-line]');
    if (el) onSelect({ type: 'click', index: Number(el.dataset.line), shift: event.shiftKey, toggle: event.ctrlKey || event.metaKey });
  };
  return (
    <div className="file-list-wrap" onClick={onClick}>
      <VirtualList
        className="file-list"
        label="Selected files"
        role="grid"
        rowRole="presentation"
        aria-multiselectable
        aria-activedescendant={selection.focus === null ? undefined : `dline-${selection.focus}`}
        count={count}
        rowHeight={ROW_HEIGHT}
        onRangeChange={onRange}
        onKeyDown={onKeyDown}
        handleRef={handle}
        renderRow={(index) => {
          const row = rowAt(cache, index);
          if (!row) return <div id={`dline-${index}`} className="file-row tx-placeholder" role="row" aria-rowindex={index + 1} aria-selected={false} aria-busy="true"><span className="tx-skeleton" role="gridcell" /></div>;
          return <DraftLine row={row} index={index} selected={selection.selected.has(row.id)} focused={selection.focus === index} onRemove={onRemove} />;
        }}
      />
    </div>
  );
};
