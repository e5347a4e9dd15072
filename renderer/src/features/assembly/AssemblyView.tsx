import { useQueryClient } from '@tanstack/react-query';
import '../../styles/assemblies.css';
import { useState } from 'react';
import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import type { AssemblyDetail } from '../../../../shared/ipc/assembly-models';
import { bridgeKey, useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { DateTime } from '../../components/DateTime';
import { ErrorPanel } from '../../components/ErrorPanel';
import { IconButton } from '../../components/IconButton';
import { CopyIcon, RetryIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { useNow } from '../../hooks/use-now';
import { formatDuration } from '../../lib/format';
import { describeRunState, runErrorOf, type RunFailure } from '../../lib/run-state';
import { useNavigation } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import { ResultsActions } from '../results/ResultsActions';
import { useTransfers } from '../transfers/transfer-store';
import { paramFacts } from './assembly-params';
import type { LocalFile } from './assembly-files';
import { AssemblyFileList } from './AssemblyFileList';
import { CancelAssemblyDialog } from './CancelAssemblyDialog';
import { LiveProgress } from './LiveProgress';
import { NotificationAttempts } from './NotificationAttempts';
import { ReplayPanel } from './ReplayPanel';
import { ResultsByStep } from './ResultsByStep';
import { stepOrder, stepsOfStatus } from './step-progress';
import { StepPipeline } from './StepPipeline';
import { useAssemblyLive } from './use-assembly-live';
import './assembly.css';

export const stateOf = (status: AssemblyStatus) =>
  describeRunState({ state: status.error ?? status.ok ?? 'UNKNOWN', error: status.error ? { code: status.error, message: status.message ?? '' } : null, status: null });

const copyText = async (text: string, what: string, toast: (m: string, tone?: 'success' | 'danger' | 'info') => void) => {
  try {
    await navigator.clipboard.writeText(text);
    toast(`${what} copied.`, 'success');
  } catch {
    toast(`Could not copy the ${what.toLowerCase()}: the clipboard is not available here.`, 'danger');
  }
};

/** What canceling does to the files: the ones up are kept with the Assembly, the others are not sent. */
export const uploadsOnCancel = (totals: { filesUploaded: number; filesTotal: number } | null): string => {
  if (!totals) return 'Files still on their way to it are refused, whoever sends them.';
  const { filesUploaded: up, filesTotal: total } = totals;
  const n = (count: number) => count.toLocaleString('en-US');
  if (total === 0) return 'No file is on its way yet.';
  if (up === 0) return total === 1 ? 'The file is not uploaded completely yet; nothing more of it is sent.' : `None of the ${n(total)} files is uploaded completely yet; nothing more is sent.`;
  if (up >= total) return `All ${n(total)} files are uploaded and stay with the Assembly on the service.`;
  return `The ${n(up)} of ${n(total)} files already uploaded stay with the Assembly on the service; the other ${n(total - up)} are not sent.`;
};

/** Where and why it failed, as the error panel lists them. */
const failureFacts = (error: RunFailure, status: AssemblyStatus | null) => {
  const file = typeof (status as { name?: unknown } | null)?.name === 'string' ? String((status as { name: string }).name) : null;
  return [
    ...(error.step ? [{ label: 'Step', value: error.step, code: true }] : []),
    ...(file ? [{ label: 'File', value: file }] : []),
    ...(error.parameter ? [{ label: 'Parameter', value: error.parameter, code: true }] : []),
    ...(error.reason ? [{ label: 'Reason', value: error.reason }] : []),
  ];
};

/** Seconds between two service dates, or from one until `now`. */
const secondsSince = (from: string | null | undefined, now: number): number | null => {
  if (!from) return null;
  const ms = Date.parse(from.includes('T') ? from : `${from.replace(/\//g, '-').replace(' GMT', '').replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? null : Math.max(0, (now - ms) / 1000);
};

/**
 * One Assembly, whoever started it (`#/assemblies/<id>`; `#/run/<id>` redirects here): state and timings,
 * fields and params, the steps as a pipeline, every file with what became of it, results per step as they
 * arrive, notifications and the webhook tester, the raw status record — live while it runs (see
 * use-assembly-live). Cancel while it runs; Replay, Save results and Export manifest once it ended.
 */
export const AssemblyView = ({ assemblyId }: { assemblyId: string }) => {
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const navigate = useNavigation((s) => s.navigate);
  const live = useAssemblyLive(assemblyId);
  const { detail, run, status, busy, progress, stepTimes } = live;
  const now = useNow(busy);
  const [replayOpen, setReplayOpen] = useState(false);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const cancel = useBridgeMutation('assemblies:cancel', {
    onSuccess: (next) => {
      client.setQueryData<AssemblyDetail>(bridgeKey('assemblies:get', { assemblyId }), (held) => (held ? { ...held, status: next } : held));
      void client.invalidateQueries({ queryKey: ['assemblies:list'] });
      if (run) void client.invalidateQueries({ queryKey: bridgeKey('runs:get', { runId: run.runId }) });
      if (next.ok !== 'ASSEMBLY_CANCELED') toast(`It had already ended (${stateOf(next).label.toLowerCase()}): nothing was canceled.`, 'info');
    },
  });
  // The files this app sends for it: a batch of Transfers (read a page of its rows), or the run's own.
  const batch = useTransfers((s) => {
    if (!run) return null;
    for (const b of s.batches.values()) if (b.runId === run.runId) return b;
    return null;
  });
  const sendingBatch = batch !== null && (batch.state === 'queued' || batch.state === 'creating' || batch.state === 'uploading' || batch.state === 'paused');
  const rows = useBridgeQuery('transfers:rows', { batchId: batch?.id ?? '', offset: 0, limit: 200 }, { enabled: batch !== null, refetchInterval: sendingBatch ? 1_000 : false });

  if (detail.isPending) {
    return (
      <div className="center-pane">
        <Spinner size={24} label="Loading the Assembly" />
      </div>
    );
  }
  if (detail.isError || !status) {
    return (
      <div className="asm-view">
        <ErrorPanel
          title="Could not load this Assembly"
          code={detail.error?.code ?? 'NOT_FOUND'}
          message={detail.error?.message ?? 'The service did not answer with its record.'}
          action={<Button onClick={() => navigate({ name: 'activity' })}>Back to Activity</Button>}
        />
      </div>
    );
  }

  const { replays } = detail.data!;
  // From the record (the run's state may lag it); this app's upload totals say when "Uploading" is over.
  const view = describeRunState({ state: status.error ?? status.ok ?? 'UNKNOWN', error: run?.error ?? null, status, ...(run ? { totals: run.totals } : {}) });
  const failure = runErrorOf(run ? { ...run, status } : { error: null, status, state: status.error ?? status.ok ?? 'UNKNOWN' });
  const fields = Object.entries(status.fields ?? {});
  const requestParams = paramFacts(status.params);
  const order = stepOrder(stepsOfStatus(status));
  const resultCount = Object.values(status.results ?? {}).reduce((n, files) => n + files.length, 0);
  const warnings = status.warnings ?? [];
  // Warnings about one file are said at the file; the banner counts them, so 500 skipped files are one line.
  const generalWarnings = warnings.filter((w) => typeof (w as { original_id?: unknown }).original_id !== 'string');
  const fileWarnings = new Set(warnings.map((w) => (w as { original_id?: unknown }).original_id).filter((id) => typeof id === 'string')).size;
  const local: LocalFile[] = batch
    ? (rows.data?.rows ?? []).map((r) => ({ id: r.id, relativePath: r.relativePath, size: r.size, bytesSent: r.bytesSent, state: r.state, error: r.error, note: r.note }))
    : (run?.files ?? []).map((f) => ({ id: f.fileId, relativePath: f.relativePath, size: f.size, bytesSent: f.bytesUploaded, state: f.state, error: f.error ?? null, note: null }));
  const localTotal = batch ? (rows.data?.total ?? batch.filesTotal) : local.length;
  const perFile = new Map((progress?.perFile ?? []).map((p) => [p.originalId, p.progress]));
  const started = status.start_date ?? run?.createdAt ?? null;
  const elapsed = busy ? secondsSince(started, now) : null;
  const total = !busy && (typeof status.upload_duration === 'number' || typeof status.execution_duration === 'number') ? (status.upload_duration ?? 0) + (status.execution_duration ?? 0) : elapsed;
  const executing = busy && status.ok === 'ASSEMBLY_EXECUTING' ? secondsSince(status.execution_start ?? null, now) : null;

  return (
    <div className="asm-view">
      <div className="run-head">
        <div className="run-title">
          <h1 className="page-title">Assembly</h1>
          <Badge tone={view.tone} data-testid="assembly-state" title={status.error ?? status.ok ?? undefined}>
            {cancel.isPending ? 'Canceling…' : view.label}
          </Badge>
          {run && (
            <span className="muted small" data-testid="started-here">
              Started by this app
            </span>
          )}
        </div>
        <div className="run-head-actions">
          {busy && (
            <Button variant="danger" onClick={() => setConfirmingCancel(true)} busy={cancel.isPending} disabled={cancel.isPending}>
              {cancel.isPending ? 'Canceling…' : 'Cancel Assembly…'}
            </Button>
          )}
          {!busy && <ResultsActions scope={run ? { kind: 'run', runId: run.runId } : { kind: 'assemblies', assemblyIds: [assemblyId.toLowerCase()] }} what={`The results of this Assembly (${resultCount.toLocaleString('en-US')} files)`} />}
          <Button variant="primary" icon={<RetryIcon />} disabled={busy} title={busy ? 'It can be replayed once it has ended.' : undefined} aria-expanded={replayOpen} onClick={() => setReplayOpen((v) => !v)}>
            Replay…
          </Button>
        </div>
      </div>

      <dl className="run-facts" data-testid="assembly-facts">
        <div>
          <dt>Assembly ID</dt>
          <dd className="mono id-cell">
            {status.assembly_id ?? assemblyId}
            <IconButton label="Copy Assembly ID" onClick={() => void copyText(assemblyId, 'Assembly ID', toast)}>
              <CopyIcon />
            </IconButton>
          </dd>
        </div>
        {status.parent_id && (
          <div>
            <dt>Replay of</dt>
            <dd className="mono">
              <button type="button" className="link-btn" data-testid="parent-link" onClick={() => navigate({ name: 'assembly', assemblyId: status.parent_id! })}>
                {status.parent_id}
              </button>
            </dd>
          </div>
        )}
        {replays.length > 0 && (
          <div>
            <dt>Replays</dt>
            <dd className="mono asm-replays">
              {replays.map((id) => (
                <button key={id} type="button" className="link-btn" data-testid="replay-link" onClick={() => navigate({ name: 'assembly', assemblyId: id })}>
                  {id}
                </button>
              ))}
            </dd>
          </div>
        )}
        {status.template_id && (
          <div>
            <dt>Template</dt>
            <dd className="mono">{status.template_id}</dd>
          </div>
        )}
        <div>
          <dt>Started</dt>
          <dd>
            <DateTime value={started} data-testid="started-at" />
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd className="num" data-testid="duration">
            {total === null ? '—' : formatDuration(total)}
          </dd>
        </div>
        <div>
          <dt>Uploading</dt>
          <dd className="num">{typeof status.upload_duration === 'number' ? formatDuration(status.upload_duration) : busy && status.ok === 'ASSEMBLY_UPLOADING' ? 'now' : '—'}</dd>
        </div>
        <div>
          <dt>Processing</dt>
          <dd className="num" data-testid="execution-duration">
            {/* While it runs the record's figure is a snapshot: the time since execution began ticks instead. */}
            {executing !== null ? formatDuration(executing) : typeof status.execution_duration === 'number' ? formatDuration(status.execution_duration) : '—'}
          </dd>
        </div>
        {typeof status.notify_url === 'string' && (
          <div>
            <dt>Notify URL</dt>
            <dd className="mono asm-url">{status.notify_url}</dd>
          </div>
        )}
      </dl>

      <CancelAssemblyDialog
        open={confirmingCancel && busy}
        uploads={uploadsOnCancel(run ? run.totals : null)}
        onCancel={() => setConfirmingCancel(false)}
        onConfirm={() => {
          setConfirmingCancel(false);
          cancel.mutate({ assemblyId });
        }}
      />
      {cancel.error && <ErrorPanel title="Could not cancel" code={cancel.error.code} message={cancel.error.message} httpCode={cancel.error.httpCode} />}

      {replayOpen && !busy && (
        <ReplayPanel
          assemblyId={assemblyId}
          templateId={status.template_id ?? null}
          onDone={(newId) => {
            setReplayOpen(false);
            void client.invalidateQueries({ queryKey: ['assemblies:list'] });
            void client.invalidateQueries({ queryKey: bridgeKey('assemblies:get', { assemblyId }) });
            navigate({ name: 'assembly', assemblyId: newId });
          }}
          onCancel={() => setReplayOpen(false)}
        />
      )}

      {failure && (
        <ErrorPanel
          data-testid="assembly-error"
          title={failure.step ? `The Assembly failed at the step "${failure.step}"` : 'The Assembly failed'}
          code={failure.code}
          message={failure.message}
          httpCode={failure.httpCode}
          facts={failureFacts(failure, status)}
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
                <strong>Note:</strong> {fileWarnings === 1 ? '1 file was' : `${fileWarnings.toLocaleString('en-US')} files were`} skipped by a step; each says why under Files below.
              </li>
            )}
          </ul>
        </div>
      )}

      <LiveProgress status={status} run={run} progress={progress} follow={live.follow} now={now} duration={total} resultCount={resultCount} />
      <StepPipeline status={status} perStep={live.lastPerStep} stepTimes={stepTimes} now={now} />
      <ResultsByStep assemblyId={assemblyId} results={status.results ?? {}} order={order} busy={busy} />

      <AssemblyFileList
        assemblyId={assemblyId}
        status={status}
        local={local}
        localTotal={localTotal}
        perFile={perFile}
        {...(batch ? { moreInTransfers: () => navigate({ name: 'transfers', batchId: batch.id }) } : {})}
      />
      {batch && (
        <p className="muted small" data-testid="files-in-transfers">
          This app sends its files through Transfers.{' '}
          <button type="button" className="link-btn" onClick={() => navigate({ name: 'transfers', batchId: batch.id })}>
            Show its files in Transfers
          </button>
        </p>
      )}

      {fields.length > 0 && (
        <section aria-labelledby="asm-fields-title">
          <h2 id="asm-fields-title" className="section-title">
            Fields
          </h2>
          <dl className="asm-fields" data-testid="assembly-fields">
            {fields.map(([name, value]) => (
              <div key={name}>
                <dt className="mono">{name}</dt>
                <dd className="mono">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      {requestParams.length > 0 && (
        <section aria-labelledby="asm-params-title">
          <h2 id="asm-params-title" className="section-title">
            Request params
          </h2>
          <dl className="asm-fields" data-testid="assembly-params">
            {requestParams.map((fact) => (
              <div key={fact.label}>
                <dt>{fact.label}</dt>
                <dd className="mono">{fact.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      <NotificationAttempts assemblyId={assemblyId} hasNotifyUrl={typeof status.notify_url === 'string' && status.notify_url !== ''} busy={busy} />

      <details className="asm-raw" data-testid="raw-status">
        <summary>Status record (JSON)</summary>
        <div className="asm-raw-actions">
          <Button size="sm" icon={<CopyIcon />} onClick={() => void copyText(JSON.stringify(status, null, 2), 'Status JSON', toast)}>
            Copy JSON
          </Button>
        </div>
        <pre className="mono asm-raw-json">{JSON.stringify(status, null, 2)}</pre>
      </details>
    </div>
  );
};
