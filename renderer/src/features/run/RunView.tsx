import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Run } from '../../../../shared/ipc/models';
import type { StepProgress } from '../../../../shared/ipc/assembly-models';
import { useBridge } from '../../bridge/BridgeProvider';
import { storeRun } from '../../bridge/run-events';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { IconButton } from '../../components/IconButton';
import { CopyIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { formatDateTime, formatDuration } from '../../lib/format';
import { describeRunState, isStoreOnly, runErrorOf, type RunFailure } from '../../lib/run-state';
import { VirtualGrid } from '../../components/VirtualGrid';
import { useTransfers } from '../transfers/transfer-store';
import { useNavigation } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import { CancelAssemblyDialog } from '../assembly/CancelAssemblyDialog';
import { StepProgressList } from '../assembly/StepProgressList';
import { BatchProgress } from './BatchProgress';
import { ResultCard } from './ResultCard';
import { ResultsActions } from '../results/ResultsActions';
import { RunFiles } from './RunFiles';
import { RunUploads } from './RunUploads';
import { useNow } from '../../hooks/use-now';
import './run.css';

/** Seconds the run took (service durations once known) or has taken so far. */
export const runDurationSeconds = (run: Run, busy: boolean, now: number): number | null => {
  const status = run.status;
  if (!busy && status && (status.execution_duration !== undefined || status.upload_duration !== undefined)) {
    return (status.upload_duration ?? 0) + (status.execution_duration ?? 0);
  }
  const started = Date.parse(run.createdAt);
  return busy && !Number.isNaN(started) ? Math.max(0, (now - started) / 1000) : null;
};

/** What canceling does to the files: the ones up are kept with the Assembly, the others are not sent. */
export const uploadsOnCancel = ({ filesUploaded: up, filesTotal: total }: Run['totals']): string => {
  const n = (count: number) => count.toLocaleString('en-US');
  if (total === 0) return 'No file is on its way yet.';
  if (up === 0) return total === 1 ? 'The file is not uploaded completely yet; nothing more of it is sent.' : `None of the ${n(total)} files is uploaded completely yet; nothing more is sent.`;
  if (up >= total) return `All ${n(total)} files are uploaded and stay with the Assembly on the service.`;
  return `The ${n(up)} of ${n(total)} files already uploaded stay with the Assembly on the service; the other ${n(total - up)} are not sent.`;
};

/** Where and why a run failed, as the error panel lists them. */
const failureFacts = (error: RunFailure) => [
  ...(error.step ? [{ label: 'Step', value: error.step, code: true }] : []),
  ...(error.parameter ? [{ label: 'Parameter', value: error.parameter, code: true }] : []),
  ...(error.reason ? [{ label: 'Reason', value: error.reason }] : []),
];

/**
 * The run's execution progress (0–100, and per step when the service sends it) from `assembly:updated`:
 * core's run watcher forwards `assembly_execution_progress` when the Assembly asked for it
 * (`emit_execution_progress`); null otherwise.
 */
const useExecutionProgress = (assemblyId: string | null, busy: boolean): { combined: number; perStep: StepProgress[] | null } | null => {
  const bridge = useBridge();
  const [progress, setProgress] = useState<{ assemblyId: string; combined: number; perStep: StepProgress[] | null } | null>(null);
  useEffect(() => {
    if (!assemblyId || !busy) return;
    return bridge.on('assembly:updated', (update) => {
      if (update.assemblyId === assemblyId && update.progress) setProgress({ assemblyId, combined: update.progress.combined, perStep: update.progress.perStep });
    });
  }, [bridge, assemblyId, busy]);
  return busy && progress && progress.assemblyId === assemblyId ? progress : null;
};

/** A line of result cards: the card's fixed height plus the gap. */
const RESULT_ROW_HEIGHT = 128;

export const RunView = ({ runId }: { runId: string }) => {
  const client = useQueryClient();
  const navigate = useNavigation((s) => s.navigate);
  const toast = useToasts((s) => s.show);
  // Events keep this fresh; a short staleTime avoids a refetch racing newer progress on mount.
  const query = useBridgeQuery('runs:get', { runId }, { staleTime: 2_000 });
  const run = query.data;
  const view = run ? describeRunState(run) : null;
  // Events keep the run live; a slow poll covers an event lost while the window slept.
  useBridgeQuery('runs:get', { runId }, { refetchInterval: view?.busy ? 5_000 : false, enabled: Boolean(view?.busy) });
  const cancel = useBridgeMutation('runs:cancel', { onSuccess: (r) => storeRun(client, r) });
  // Canceling ends the Assembly for good: the user confirms first (Cancel has focus in the dialog).
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const now = useNow(Boolean(view?.busy));
  const execution = useExecutionProgress(run?.assemblyId ?? null, Boolean(view?.busy));
  const processed = execution?.combined ?? null;
  // Runs the transfer engine created keep their files in Transfers, in the batch that follows this run.
  const batchId = useTransfers((s) => {
    for (const b of s.batches.values()) if (b.runId === runId) return b.id;
    return null;
  });

  if (query.isPending) {
    return (
      <div className="center-pane">
        <Spinner size={24} label="Loading the Assembly" />
      </div>
    );
  }
  if (query.isError || !run || !view) {
    return (
      <div className="run-view">
        <ErrorPanel title="Could not load this Assembly" code={query.error?.code ?? 'NOT_FOUND'} message={query.error?.message ?? 'The run was not found.'} action={<Button onClick={() => navigate({ name: 'activity' })}>Back to Activity</Button>} />
      </div>
    );
  }

  const error = runErrorOf(run);
  const duration = runDurationSeconds(run, view.busy, now);
  const results = Object.entries(run.status?.results ?? {}).filter(([, files]) => files.length > 0);
  const completed = view.label === 'Completed';
  const warnings = run.status?.warnings ?? [];
  // Warnings about one file are said at the file (RunUploads); the banner counts them, so 500 skipped files
  // are one line here, not 500.
  const generalWarnings = warnings.filter((w) => typeof (w as { original_id?: unknown }).original_id !== 'string');
  const fileWarnings = new Set(warnings.map((w) => (w as { original_id?: unknown }).original_id).filter((id) => typeof id === 'string')).size;
  const storeOnly = isStoreOnly(run.status);
  const serviceSeconds = run.status?.execution_duration;

  const copyId = async () => {
    if (!run.assemblyId) return;
    try {
      await navigator.clipboard.writeText(run.assemblyId);
      toast('Copied Assembly ID', 'success');
    } catch (e) {
      toast(`Could not copy: ${e instanceof Error ? e.message : String(e)}`, 'danger');
    }
  };

  return (
    <div className="run-view">
      <div className="run-head">
        <div className="run-title">
          <h1 className="page-title">Assembly</h1>
          <Badge tone={view.tone} data-testid="run-state" title={run.state}>
            {cancel.isPending ? 'Canceling…' : view.label}
          </Badge>
        </div>
        <div className="run-head-actions">
          {view.busy && (
            <Button variant="danger" onClick={() => setConfirmingCancel(true)} busy={cancel.isPending} disabled={cancel.isPending}>
              {cancel.isPending ? 'Canceling…' : 'Cancel Assembly…'}
            </Button>
          )}
          {!view.busy && run.assemblyId && run.status && (
            <ResultsActions scope={{ kind: 'run', runId }} what={`The results of this Assembly (${results.reduce((n, [, files]) => n + files.length, 0).toLocaleString('en-US')} files)`} />
          )}
          {!view.busy && (
            <Button variant="primary" onClick={() => navigate({ name: 'upload' })}>
              New upload
            </Button>
          )}
        </div>
      </div>

      <dl className="run-facts">
        <div>
          <dt>Assembly ID</dt>
          <dd className="mono id-cell">
            {run.assemblyId ?? <span className="muted">{view.busy ? 'Not assigned yet' : 'None: the service did not create it'}</span>}
            {run.assemblyId && (
              <IconButton label="Copy Assembly ID" onClick={() => void copyId()}>
                <CopyIcon />
              </IconButton>
            )}
            {/* The Assembly's own view lists every upload and result with its file details. */}
            {run.assemblyId && !view.busy && (
              <button type="button" className="link-btn" data-testid="open-assembly-detail" onClick={() => navigate({ name: 'assembly', assemblyId: run.assemblyId! })}>
                File details
              </button>
            )}
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatDateTime(run.createdAt)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd className="num">{duration === null ? '—' : formatDuration(duration)}</dd>
        </div>
        {serviceSeconds !== undefined && (
          <div>
            <dt>{storeOnly ? 'Storing on the service' : 'Processing on the service'}</dt>
            <dd className="num" data-testid="service-time">
              {formatDuration(serviceSeconds)}
            </dd>
          </div>
        )}
      </dl>

      <CancelAssemblyDialog
        open={confirmingCancel && view.busy}
        uploads={uploadsOnCancel(run.totals)}
        onCancel={() => setConfirmingCancel(false)}
        onConfirm={() => {
          setConfirmingCancel(false);
          cancel.mutate({ runId });
        }}
      />

      {cancel.error && <ErrorPanel title="Could not cancel" code={cancel.error.code} message={cancel.error.message} httpCode={cancel.error.httpCode} />}
      {error && (
        <ErrorPanel
          data-testid="run-error"
          title={error.step ? `The Assembly failed at the step "${error.step}"` : 'The Assembly failed'}
          code={error.code}
          message={error.message}
          httpCode={error.httpCode}
          facts={failureFacts(error)}
        />
      )}

      {(generalWarnings.length > 0 || fileWarnings > 0) && (
        <div className="banner banner-warning run-warnings" role="note" aria-label="Service warnings">
          <ul>
            {generalWarnings.map((w, i) => (
              <li key={i}>
                <strong>{w.level === 'warning' ? 'Warning' : 'Note'}:</strong> {w.msg}
              </li>
            ))}
            {fileWarnings > 0 && (
              <li data-testid="file-warnings-summary">
                <strong>Note:</strong> {fileWarnings === 1 ? '1 file was' : `${fileWarnings.toLocaleString('en-US')} files were`} skipped by a step;
                each says why under Files below.
              </li>
            )}
          </ul>
        </div>
      )}

      <BatchProgress totals={run.totals} view={view} state={run.state} storeOnly={storeOnly} executionStart={run.status?.execution_start ?? null} now={now} processed={processed} />
      {/* Per step only while the service reports it (the Assembly detail also derives steps without it). */}
      {run.status && execution?.perStep && <StepProgressList status={run.status} perStep={execution.perStep} />}

      {completed && (
        <section className="results" aria-labelledby="results-title">
          <h2 id="results-title" className="section-title">
            Results
          </h2>
          {results.length === 0 ? (
            <EmptyState title="No result files">The steps finished without marking any step as a result.</EmptyState>
          ) : (
            results.map(([step, files]) => (
              <div key={step} className="result-group">
                <h3 className="group-title">
                  <code>{step}</code> <span className="muted">· {files.length}</span>
                </h3>
                <VirtualGrid
                  className="result-grid"
                  label={`Results of ${step}`}
                  count={files.length}
                  rowHeight={RESULT_ROW_HEIGHT}
                  minColumnWidth={380}
                  maxVisibleRows={4}
                  renderItem={(i) => {
                    const file = files[i];
                    return file ? <ResultCard key={file.id ?? `${step}-${i}`} runId={runId} file={file} /> : null;
                  }}
                />
              </div>
            ))
          )}
        </section>
      )}

      <section className="run-files-section" aria-labelledby="run-files-title">
        <h2 id="run-files-title" className="section-title">
          Files <span className="muted num">· {(run.files.length > 0 ? run.files.length : (run.status?.uploads?.length ?? 0)).toLocaleString('en-US')}</span>
        </h2>
        {!view.busy && <RunUploads status={run.status} end={completed ? 'completed' : view.failed ? 'failed' : view.label === 'Canceled' ? 'canceled' : 'other'} />}
        {run.files.length > 0 ? (
          <RunFiles files={run.files} finished={!view.busy} />
        ) : (
          <p className="muted" data-testid="files-in-transfers">
            Files of this Assembly are in Transfers.{' '}
            <button type="button" className="link-btn" onClick={() => navigate(batchId ? { name: 'transfers', batchId } : { name: 'transfers' })}>
              {batchId ? 'Show its files in Transfers' : 'Open Transfers'}
            </button>
          </p>
        )}
      </section>
    </div>
  );
};
