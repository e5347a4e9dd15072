import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export interface VirtualListProps {
  readonly count: number;
  /** Every row has this height: fixed heights are what make windowing cheap and jump-free. */
  readonly rowHeight: number;
  readonly renderRow: (index: number) => ReactNode;
  readonly label: string;
  readonly className?: string;
  readonly overscan?: number;
  /** Rows to render when the viewport has no measured height yet (first paint, tests). */
  readonly fallbackRows?: number;
  /** Cap the list at this many rows and shrink it to fit fewer (the height depends only on `count`). */
  readonly maxVisibleRows?: number;
}

/** Pure windowing math, exported for tests. */
export const visibleRange = (scrollTop: number, viewport: number, rowHeight: number, count: number, overscan: number, fallbackRows: number) => {
  const rows = viewport > 0 ? Math.ceil(viewport / rowHeight) : fallbackRows;
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(count, Math.floor(scrollTop / rowHeight) + rows + overscan);
  return { start, end };
};

/** A scrolling list that renders only the rows in view, so thousands of files stay smooth. */
export const VirtualList = ({ count, rowHeight, renderRow, label, className, overscan = 6, fallbackRows = 30, maxVisibleRows }: VirtualListProps) => {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setViewport(el.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const { start, end } = visibleRange(scrollTop, viewport, rowHeight, count, overscan, fallbackRows);
  const rows: ReactNode[] = [];
  for (let i = start; i < end; i += 1) {
    rows.push(
      <div key={i} className="vrow" role="listitem" aria-setsize={count} aria-posinset={i + 1} style={{ transform: `translateY(${i * rowHeight}px)`, height: rowHeight }}>
        {renderRow(i)}
      </div>,
    );
  }
  return (
    <div
      ref={ref}
      className={['vlist', className].filter(Boolean).join(' ')}
      style={maxVisibleRows === undefined ? undefined : { height: Math.min(count, maxVisibleRows) * rowHeight + 2 }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)} role="list" aria-label={label} tabIndex={0}>
      <div className="vlist-inner" style={{ height: count * rowHeight }}>
        {rows}
      </div>
    </div>
  );
};
