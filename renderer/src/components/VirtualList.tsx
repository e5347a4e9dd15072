import { observeElementRect, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useImperativeHandle, useRef, type AriaAttributes, type KeyboardEvent, type Key, type ReactNode, type Ref } from 'react';
import { chunkedRange } from '../lib/chunked-range';
import { useListVirtualizer } from './use-list-virtualizer';

export interface VirtualListHandle {
  /** Bring a row into view (keyboard focus moving past the edge). */
  readonly scrollToIndex: (index: number) => void;
}

export interface VirtualListProps {
  readonly count: number;
  /** Every row has this height: fixed heights are what make windowing cheap and jump-free. */
  readonly rowHeight: number;
  readonly renderRow: (index: number) => ReactNode;
  readonly label: string;
  readonly className?: string;
  readonly overscan?: number;
  /**
   * Render rows in whole chunks of this many (default 1: row by row). A scroll inside the same chunks then
   * changes no DOM, so the browser does not lay out or repaint anything for that frame (see chunkedRange).
   */
  readonly chunk?: number;
  /** Rows to render when the viewport has no measured height yet (first paint, tests). */
  readonly fallbackRows?: number;
  /** Cap the list at this many rows and shrink it to fit fewer (the height depends only on `count`). */
  readonly maxVisibleRows?: number;
  /** A stable key per row, so a row keeps its DOM node (and focus) while rows above it come and go. */
  readonly getRowKey?: (index: number) => Key;
  /** The rows in view (without overscan) changed: page in what they need. */
  readonly onRangeChange?: (start: number, end: number) => void;
  /** `grid` when rows hold buttons (an option may not), its rows then `role="row"` with `aria-rowindex`. */
  readonly role?: 'list' | 'listbox' | 'grid';
  readonly rowRole?: 'listitem' | 'option' | 'presentation';
  readonly onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
  readonly 'aria-multiselectable'?: AriaAttributes['aria-multiselectable'];
  readonly 'aria-activedescendant'?: string;
  /** The id of the visible text that lists the list's keys, and the keys themselves (Transfers). */
  readonly 'aria-describedby'?: string;
  readonly 'aria-keyshortcuts'?: string;
  readonly 'data-testid'?: string;
  readonly handleRef?: Ref<VirtualListHandle>;
}

/**
 * A scrolling list that renders only the rows in view, on @tanstack/react-virtual. Before the viewport
 * is measured (first paint, happy-dom) it assumes `fallbackRows` rows of height, so something renders.
 */
export const VirtualList = ({
  count,
  rowHeight,
  renderRow,
  label,
  className,
  overscan = 6,
  chunk = 1,
  fallbackRows = 30,
  maxVisibleRows,
  getRowKey,
  onRangeChange,
  role = 'list',
  rowRole = 'listitem',
  onKeyDown,
  handleRef,
  ...aria
}: VirtualListProps) => {
  const scrollRef = useRef<HTMLDivElement>(null);
  const fallbackHeight = fallbackRows * rowHeight;
  const observeRect = useCallback(
    (instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void) => {
      const report = (rect: { width: number; height: number }) => cb(rect.height > 0 ? rect : { width: rect.width, height: fallbackHeight });
      const element = instance.scrollElement;
      const Observer = instance.targetWindow?.ResizeObserver;
      if (!element || !Observer) return observeElementRect(instance, report);
      // The first size comes from the observer, read after the frame's own layout: the library measures at
      // once, in React's commit, which forces a layout of the page inside the task that mounts the list (the
      // largest part of switching to Transfers, issue 27). Until then the list assumes `fallbackRows`.
      const observer = new Observer(() => report({ width: element.clientWidth, height: element.clientHeight }));
      observer.observe(element, { box: 'content-box' });
      return () => observer.disconnect();
    },
    [fallbackHeight],
  );
  const rangeExtractor = useCallback((range: Range) => chunkedRange(range, chunk), [chunk]);
  // The rows in view (without overscan), from the scroll offset, told to onRangeChange when they change.
  const reported = useRef<{ start: number; end: number; to?: (start: number, end: number) => void }>({ start: -1, end: -1 });
  const rangeHandler = useRef(onRangeChange);
  rangeHandler.current = onRangeChange;
  const report = useCallback(
    (v: Virtualizer<HTMLDivElement, Element>) => {
      const offset = v.scrollOffset ?? 0;
      const viewport = v.scrollRect?.height ?? fallbackHeight;
      const total = v.options.count;
      const start = Math.min(total, Math.floor(offset / rowHeight));
      const end = Math.min(total, Math.ceil((offset + viewport) / rowHeight));
      const to = rangeHandler.current;
      // A new handler hears the current range too (as it would from an effect depending on it).
      if (start === reported.current.start && end === reported.current.end && to === reported.current.to) return;
      reported.current = { start, end, to };
      to?.(start, end);
    },
    [fallbackHeight, rowHeight],
  );
  const virtualizer = useListVirtualizer(
    {
      count,
      getScrollElement: () => scrollRef.current,
      estimateSize: () => rowHeight,
      overscan,
      rangeExtractor,
      initialRect: { width: 0, height: fallbackHeight },
      observeElementRect: observeRect,
      // No getItemKey: the virtualizer keys its size cache by it and recomputes every row's measurement
      // (O(count)) whenever that function changes — on each render for an inline one, 10,000 rows per scroll
      // frame in Activity (bench:activity-scale). Rows have one fixed height, so nothing needs that cache;
      // the row keys are asked for the rendered rows only, below.
    },
    report,
  );
  useImperativeHandle(handleRef, () => ({ scrollToIndex: (index: number) => virtualizer.scrollToIndex(index, { align: 'auto' }) }), [virtualizer]);

  const items = virtualizer.getVirtualItems();
  // Scrolling reports the range without a render (report, above); a new count or viewport after a render too.
  useEffect(() => report(virtualizer));

  return (
    <div
      ref={scrollRef}
      className={['vlist', className].filter(Boolean).join(' ')}
      style={maxVisibleRows === undefined ? undefined : { height: Math.min(count, maxVisibleRows) * rowHeight + 2 }}
      role={role}
      aria-label={label}
      aria-rowcount={role === 'grid' ? count : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      {...aria}
    >
      {/* While scrolling, rows take no pointer events: a row passing under a still mouse would otherwise
          cost a hit test, four mouse events and a hover repaint per frame. */}
      <div className={virtualizer.isScrolling ? 'vlist-inner scrolling' : 'vlist-inner'} style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => (
          <div
            key={getRowKey ? getRowKey(item.index) : item.key}
            className="vrow"
            role={rowRole === 'presentation' ? 'presentation' : rowRole}
            {...(rowRole === 'presentation' ? {} : { 'aria-setsize': count, 'aria-posinset': item.index + 1 })}
            // `top`, not a transform: a row never moves once placed, and a transform per row is a paint
            // chunk and property node per row that every frame's pre-paint and layerization walk.
            style={{ top: item.start, height: rowHeight }}
          >
            {renderRow(item.index)}
          </div>
        ))}
      </div>
    </div>
  );
};
