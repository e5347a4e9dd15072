import type { RunTotals } from '../../../../shared/ipc/models';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatEta, formatPercent, formatSpeed, percentOf } from '../../lib/format';
import type { StateView } from '../../lib/run-state';

/** The batch's upload progress: every figure has a fixed slot and tabular digits, so nothing jumps. */
export const BatchProgress = ({ totals, view, state }: { totals: RunTotals; view: StateView; state: string }) => {
  const uploadsDone = totals.bytesTotal > 0 ? totals.bytesUploaded >= totals.bytesTotal : totals.filesUploaded >= totals.filesTotal;
  const processing = view.busy && uploadsDone && state !== 'CREATING';
  const tone = view.failed ? 'danger' : view.label === 'Completed' ? 'success' : view.busy ? 'info' : 'neutral';
  const percent = formatPercent(totals.bytesUploaded, totals.bytesTotal);
  const bytes = `${formatBytes(totals.bytesUploaded)} of ${formatBytes(totals.bytesTotal)}`;
  return (
    <div className="batch" data-testid="batch-progress">
      <div className="batch-top">
        <span className="batch-percent num">{percent}</span>
        <span className="batch-phase muted">{processing ? 'Uploaded · processing on the service…' : view.busy ? 'Uploading' : uploadsDone ? 'Upload finished' : 'Upload stopped'}</span>
      </div>
      <ProgressBar value={processing ? null : percentOf(totals.bytesUploaded, totals.bytesTotal)} label="Upload progress" valueText={`${percent}, ${bytes}`} tone={tone} />
      <dl className="batch-stats">
        <div>
          <dt>Uploaded</dt>
          <dd className="num">{bytes}</dd>
        </div>
        <div>
          <dt>Files</dt>
          <dd className="num">
            {totals.filesUploaded.toLocaleString('en-US')} of {totals.filesTotal.toLocaleString('en-US')}
          </dd>
        </div>
        <div>
          <dt>Speed</dt>
          <dd className="num">{view.busy && !uploadsDone ? formatSpeed(totals.speedBps) : '—'}</dd>
        </div>
        <div>
          <dt>Time left</dt>
          <dd className="num">{view.busy && !uploadsDone ? formatEta(totals.etaSeconds) : '—'}</dd>
        </div>
      </dl>
    </div>
  );
};
