import { memo, type MouseEvent } from 'react';
import type { BatchState, Transfer, TransferAction, TransferBatch, TransferFileState, TransferRow, TransferScope } from '../../../../shared/ipc/transfer-models';
import { batchTitle } from './batch-title';
import { Badge } from '../../components/Badge';
import { DateTime } from '../../components/DateTime';
import { IconButton } from '../../components/IconButton';
import { CloseIcon, PauseIcon, PlayIcon, RetryIcon } from '../../components/Icons';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatCount, percentOf } from '../../lib/format';
import type { StateTone } from '../../lib/run-state';

export const LINE_HEIGHT = 44;

export const FILE_STATE: Record<TransferFileState, { label: string; tone: StateTone }> = {
  queued: { label: 'Queued', tone: 'neutral' },
  uploading: { label: 'Uploading', tone: 'info' },
  paused: { label: 'Paused', tone: 'warning' },
  uploaded: { label: 'Verifying', tone: 'info' },
  verified: { label: 'Done', tone: 'success' },
  // Delivered whole where the service records no checksums: the batch says "Not verified" once (its note).
  unverified: { label: 'Sent', tone: 'neutral' },
  failed: { label: 'Failed', tone: 'danger' },
  canceled: { label: 'Canceled', tone: 'neutral' },
  skipped: { label: 'Skipped', tone: 'neutral' },
};

export const BATCH_STATE: Record<BatchState, { label: string; tone: StateTone }> = {
  queued: { label: 'Queued', tone: 'neutral' },
  creating: { label: 'Creating', tone: 'info' },
  uploading: { label: 'Uploading', tone: 'info' },
  paused: { label: 'Paused', tone: 'warning' },
  processing: { label: 'Processing', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  canceled: { label: 'Canceled', tone: 'neutral' },
};

/** Which of pause / resume / cancel / retry make sense for a file in this state. */
export const rowActions = (state: TransferFileState): TransferAction[] => {
  switch (state) {
    case 'queued':
    case 'uploading':
      return ['pause', 'cancel'];
    case 'paused':
      return ['resume', 'cancel'];
    case 'failed':
    case 'canceled':
      return ['retry'];
    default:
      return [];
  }
};

export const batchActions = (batch: Pick<TransferBatch, 'state' | 'filesFailed'>): TransferAction[] => {
  switch (batch.state) {
    case 'queued':
    case 'creating':
    case 'uploading':
      return ['pause', 'cancel'];
    case 'paused':
      return ['resume', 'cancel'];
    case 'failed':
    case 'canceled':
      return ['retry'];
    default:
      return batch.filesFailed > 0 ? ['retry'] : [];
  }
};

const ACTION_ICON = { pause: <PauseIcon />, resume: <PlayIcon />, cancel: <CloseIcon />, retry: <RetryIcon /> } as const;
const ACTION_WORD = { pause: 'Pause', resume: 'Resume', cancel: 'Cancel', retry: 'Retry' } as const;

export type Control = (action: TransferAction, scope: TransferScope) => void;

const stop = (e: MouseEvent) => e.stopPropagation();

const folderOf = (path: string): { folder: string; name: string } => {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? { folder: '', name: path } : { folder: path.slice(0, cut + 1), name: path.slice(cut + 1) };
};

export interface RowLineProps {
  readonly row: TransferRow;
  readonly line: number;
  readonly selected: boolean;
  readonly focused: boolean;
  readonly onControl: Control;
}

/**
 * One file. Memoized on the row object: a delta that does not name this row does not render it.
 * A row of the grid (rows hold buttons, which an option may not). The grid is one Tab stop; its buttons
 * are for the mouse (tabIndex -1): keyboard users select rows and use the selection's actions, and open
 * a batch's Assembly with Enter on its header line.
 */
export const RowLine = memo(({ row, line, selected, focused, onControl }: RowLineProps) => {
  // A file whose bytes all left inside a create request still on the wire: sent, its Assembly not answered yet.
  const sentWhole = row.state === 'uploading' && row.method === 'multipart' && row.size > 0 && row.bytesSent >= row.size;
  const state = sentWhole ? { label: 'Sent', tone: 'info' as const } : FILE_STATE[row.state];
  const { folder, name } = folderOf(row.relativePath);
  const detail = row.error ?? row.note;
  const busy = row.state === 'uploading' || row.state === 'uploaded';
  return (
    <div
      id={`tline-${line}`}
      className={`tx-row${selected ? ' selected' : ''}${focused ? ' focused' : ''}`}
      role="row"
      aria-rowindex={line + 1}
      aria-selected={selected}
      data-testid="transfer-row"
      data-line={line}
      data-state={row.state}
    >
      <span className="tx-path" role="gridcell" title={row.relativePath}>
        <span className="tx-name">
          {folder && <span className="muted">{folder}</span>}
          {name}
        </span>
        {detail ? (
          <span className={`tx-detail ${row.error ? 'tone-danger' : 'muted'}`} data-testid={row.error ? 'transfer-error' : 'transfer-note'} title={detail}>
            {detail}
          </span>
        ) : (
          <span className="tx-detail muted">
            {row.method === 'tus' ? 'tus (resumable)' : row.method === 'multipart' ? 'multipart' : '—'}
            {row.attempts > 1 ? ` · attempt ${row.attempts}` : ''}
          </span>
        )}
      </span>
      <span className="tx-size num" role="gridcell">{busy ? `${formatBytes(row.bytesSent)} / ${formatBytes(row.size)}` : formatBytes(row.size)}</span>
      <span className="tx-progress" role="gridcell">
        <ProgressBar size="sm" value={percentOf(row.bytesSent, row.size)} label={`${row.relativePath} upload`} tone={state.tone === 'warning' ? 'neutral' : state.tone} />
      </span>
      <span className={`tx-state tone-${state.tone}`} role="gridcell">
        {state.label}
      </span>
      <span className="tx-actions" role="gridcell" onClick={stop}>
        {rowActions(row.state).map((action) => (
          <IconButton key={action} label={`${ACTION_WORD[action]} ${row.relativePath}`} tabIndex={-1} onClick={() => onControl(action, { kind: 'files', ids: [row.id] })}>
            {ACTION_ICON[action]}
          </IconButton>
        ))}
      </span>
    </div>
  );
});
RowLine.displayName = 'RowLine';

/** A row not read yet: the same height, so nothing moves when it arrives. */
export const PlaceholderLine = ({ line }: { line: number }) => (
  <div id={`tline-${line}`} className="tx-row tx-placeholder" role="row" aria-rowindex={line + 1} aria-selected={false} aria-busy="true">
    <span className="tx-skeleton" role="gridcell" />
  </div>
);

export interface BatchLineProps {
  readonly batchId: string | null;
  readonly batch: TransferBatch | undefined;
  /** Its drop (names the batch: folder or first file, time, what it does). */
  readonly transfer: Transfer | undefined;
  readonly rowsShown: number;
  readonly line: number;
  readonly focused: boolean;
  readonly onControl: Control;
  readonly onOpenRun: (runId: string) => void;
}

/** A batch's header line; a click focuses it (no file selected), so the bar above shows the batch's actions. */
export const BatchLine = memo(({ batchId, batch, transfer, rowsShown, line, focused, onControl, onOpenRun }: BatchLineProps) => {
  const label = batch?.label ?? (batchId ? 'Batch' : 'Not in a batch yet');
  const state = batch ? BATCH_STATE[batch.state] : null;
  const title = batch ? batchTitle(batch, transfer) : null;
  // Buttons name the batch for its drop (folder or first file), never "Files 1–11", which every drop has.
  const name = title?.name ?? label;
  return (
    <div id={`tline-${line}`} className={`tx-batch${focused ? ' focused' : ''}`} role="row" aria-rowindex={line + 1} aria-selected={false} data-testid="transfer-batch" data-line={line}>
      <span className="tx-batch-label" role="gridcell" title={title ? `${title.drop} — ${title.assembly}` : label}>
        {title ? (
          <>
            <span className="tx-batch-drop" data-testid="batch-drop">
              {title.dropParts ? (
                <>
                  {title.dropParts.label && `${title.dropParts.label} · `}
                  <DateTime value={title.dropParts.createdAt} timeOnly={title.dropParts.timeOnly} />
                  {title.dropParts.recipe && ` · ${title.dropParts.recipe}`}
                </>
              ) : (
                title.drop
              )}
            </span>
            <span className="tx-batch-which muted" data-testid="batch-which">
              {title.assembly}
            </span>
          </>
        ) : (
          label
        )}
      </span>
      {state && (
        <span className="cell-flex" role="gridcell">
          <Badge tone={state.tone} data-testid="batch-state">
            {state.label}
          </Badge>
        </span>
      )}
      <span className="tx-batch-facts num muted" role="gridcell">
        {batch ? `${batch.filesDone.toLocaleString('en-US')} of ${formatCount(batch.filesTotal, 'file')} · ${formatBytes(batch.bytesSent)} of ${formatBytes(batch.bytesTotal)}` : formatCount(rowsShown, 'file')}
        {batch && batch.filesFailed > 0 && <span className="tone-danger"> · {batch.filesFailed.toLocaleString('en-US')} failed</span>}
      </span>
      {batch?.error && (
        <span className="tx-batch-error tone-danger" role="gridcell" title={batch.error.message}>
          <code>{batch.error.code}</code> {batch.error.message}
        </span>
      )}
      {batch?.note && !batch.error && (
        <span className="tx-batch-error muted" role="gridcell" title={batch.note} data-testid="batch-note">
          {batch.note}
        </span>
      )}
      <span className="tx-actions" role="gridcell" onClick={stop}>
        {batch?.runId && (
          <button type="button" className="link-btn" tabIndex={-1} onClick={() => onOpenRun(batch.runId as string)} aria-label={`Open the Assembly of ${name}`}>
            Open the Assembly
          </button>
        )}
        {batch &&
          batchActions(batch).map((action) => (
            <IconButton key={action} label={`${ACTION_WORD[action]} batch ${name}`} tabIndex={-1} onClick={() => onControl(action, { kind: 'batch', id: batch.id })}>
              {ACTION_ICON[action]}
            </IconButton>
          ))}
      </span>
    </div>
  );
});
BatchLine.displayName = 'BatchLine';
