import { useId, useState, type ReactNode } from 'react';
import { Button } from '../Button';

export interface DataTableProps {
  readonly label: string;
  readonly columns: readonly string[];
  /** Cells as shown; the first column names the row. */
  readonly rows: readonly (readonly string[])[];
}

/** The numbers behind a chart, for keyboards and screen readers (and anyone who wants the figures). */
export const DataTable = ({ label, columns, rows }: DataTableProps) => (
  <table className="data-table" aria-label={label}>
    <thead>
      <tr>
        {columns.map((c, i) => (
          <th key={c} scope="col" className={i > 0 ? 'num' : undefined}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
    <tbody>
      {rows.map((row) => (
        <tr key={row[0]}>
          {row.map((cell, i) =>
            i === 0 ? (
              <th key={i} scope="row">
                {cell}
              </th>
            ) : (
              <td key={i} className="num">
                {cell}
              </td>
            ),
          )}
        </tr>
      ))}
    </tbody>
  </table>
);

export interface ChartFigureProps {
  readonly title: string;
  /** The text alternative: the key figures in words, always shown under the chart. */
  readonly caption: string;
  /** Fixed height of the plot (and its skeleton and table): no layout jump between the three. */
  readonly height: number;
  readonly table?: DataTableProps;
  /** While loading: a placeholder of the same size. */
  readonly loading?: boolean;
  readonly children?: ReactNode;
  readonly 'data-testid'?: string;
}

/**
 * A chart with its title, a caption that says its key figures, and a Table toggle that swaps the plot for
 * the numbers behind it in the same box (so everything is reachable by keyboard and screen reader).
 */
export const ChartFigure = ({ title, caption, height, table, loading = false, children, ...rest }: ChartFigureProps) => {
  const [asTable, setAsTable] = useState(false);
  const titleId = useId();
  return (
    <figure className="chart-figure card" aria-labelledby={titleId} aria-busy={loading || undefined} {...rest}>
      <div className="chart-head">
        <h2 className="section-title" id={titleId}>
          {title}
        </h2>
        {table && !loading && (
          <Button size="sm" variant="ghost" aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
            {asTable ? 'Show chart' : 'Show table'}
          </Button>
        )}
      </div>
      <div className="chart-body" style={{ height }}>
        {loading ? <div className="skeleton-block" aria-hidden="true" /> : asTable && table ? (
          // A scroll area keyboards can reach (it may hold hundreds of rows and no control).
          <div className="chart-table-wrap" tabIndex={0} role="region" aria-label={`${title}: table`}>
            <DataTable {...table} />
          </div>
        ) : (
          children
        )}
      </div>
      <figcaption className="chart-caption small muted" data-testid={rest['data-testid'] ? `${rest['data-testid']}-caption` : undefined}>
        {loading ? 'Loading…' : caption}
      </figcaption>
    </figure>
  );
};
