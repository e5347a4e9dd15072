import { useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { formatBytes } from '../../lib/format';
import { itemConflictNote, itemStateBadge } from './watch-view';

/** A watch's files (its ledger), most recently changed first: state, size, results or error, and what the conflict policy did. */
export const WatchItems = ({ id }: { id: string }) => {
  const items = useBridgeQuery('watch-folders:items', { id, offset: 0, limit: 200 });
  if (items.isPending) return <Spinner label="Loading files" />;
  if (items.isError) return <ErrorPanel title="Could not load the files" code={items.error.code} message={items.error.message} />;
  if (items.data.items.length === 0) return <EmptyState title="No files yet">Files copied into the folder show here.</EmptyState>;
  return (
    <div className="watch-items-wrap">
      <table className="asm-table watch-items" data-testid="watch-items">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">State</th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col">Results or error</th>
          </tr>
        </thead>
        <tbody>
          {items.data.items.map((item) => {
            const badge = itemStateBadge(item.state);
            const note = item.error ? null : itemConflictNote(item);
            // Nothing written because everything was already there: the results on disk are those earlier ones.
            const shown = item.results.length > 0 ? item.results : item.skippedResults;
            return (
              <tr key={item.relativePath} data-testid="watch-item">
                <td className="mono">{item.relativePath}</td>
                <td>
                  <Badge tone={badge.tone}>{badge.label}</Badge>
                </td>
                <td className="num">{formatBytes(item.size)}</td>
                <td className="small">
                  {item.error ? <span className="watch-item-error">{item.error}</span> : <span className="mono">{shown.join(', ')}</span>}
                  {note && (
                    <span className="muted block" data-testid="watch-item-note">
                      {note}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {items.data.total > items.data.items.length && <p className="muted small">Showing the latest {items.data.items.length} of {items.data.total} files.</p>}
    </div>
  );
};
