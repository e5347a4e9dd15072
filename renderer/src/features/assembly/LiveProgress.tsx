import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import type { AssemblyUpdate } from '../../../../shared/ipc/assembly-models';
import type { Run } from '../../../../shared/ipc/models';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatDuration, formatEta, formatPercent, formatSpeed, percentOf } from '../../lib/format';
import { uploadsDone } from '../../lib/run-state';
import { endOf } from './assembly-files';
import { followNote, liveLine, type HeldFollow } from './live-line';

interface Props {
  readonly status: AssemblyStatus | null;
  /** Seconds it took in all, once it ended. */
  readonly duration: number | null;
  readonly resultCount: number;
  /** This app's run: its upload totals while it sends. */
  readonly run: Run | null;
  readonly progress: AssemblyUpdate['progress'];
  /** How core follows it (a rate-limit wait, a dropped or silent update stream). */
  readonly follow?: HeldFollow | null;
  readonly now: number;
}

/** A wait or a fallback said beside the line, in the warning tone: the Assembly is fine, only slower to hear from. */
const FollowNote = ({ text }: { readonly text: string | null }) =>
  text === null ? null : (
    <span className="asm-live-note tone-warning" data-testid="follow-note" role="status">
      {text}
    </span>
  );

/**
 * What the Assembly is doing now, in one fixed-height block: this app's upload (bytes, files, speed, time
 * left) while it sends; then the service's execution progress when it reports it; where a deployment
 * reports none, a moving bar with what is known — how long it has run and the results so far — never a
 * grey bar that says nothing.
 */
export const LiveProgress = ({ status, run, progress, follow = null, now, duration, resultCount }: Props) => {
  const totals = run?.totals ?? null;
  const sending = run !== null && totals !== null && run.state !== 'CREATING' && !uploadsDone(totals) && (totals.bytesTotal > 0 || totals.filesTotal > 0);
  const line = liveLine(status, progress, now);
  const note = line || sending ? followNote(follow, now) : null;
  if (sending && totals) {
    const bytes = `${formatBytes(totals.bytesUploaded)} of ${formatBytes(totals.bytesTotal)}`;
    return (
      <div className="asm-live" data-testid="execution-progress" data-phase="uploading">
        <div className="asm-live-top">
          <span className="asm-live-percent num">{formatPercent(totals.bytesUploaded, totals.bytesTotal)}</span>
          <span className="asm-live-text" data-testid="live-line">
            Uploading · {bytes} · {totals.filesUploaded.toLocaleString('en-US')} of {totals.filesTotal.toLocaleString('en-US')} files · {formatSpeed(totals.speedBps)} · {formatEta(totals.etaSeconds)}
          </span>
          <FollowNote text={note} />
        </div>
        <ProgressBar value={percentOf(totals.bytesUploaded, totals.bytesTotal)} label="Upload progress" valueText={`${formatPercent(totals.bytesUploaded, totals.bytesTotal)}, ${bytes}`} />
      </div>
    );
  }
  if (!line) {
    // Ended: the same block says how it ended, so nothing below it jumps when the Assembly completes.
    if (!status) return null;
    const end = endOf(status);
    const tone = end === 'completed' ? 'success' : end === 'failed' ? 'danger' : 'neutral';
    const word = end === 'completed' ? 'Completed' : end === 'failed' ? 'Failed' : end === 'canceled' ? 'Canceled' : 'Ended';
    const text = [duration === null ? word : `${word} in ${formatDuration(duration)}`, `${resultCount.toLocaleString('en-US')} result${resultCount === 1 ? '' : 's'}`].join(' · ');
    return (
      <div className="asm-live" data-testid="execution-progress" data-phase="ended">
        <div className="asm-live-top">
          <span className={`asm-live-percent tone-${tone}`}>{word}</span>
          <span className="asm-live-text" data-testid="live-line">
            {text}
          </span>
        </div>
        <div className={`progress progress-${tone}`} aria-hidden="true">
          <div className="progress-fill" style={{ transform: 'scaleX(1)' }} />
        </div>
      </div>
    );
  }
  return (
    <div className="asm-live" data-testid="execution-progress" data-phase={line.phase}>
      <div className="asm-live-top">
        <span className="asm-live-percent num">{line.percent === null ? (line.elapsed === null ? '' : formatDuration(line.elapsed)) : `${line.percent} %`}</span>
        <span className="asm-live-text" data-testid="live-line">
          {line.text}
        </span>
        <FollowNote text={note} />
      </div>
      <ProgressBar value={line.percent} label="Processing progress" valueText={line.percent === null ? line.text : `${line.percent} % processed`} />
    </div>
  );
};
