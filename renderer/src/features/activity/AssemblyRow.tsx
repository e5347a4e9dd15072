import { memo } from 'react';
import type { AssemblyListItem } from '../../../../shared/ipc/assembly-models';
import { Badge } from '../../components/Badge';
import { formatBytes, formatCount, formatPercent } from '../../lib/format';
import { DateTime } from '../../components/DateTime';
import { describeRunState } from '../../lib/run-state';

export const ROW_HEIGHT = 56;

/** The badge of a list row: the service's state, or this app's run's while it uploads. */
export const itemStateView = (item: AssemblyListItem) =>
  describeRunState({
    state: item.run && !item.error && item.state === 'ASSEMBLY_UPLOADING' ? item.run.state : item.state,
    error: item.error ? { code: item.error, message: item.error } : null,
    status: null,
    ...(item.run ? { totals: item.run.totals } : {}),
  });

const filesLine = (item: AssemblyListItem): string => {
  const names = item.fileNames;
  if (names.length === 0) return item.numInputFiles ? formatCount(item.numInputFiles, 'file') : 'No files';
  return names.length === 1 ? names[0]! : `${names[0]!} and ${formatCount(names.length - 1, 'more file', 'more files')}`;
};

/** "2 files · 3.0 KB": what went in. */
const totalsLine = (item: AssemblyListItem): string =>
  [item.numInputFiles !== null ? formatCount(item.numInputFiles, 'file') : '', item.bytes !== null ? formatBytes(item.bytes) : ''].filter(Boolean).join(' · ');

interface RowProps {
  readonly item: AssemblyListItem;
  readonly selected: boolean;
  readonly onOpen: (item: AssemblyListItem) => void;
  readonly onToggle: (id: string) => void;
}

/** One Assembly: select box, state, id, when, files, and (for runs of this app) upload progress. Fixed height. */
export const AssemblyRow = memo(({ item, selected, onOpen, onToggle }: RowProps) => {
  const view = itemStateView(item);
  const uploading = item.run && view.busy && item.run.totals.bytesTotal > 0 && item.run.totals.bytesUploaded < item.run.totals.bytesTotal;
  return (
    <div className={`asm-row${selected ? ' selected' : ''}`} data-testid="assembly-row" data-state={item.state} data-id={item.id ?? ''}>
      {item.id ? (
        <input type="checkbox" className="asm-check" aria-label={`Select ${item.id}`} checked={selected} onChange={() => onToggle(item.id!)} />
      ) : (
        <span className="asm-check" aria-hidden="true" />
      )}
      <button type="button" className="asm-open" data-testid="assembly-open" onClick={() => onOpen(item)}>
        <Badge tone={view.tone} data-testid="assembly-state">
          {view.label}
        </Badge>
        <span className="asm-main">
          <span className="mono asm-id">
            {item.id ?? <span className="muted">Creating…</span>}
            {item.parentId && <span className="asm-tag">replay</span>}
            {item.run && <span className="asm-tag">this app</span>}
          </span>
          {/* One string, one text node (not four): rows mount eight at a time while scrolling. */}
          <span className="muted small asm-sub">
            <DateTime value={item.created} />
            {` · ${filesLine(item)}${item.error ? ` · ${item.error}` : ''}`}
          </span>
        </span>
        <span className="num asm-totals muted">
          {uploading ? `Uploading ${formatPercent(item.run!.totals.bytesUploaded, item.run!.totals.bytesTotal)}` : totalsLine(item)}
        </span>
      </button>
    </div>
  );
});
AssemblyRow.displayName = 'AssemblyRow';

/** A row whose page is still on its way: same height, no content jump when it arrives. */
export const PlaceholderRow = () => (
  <div className="asm-row asm-placeholder" aria-hidden="true">
    <span className="asm-check" />
    <span className="tx-skeleton asm-skeleton" />
  </div>
);
