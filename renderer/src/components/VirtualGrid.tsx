import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { VirtualList } from './VirtualList';

export interface VirtualGridProps {
  readonly count: number;
  /** Height of a line of cells, gap included: fixed, so scrolling never jumps. */
  readonly rowHeight: number;
  readonly minColumnWidth: number;
  readonly renderItem: (index: number) => ReactNode;
  readonly label: string;
  readonly className?: string;
  /** Show at most this many lines before scrolling inside the grid. */
  readonly maxVisibleRows: number;
  /** Columns before the width is measured (first paint, tests). */
  readonly fallbackColumns?: number;
}

/** Cards in as many columns as fit, on the virtualized list: 2,000 results render a screenful, not 2,000. */
export const VirtualGrid = ({ count, rowHeight, minColumnWidth, renderItem, label, className, maxVisibleRows, fallbackColumns = 2 }: VirtualGridProps) => {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const columns = width > 0 ? Math.max(1, Math.floor(width / minColumnWidth)) : fallbackColumns;
  const rows = Math.ceil(count / columns);
  return (
    <div ref={ref} className="vgrid-wrap">
      <VirtualList
        className={['vgrid', className].filter(Boolean).join(' ')}
        label={label}
        count={rows}
        rowHeight={rowHeight}
        maxVisibleRows={maxVisibleRows}
        fallbackRows={Math.min(rows, maxVisibleRows)}
        overscan={2}
        rowRole="presentation"
        renderRow={(row) => (
          <div className="vgrid-row" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
            {Array.from({ length: Math.min(columns, count - row * columns) }, (_, i) => renderItem(row * columns + i))}
          </div>
        )}
      />
    </div>
  );
};
