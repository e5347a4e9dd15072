import type { CancelCost } from '../../../../shared/ipc/transfer-models';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatBytes, formatCount } from '../../lib/format';

export interface ResendAsk {
  /** What the user chose to cancel ("c.mov", "3 files"). */
  readonly what: string;
  readonly cost: CancelCost;
}

/**
 * Canceling a file that an existing Assembly waits for sends the rest of its batch again (the API cannot
 * take one upload out of an Assembly): before that happens, say exactly which files go again, how much of
 * what they sent is thrown away, and which Assembly is canceled. Keep sending is the default.
 */
export const ResendDialog = ({ ask, onConfirm, onCancel }: { ask: ResendAsk | null; onConfirm: () => void; onCancel: () => void }) => {
  const batches = ask?.cost.batches ?? [];
  const files = batches.reduce((n, b) => n + b.resendFiles, 0);
  const lost = batches.reduce((n, b) => n + b.lostBytes, 0);
  const again = batches.reduce((n, b) => n + b.resendBytes, 0);
  return (
    <ConfirmDialog
      open={ask !== null}
      title={ask ? `Cancel ${ask.what}? ${formatCount(files, 'other file')} would be sent again` : ''}
      confirmLabel={`Cancel it and send ${formatCount(files, 'file')} again`}
      cancelLabel="Keep sending"
      tone="danger"
      wide
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p data-testid="resend-summary">
        An Assembly waits for every file it was created with, and the service offers no way to take one out. To leave {ask?.what ?? 'it'} out, its{' '}
        {batches.length === 1 ? 'Assembly is' : 'Assemblies are'} canceled (listed as Canceled in Activity) and created again without it: {formatCount(files, 'file')} go again from
        0 B — {formatBytes(again)} to send, {formatBytes(lost)} already sent thrown away.
      </p>
      {batches.map((b) => (
        <div key={b.batchId} className="resend-batch">
          <p className="muted small">
            {b.transferLabel} · {b.label}
            {b.assemblyId ? ` · Assembly ${b.assemblyId.slice(0, 8)}…` : ' · its create request is stopped'}
          </p>
          <ul className="resend-files" data-testid="resend-files">
            {b.files.map((f) => (
              <li key={f.relativePath}>
                <span className="tx-name">{f.relativePath}</span>{' '}
                <span className="muted num">{f.done ? `${formatBytes(f.size)}, sent` : `${formatBytes(f.bytesSent)} of ${formatBytes(f.size)} sent`}</span>
              </li>
            ))}
            {b.resendFiles > b.files.length && <li className="muted">and {formatCount(b.resendFiles - b.files.length, 'more file')}</li>}
          </ul>
        </div>
      ))}
    </ConfirmDialog>
  );
};
