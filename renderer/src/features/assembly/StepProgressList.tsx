import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import type { StepProgress } from '../../../../shared/ipc/assembly-models';
import { ProgressBar } from '../../components/ProgressBar';
import { stepRows, stepRowText, type StepRow } from './step-progress';

const TONE: Record<StepRow['state'], 'info' | 'success' | 'danger' | 'neutral'> = {
  waiting: 'neutral',
  executing: 'info',
  done: 'success',
  failed: 'danger',
  'not-run': 'neutral',
  unknown: 'neutral',
};

/**
 * Each step of the Assembly with its own bar: done, the running one moving, the waiting ones — from the
 * service's `progress_per_step` when it sends it, else only what the status record tells (no invented
 * numbers: an unknown step gets an empty track, not a bar value). Shared by the detail and the run view.
 */
export const StepProgressList = ({ status, perStep }: { status: AssemblyStatus; perStep: readonly StepProgress[] | null }) => {
  const rows = stepRows(status, perStep);
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="asm-steps-title">
      <h2 id="asm-steps-title" className="section-title">
        Steps <span className="muted num">· {rows.length}</span>
      </h2>
      <ol className="asm-step-list" aria-label="Steps">
        {rows.map((row) => (
          <li key={row.step} className="asm-step" data-testid="step-progress" data-step={row.step} data-state={row.state}>
            <span className="asm-step-name">
              <code>{row.step}</code>
              {row.robot && <span className="muted small mono">{row.robot}</span>}
            </span>
            {row.progress === null ? (
              <div className="progress progress-sm" aria-hidden="true" />
            ) : (
              <ProgressBar size="sm" value={row.progress} tone={TONE[row.state]} label={`Progress of step ${row.step}`} valueText={stepRowText(row)} />
            )}
            <span className={`num small${row.state === 'failed' ? ' danger-text' : row.state === 'executing' ? '' : ' muted'}`} data-testid="step-progress-text">
              {stepRowText(row)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
};
