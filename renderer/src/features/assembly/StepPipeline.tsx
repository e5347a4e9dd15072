import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import type { StepProgress } from '../../../../shared/ipc/assembly-models';
import { ProgressBar } from '../../components/ProgressBar';
import { formatDuration } from '../../lib/format';
import { stepDuration, type StepTimes } from './step-timing';
import { stepRows, stepRowText, stepsOfStatus, useRefs as inputsOf, type StepRow } from './step-progress';

const TONE: Record<StepRow['state'], 'info' | 'success' | 'danger' | 'neutral'> = {
  waiting: 'neutral',
  executing: 'info',
  done: 'success',
  failed: 'danger',
  'not-run': 'neutral',
  unknown: 'neutral',
};

const STATE_WORD: Record<StepRow['state'], string> = {
  waiting: 'Waiting',
  executing: 'Running',
  done: 'Done',
  failed: 'Failed',
  'not-run': 'Did not run',
  unknown: 'Not reported',
};

interface Props {
  readonly status: AssemblyStatus;
  readonly perStep: readonly StepProgress[] | null;
  readonly stepTimes: ReadonlyMap<string, StepTimes>;
  readonly now: number;
}

/**
 * The steps as a pipeline, in the order they run: each with its robot, the steps it takes its files from,
 * its own bar and files done (the service's `progress_per_step`, else only what the status record tells —
 * never a made-up number), its results so far, how long it ran, and for the failed one the service's code
 * and message. Rows have a fixed height (the failure line is reserved for the failed step), so nothing jumps.
 */
export const StepPipeline = ({ status, perStep, stepTimes, now }: Props) => {
  const rows = stepRows(status, perStep);
  if (rows.length === 0) return null;
  const declared = stepsOfStatus(status);
  return (
    <section aria-labelledby="asm-steps-title">
      <h2 id="asm-steps-title" className="section-title">
        Steps <span className="muted num">· {rows.length}</span>
      </h2>
      <ol className="boxed-list asm-pipeline" aria-label="Steps">
        {rows.map((row) => {
          const inputs = inputsOf(declared[row.step]?.use);
          const duration = stepDuration(stepTimes.get(row.step), status.results?.[row.step], now);
          const failed = row.state === 'failed';
          return (
            <li key={row.step} className={`asm-stage asm-stage-${row.state}`} data-testid="step-progress" data-step={row.step} data-state={row.state}>
              <span className="asm-stage-name">
                <code>{row.step}</code>
                <span className="muted small mono">{row.robot ?? 'robot not named'}</span>
              </span>
              <span className="asm-stage-inputs muted small" title={inputs.length > 0 ? `Takes the files of ${inputs.join(', ')}` : undefined}>
                {inputs.length > 0 ? `from ${inputs.join(', ')}` : row.step === ':original' ? 'the uploads' : ''}
              </span>
              <span className="asm-stage-bar">
                {row.progress === null ? (
                  <div className={`progress progress-sm${row.state === 'unknown' && status.ok === 'ASSEMBLY_EXECUTING' ? ' progress-indeterminate progress-neutral' : ''}`} aria-hidden="true">
                    <div className="progress-fill" />
                  </div>
                ) : (
                  <ProgressBar size="sm" value={row.progress} tone={TONE[row.state]} label={`Progress of step ${row.step}`} valueText={stepRowText(row)} />
                )}
              </span>
              <span className={`asm-stage-text num small${failed ? ' danger-text' : row.state === 'executing' ? '' : ' muted'}`} data-testid="step-progress-text">
                {/* Its results have their own column. */}
                {stepRowText({ ...row, results: 0 })}
              </span>
              <span className="asm-stage-results num small muted" data-testid="step-results">
                {row.results > 0 ? `${row.results.toLocaleString('en-US')} result${row.results === 1 ? '' : 's'}` : ''}
              </span>
              <span className="asm-stage-time num small muted" data-testid="step-duration" title={duration?.kind === 'work' ? 'The time its jobs ran, from the result records' : 'As this view saw it run'}>
                {duration ? `${formatDuration(duration.seconds)}${duration.kind === 'work' ? ' of work' : ''}` : ''}
              </span>
              <span className="visually-hidden">{STATE_WORD[row.state]}</span>
              {failed && (
                <span className="asm-stage-error danger-text small" data-testid="step-error" title={status.message ?? undefined}>
                  <code>{status.error}</code> {typeof status.reason === 'string' && status.reason !== '' ? status.reason : (status.message ?? '')}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
};
