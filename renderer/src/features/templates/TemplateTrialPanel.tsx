import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type MouseEvent } from 'react';
import type { SelectedFile } from '../../../../shared/ipc/models';
import type { TemplateTrial } from '../../../../shared/ipc/template-models';
import { unwrap, type BridgeError } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { formatBytes, formatCount, formatDuration, formatPlayTime } from '../../lib/format';
import { formatRoute } from '../../lib/route-url';
import { useNavigation } from '../../state/navigation-store';
import { pickedFromInput } from '../upload/dropped-items';

/** A try runs a few sample files, not a batch: the service side keeps the same cap. */
const MAX_TRIAL_FILES = 100;

type StepSide = NonNullable<TemplateTrial['steps'][number]['remote']>;
type RunSide = TemplateTrial['remote'];

/** One run's figures for a step, as one line: "3 files · 1.2 MB · 1280×720 · 0:07". Pure. */
export function describeStepSide(side: StepSide | null, run: RunSide): string {
  if (!side) return run.ended ? 'No results' : 'Waiting…';
  const parts = [formatCount(side.results, 'file'), formatBytes(side.bytes)];
  if (side.dimensions.length > 0) parts.push(side.dimensions.join(', '));
  if (side.mediaSeconds !== null) parts.push(formatPlayTime(side.mediaSeconds));
  return parts.join(' · ');
}

const runLabel = (run: RunSide): string => {
  if (run.error) return `Failed: ${run.error.code}`;
  if (!run.ended) return run.state === 'CREATING' ? 'Sending files…' : 'Running…';
  return run.executionSeconds !== null ? `Completed in ${formatDuration(run.executionSeconds)}` : 'Completed';
};

/**
 * "Try this Template here first", for a Template of a remote workspace: pick a few files; core copies the
 * Template to the Local workspace (saying what it swapped), runs the files on both, and this panel shows
 * the two runs side by side per step until both end.
 */
export const TemplateTrialPanel = ({ templateId, workspaceId, workspaceName }: { templateId: string; workspaceId: string; workspaceName: string }) => {
  const bridge = useBridge();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<SelectedFile[]>([]);
  const [trialId, setTrialId] = useState<string | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);

  const choose = useMutation<SelectedFile[], BridgeError | Error, File[]>({
    mutationFn: async (files) => {
      const roots = unwrap(await bridge.handlesForFiles(pickedFromInput(files)));
      if (roots.length === 0) return [];
      return unwrap(await bridge.invoke('files:scan', { handles: roots.map((r) => r.handle) })).files;
    },
    onSuccess: (files) => {
      setPickError(files.length > MAX_TRIAL_FILES ? `A try runs up to ${MAX_TRIAL_FILES} files; pick fewer (${files.length} picked).` : null);
      setChosen(files);
    },
  });
  const start = useMutation<TemplateTrial, BridgeError, SelectedFile[]>({
    mutationFn: async (files) => unwrap(await bridge.invoke('templates:tryHere', { workspaceId, id: templateId, files })),
    onSuccess: (trial) => setTrialId(trial.id),
  });
  // The newest try of this Template, also one made before the app restarted: shown until another starts.
  const last = useBridgeQuery('templates:lastTrial', { workspaceId, id: templateId });
  const currentId = trialId ?? last.data?.id ?? null;
  const trial = useBridgeQuery('templates:trial', { trialId: currentId ?? '' }, { enabled: currentId !== null, refetchInterval: (q) => (q.state.data?.ended ? false : 1000) });
  const shown = trial.data ?? start.data ?? last.data ?? null;
  const canStart = chosen.length > 0 && chosen.length <= MAX_TRIAL_FILES && !start.isPending && !choose.isPending;

  return (
    <section className="template-trial" aria-label="Try this Template here first" data-testid="template-trial">
      <h3 className="section-title">Try this Template here first</h3>
      <p className="small muted">
        Runs the same files on {workspaceName} and on this computer, with a copy of this Template in the Local workspace, so you see what it does before the account pays for it.
      </p>
      <div className="template-trial-pick">
        <input
          ref={input}
          className="visually-hidden"
          type="file"
          multiple
          aria-label="Files to try"
          tabIndex={-1}
          onChange={(e) => {
            const files = Array.from(e.currentTarget.files ?? []);
            e.currentTarget.value = '';
            if (files.length > 0) choose.mutate(files);
          }}
        />
        <Button size="sm" onClick={() => input.current?.click()} disabled={choose.isPending || start.isPending}>
          Choose files…
        </Button>
        <span className="small" data-testid="trial-chosen">
          {choose.isPending ? 'Reading the picked files…' : chosen.length > 0 ? `${formatCount(chosen.length, 'file')} chosen` : 'No files chosen'}
        </span>
        <Button size="sm" variant="primary" disabled={!canStart} onClick={() => start.mutate(chosen)}>
          Run on both
        </Button>
      </div>
      {pickError && (
        <p className="field-error" role="alert">
          {pickError}
        </p>
      )}
      {choose.error && <ErrorPanel title="Could not read the picked files" code={'code' in choose.error ? String(choose.error.code) : 'PICK_FAILED'} message={choose.error.message} />}
      {start.error && <ErrorPanel title="Could not start the try" code={start.error.code} message={start.error.message} httpCode={start.error.httpCode} />}
      {start.isPending && <Spinner size={16} label="Copying the Template and sending the files" />}
      {shown && <TrialResults trial={shown} workspaceName={workspaceName} />}
    </section>
  );
};

const TrialResults = ({ trial, workspaceName }: { trial: TemplateTrial; workspaceName: string }) => (
  <div className="template-trial-results" data-testid="trial-results" data-ended={trial.ended ? 'true' : 'false'}>
    {trial.changes.length === 0 ? (
      <p className="small" data-testid="trial-changes">
        The copy on this computer runs the Template unchanged.
      </p>
    ) : (
      <div data-testid="trial-changes">
        <p className="small">Changed in the copy on this computer:</p>
        <ul className="template-trial-changes small">
          {trial.changes.map((c, i) => (
            <li key={i} data-testid="trial-change">
              <strong>{c.step ?? c.from}</strong>
              {c.kind === 'swapped' && (
                <>
                  {' '}
                  <span className="mono">{c.from}</span> → <span className="mono">{c.to}</span>
                </>
              )}
              {c.kind === 'removed' && ' removed'}
              {c.kind === 'kept-needs-credentials' && ' kept'}: {c.reason}
            </li>
          ))}
        </ul>
      </div>
    )}
    <table className="template-trial-table">
      <caption className="visually-hidden">Results per step on {workspaceName} and on this computer</caption>
      <thead>
        <tr>
          <th scope="col">Step</th>
          <th scope="col">
            {workspaceName}
            <div className="small muted" data-testid="trial-remote-state">
              {runLabel(trial.remote)}
            </div>
            <RunLink run={trial.remote} where={workspaceName} />
          </th>
          <th scope="col">
            This computer
            <div className="small muted" data-testid="trial-local-state">
              {runLabel(trial.local)}
            </div>
            <RunLink run={trial.local} where="this computer" />
          </th>
        </tr>
      </thead>
      <tbody>
        {trial.steps.map((row) => {
          const differs = row.remote !== null && row.local !== null && (row.remote.results !== row.local.results || row.remote.dimensions.join() !== row.local.dimensions.join());
          return (
            <tr key={row.step} data-testid="trial-step" data-step={row.step}>
              <th scope="row">
                <span className="mono">{row.step}</span>
                <div className="small muted mono">{row.remoteRobot === row.localRobot ? row.remoteRobot : `${row.remoteRobot ?? '—'} → ${row.localRobot ?? '—'}`}</div>
                {differs && <Badge tone="warning">differs</Badge>}
              </th>
              <StepCell side={row.remote} run={trial.remote} testId="trial-remote" />
              <StepCell side={row.local} run={trial.local} testId="trial-local" />
            </tr>
          );
        })}
      </tbody>
    </table>
    {trial.remote.error && <ErrorPanel title={`The run on ${workspaceName} failed`} code={trial.remote.error.code} message={trial.remote.error.message} />}
    {trial.local.error && <ErrorPanel title="The run on this computer failed" code={trial.local.error.code} message={trial.local.error.message} />}
  </div>
);

/**
 * A real link to one side's Assembly view (through its run, so it works before the Assembly exists). The view
 * reads the Assembly from the active workspace, so the link makes the run's workspace active first.
 */
const RunLink = ({ run, where }: { run: RunSide; where: string }) => {
  const client = useQueryClient();
  const navigate = useNavigation((s) => s.navigate);
  const route = { name: 'run', runId: run.runId } as const;
  const activate = useBridgeMutation('workspaces:activate', {
    onSuccess: () => {
      void client.invalidateQueries();
      navigate(route);
    },
  });
  return (
    <a
      className="small"
      href={formatRoute(route)}
      aria-label={`Open the Assembly on ${where}`}
      data-testid="trial-run-link"
      onClick={(e: MouseEvent) => {
        e.preventDefault();
        activate.mutate({ id: run.workspaceId });
      }}
    >
      Open Assembly
    </a>
  );
};

const StepCell = ({ side, run, testId }: { side: StepSide | null; run: RunSide; testId: string }) => (
  <td data-testid={testId}>
    {describeStepSide(side, run)}
    {side?.error && (
      <div className="field-error small" data-testid={`${testId}-error`}>
        {side.error}
      </div>
    )}
  </td>
);
