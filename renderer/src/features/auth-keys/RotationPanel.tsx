import { useQueryClient } from '@tanstack/react-query';
import type { Rotation, RotationStep } from '../../../../shared/ipc/workspace-models';
import { useBridgeMutation } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import './auth-keys.css';

export const STEP_LABEL: Record<RotationStep, string> = {
  'create-key': 'Create a new key with the same scopes',
  'store-secret': 'Store its secret in the system keychain',
  verify: 'Prove it works with a signed request',
  switch: 'Switch the workspace to the new key',
  'deactivate-old': 'Deactivate the old key',
  done: 'Finish',
};
const STEPS = Object.keys(STEP_LABEL) as RotationStep[];

const STATE = {
  running: { tone: 'info', label: 'Running' },
  interrupted: { tone: 'warning', label: 'Interrupted' },
  done: { tone: 'success', label: 'Rotated' },
  'rolled-back': { tone: 'neutral', label: 'Rolled back' },
  'failed-rollback': { tone: 'danger', label: 'Rollback stopped' },
} as const;

/** One rotation: its steps ticked off, what stopped it, and what the user can do next. */
export const RotationPanel = ({ rotation: r }: { rotation: Rotation }) => {
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries();
  const resume = useBridgeMutation('rotations:resume', { onSettled: refresh });
  const rollback = useBridgeMutation('rotations:rollback', { onSettled: refresh });
  const deleteOld = useBridgeMutation('rotations:deleteOldKey', { onSettled: refresh });
  const busy = resume.isPending || rollback.isPending || deleteOld.isPending || r.state === 'running';
  const error = resume.error ?? rollback.error ?? deleteOld.error;
  const open = r.state === 'interrupted' || r.state === 'failed-rollback';
  const nextStep = STEPS.find((s) => !r.completed.includes(s));
  return (
    <section className="rotation-panel card" aria-label={`Rotation of ${r.workspaceName}`} data-testid="rotation-panel" data-state={r.state}>
      <div className="rotation-head">
        <strong>
          Key rotation · {r.workspaceName}
        </strong>
        <Badge tone={STATE[r.state].tone}>{STATE[r.state].label}</Badge>
      </div>
      <p className="small muted mono">
        {r.oldKey} → {r.newKey ?? '…'}
      </p>
      <ol className="rotation-steps">
        {STEPS.map((s) => {
          const done = r.completed.includes(s) || r.state === 'done';
          const current = !done && s === nextStep && (r.state === 'running' || open);
          return (
            <li key={s} className={done ? 'step-done' : current ? 'step-current' : 'step-todo'} aria-current={current ? 'step' : undefined}>
              <span className="step-mark" aria-hidden="true">
                {done ? '✓' : current ? (r.state === 'running' ? '…' : '!') : '·'}
              </span>
              {STEP_LABEL[s]}
            </li>
          );
        })}
      </ol>
      {r.error && open && (
        <ErrorPanel
          title={r.state === 'failed-rollback' ? 'The rollback stopped' : `Stopped before "${nextStep ? STEP_LABEL[nextStep] : ''}"`}
          code={r.error.code}
          message={`${r.error.message} Nothing is half-done silently: resume to finish the rotation, or roll back to the old key.`}
        />
      )}
      {error && <ErrorPanel title="That did not work" code={error.code} message={error.message} httpCode={error.httpCode} />}
      <div className="template-actions">
        {r.state === 'interrupted' && (
          <Button variant="primary" busy={resume.isPending} disabled={busy} onClick={() => resume.mutate({ id: r.id })}>
            Resume
          </Button>
        )}
        {open && (
          <Button variant="danger" busy={rollback.isPending} disabled={busy} onClick={() => rollback.mutate({ id: r.id })}>
            Roll back
          </Button>
        )}
        {r.state === 'done' && !r.oldKeyDeleted && (
          <Button busy={deleteOld.isPending} disabled={busy} onClick={() => deleteOld.mutate({ id: r.id })}>
            Delete the old key {r.oldKey.slice(0, 8)}…
          </Button>
        )}
        {r.state === 'done' && r.oldKeyDeleted && <span className="small muted">The old key is deleted.</span>}
      </div>
      <details className="rotation-log">
        <summary>Log ({r.log.length})</summary>
        <ul>
          {r.log.map((l, i) => (
            <li key={i}>
              <time className="muted small">{new Date(l.at).toLocaleString()}</time> {l.message}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
};
