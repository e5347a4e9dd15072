import type { RunTotals } from '../../../../shared/ipc/models';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatDuration, formatEta, formatPercent, formatSpeed, percentOf } from '../../lib/format';
import { uploadsDone as allUploaded, type StateView } from '../../lib/run-state';

export interface BatchProgressProps {
  readonly totals: RunTotals;
  readonly view: StateView;
  readonly state: string;
  /** The steps only store the files: the time on the service is storing, and said so. */
  readonly storeOnly?: boolean;
  readonly executionStart?: string | null;
  readonly now?: number;
  /**
   * The service's execution progress (0–100, `assembly_execution_progress`), when the Assembly asked for
   * it with `emit_execution_progress`; null leaves the bar indeterminate while processing.
   */
  readonly processed?: number | null;
}

/** The batch's upload progress: every figure has a fixed slot and tabular digits, so nothing jumps. */
export const BatchProgress = ({ totals, view, state, storeOnly = false, executionStart = null, now = Date.now(), processed = null }: BatchProgressProps) => {
  const uploadsDone = allUploaded(totals) || (totals.bytesTotal === 0 && totals.filesTotal === 0);
  const processing = view.busy && uploadsDone && state !== 'CREATING';
  const started = executionStart ? Date.parse(executionStart.replace(' ', 'T')) : Number.NaN;
  const onService = processing && !Number.isNaN(started) ? ` · ${formatDuration(Math.max(0, (now - started) / 1000))}` : '';
  const processedPercent = processing && processed !== null ? Math.round(Math.min(100, Math.max(0, processed))) : null;
  const phase = processedPercent !== null
    ? `${storeOnly ? 'Storing' : 'Processing'} ${String(processedPercent)} % on the service${onService}`
    : processing
    ? storeOnly
      ? `Uploaded · the service is storing the files${onService}`
      : `Uploaded · processing on the service${onService}`
    : view.busy
      ? 'Uploading'
      : uploadsDone
        ? 'Upload finished'
        : 'Upload stopped';
  const tone = view.failed ? 'danger' : view.label === 'Completed' ? 'success' : view.busy ? 'info' : 'neutral';
  const uploadPercent = formatPercent(totals.bytesUploaded, totals.bytesTotal);
  // While processing with known progress the big figure and the bar follow the service, not the bytes.
  const percent = processedPercent !== null ? `${String(processedPercent)}%` : uploadPercent;
  const bytes = `${formatBytes(totals.bytesUploaded)} of ${formatBytes(totals.bytesTotal)}`;
  return (
    <div className="batch" data-testid="batch-progress">
      <div className="batch-top">
        <span className="batch-percent num">{percent}</span>
        <span className="batch-phase muted" data-testid="batch-phase">
          {phase}
        </span>
      </div>
      {processedPercent !== null ? (
        <ProgressBar value={processedPercent} label="Processing progress" valueText={`${String(processedPercent)} % processed`} tone={tone} />
      ) : (
        <ProgressBar value={processing ? null : percentOf(totals.bytesUploaded, totals.bytesTotal)} label="Upload progress" valueText={`${uploadPercent}, ${bytes}`} tone={tone} />
      )}
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
