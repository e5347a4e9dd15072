import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import type { AssemblyUpdate } from '../../../../shared/ipc/assembly-models';
import type { Run } from '../../../../shared/ipc/models';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatDuration, formatEta, formatPercent, formatSpeed, percentOf } from '../../lib/format';
import { uploadsDone } from '../../lib/run-state';
import { liveLine } from './live-line';

interface Props {
  readonly status: AssemblyStatus | null;
  /** This app's run: its upload totals while it sends. */
  readonly run: Run | null;
  readonly progress: AssemblyUpdate['progress'];
  readonly now: number;
}

/**
 * What the Assembly is doing now, in one fixed-height block: this app's upload (bytes, files, speed, time
 * left) while it sends; then the service's execution progress when it reports it; where a deployment
 * reports none, a moving bar with what is known — how long it has run and the results so far — never a
 * grey bar that says nothing.
 */
export const LiveProgress = ({ status, run, progress, now }: Props) => {
  const totals = run?.totals ?? null;
  const sending = run !== null && totals !== null && run.state !== 'CREATING' && !uploadsDone(totals) && (totals.bytesTotal > 0 || totals.filesTotal > 0);
  const line = liveLine(status, progress, now);
  if (sending && totals) {
    const bytes = `${formatBytes(totals.bytesUploaded)} of ${formatBytes(totals.bytesTotal)}`;
    return (
      <div className="asm-live" data-testid="execution-progress" data-phase="uploading">
        <div className="asm-live-top">
          <span className="asm-live-percent num">{formatPercent(totals.bytesUploaded, totals.bytesTotal)}</span>
          <span className="asm-live-text" data-testid="live-line">
            Uploading · {bytes} · {totals.filesUploaded.toLocaleString('en-US')} of {totals.filesTotal.toLocaleString('en-US')} files · {formatSpeed(totals.speedBps)} · {formatEta(totals.etaSeconds)}
          </span>
        </div>
        <ProgressBar value={percentOf(totals.bytesUploaded, totals.bytesTotal)} label="Upload progress" valueText={`${formatPercent(totals.bytesUploaded, totals.bytesTotal)}, ${bytes}`} />
      </div>
    );
  }
  if (!line) return null;
  return (
    <div className="asm-live" data-testid="execution-progress" data-phase={line.phase}>
      <div className="asm-live-top">
        <span className="asm-live-percent num">{line.percent === null ? (line.elapsed === null ? '' : formatDuration(line.elapsed)) : `${line.percent} %`}</span>
        <span className="asm-live-text" data-testid="live-line">
          {line.text}
        </span>
      </div>
      <ProgressBar value={line.percent} label="Processing progress" valueText={line.percent === null ? line.text : `${line.percent} % processed`} />
    </div>
  );
};
