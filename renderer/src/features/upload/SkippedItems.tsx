import { useEffect, useState } from 'react';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { formatCount } from '../../lib/format';

const PAGE = 200;

/** Items of the drops core could not read, each with its reason; read from core when opened. */
export const SkippedItems = ({ count, version }: { count: number; version: number }) => {
  const [open, setOpen] = useState(false);
  const [limit, setLimit] = useState(PAGE);
  const items = useBridgeQuery('drafts:skipped', { offset: 0, limit: Math.min(1_000, limit) }, { enabled: open, staleTime: 0 });
  const { refetch } = items;
  // More items may have failed to read since it was opened.
  useEffect(() => {
    if (open) void refetch();
  }, [open, version, refetch]);
  return (
    <details className="skipped" data-testid="skipped-items" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="tone-danger">{formatCount(count, 'item')} could not be read: show why</summary>
      {items.isError && <p className="field-error">{items.error.message}</p>}
      {items.data && (
        <ul className="skipped-list mono">
          {items.data.items.map((s, i) => (
            <li key={`${s.relativePath}-${i}`}>
              {s.relativePath}: <span className="muted">{s.reason}</span>
            </li>
          ))}
        </ul>
      )}
      {items.data && items.data.total > items.data.items.length && limit < 1_000 && (
        <Button size="sm" variant="ghost" onClick={() => setLimit((l) => l + PAGE)}>
          Show more
        </Button>
      )}
    </details>
  );
};
