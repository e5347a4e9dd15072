import { useQueryClient } from '@tanstack/react-query';
import '../../styles/assemblies.css';
import { useEffect, useState } from 'react';
import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import { isAssemblyBusy } from '../../../../shared/api/codes';
import type { AssemblyDetail, AssemblyUpdate } from '../../../../shared/ipc/assembly-models';
import { useBridge } from '../../bridge/BridgeProvider';
import { bridgeKey, useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { IconButton } from '../../components/IconButton';
import { ArrowRightIcon, CopyIcon, RetryIcon } from '../../components/Icons';
import { ProgressBar } from '../../components/ProgressBar';
import { Spinner } from '../../components/Spinner';
import { paramFacts } from './assembly-params';
import { formatDuration } from '../../lib/format';
import { describeRunState } from '../../lib/run-state';
import { useNavigation } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import { AssemblyFiles } from './AssemblyFiles';
import { CancelAssemblyDialog } from './CancelAssemblyDialog';
import { AssemblyResults } from './AssemblyResults';
import { NotificationAttempts } from './NotificationAttempts';
import { ReplayPanel } from './ReplayPanel';
import { StepProgressList } from './StepProgressList';
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

/**
 * Any Assembly of the workspace by id (`#/assemblies/<id>`): state, timings, fields, the request's limits
 * and other params, uploads, results with
 * previews, the error, notification attempts and the raw status record; followed live while it runs.
 * Replay from here; a replay links to its parent and back.
 */
export const AssemblyView = ({ assemblyId }: { assemblyId: string }) => {
  const bridge = useBridge();
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const navigate = useNavigation((s) => s.navigate);
  const detail = useBridgeQuery('assemblies:get', { assemblyId });
  const [progress, setProgress] = useState<AssemblyUpdate['progress']>(null);
  const [replayOpen, setReplayOpen] = useState(false);
  // Canceling ends the Assembly for good: the user confirms first (Cancel has focus in the dialog).
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const cancel = useBridgeMutation('assemblies:cancel', {
    onSuccess: (status) => {
      client.setQueryData<AssemblyDetail>(bridgeKey('assemblies:get', { assemblyId }), (held) => (held ? { ...held, status } : held));
      void client.invalidateQueries({ queryKey: ['assemblies:list'] });
      if (status.ok !== 'ASSEMBLY_CANCELED') toast(`It had already ended (${stateOf(status).label.toLowerCase()}): nothing was canceled.`, 'info');
    },
  });
  const busy = detail.data ? isAssemblyBusy(detail.data.status) : false;

  // Live: core follows the Assembly (SSE, polling fallback) and sends each new status and progress.
  useEffect(() => {
    if (!busy) return;
    const off = bridge.on('assembly:updated', (update) => {
      if (update.assemblyId !== assemblyId) return;
      if (update.progress) setProgress(update.progress);
      if (update.status) {
        const status = update.status;
        client.setQueryData<AssemblyDetail>(bridgeKey('assemblies:get', { assemblyId }), (held) => (held ? { ...held, status } : held));
        if (!isAssemblyBusy(status)) void client.invalidateQueries({ queryKey: bridgeKey('assemblies:notifications', { assemblyId }) });
      }
    });
    // It may have ended between the first read and the follow: then read it again instead.
    void bridge.invoke('assemblies:follow', { assemblyId }).then((answer) => {
      if (answer.ok && !answer.value.following) void client.invalidateQueries({ queryKey: bridgeKey('assemblies:get', { assemblyId }) });
    });
    return off;
  }, [bridge, client, assemblyId, busy]);

  if (detail.isPending) {
    return (
      <div className="center-pane">
        <Spinner size={24} label="Loading the Assembly" />
      </div>
    );
  }
  if (detail.isError) {
    return (
      <div className="asm-view">
        <ErrorPanel
          title="Could not load this Assembly"
          code={detail.error.code}
          message={detail.error.message}
          action={<Button onClick={() => navigate({ name: 'activity' })}>Back to Activity</Button>}
        />
      </div>
    );
  }

  const { status, runId, replays } = detail.data;
  const view = stateOf(status);
  const fields = Object.entries(status.fields ?? {});
  const requestParams = paramFacts(status.params);
  const combined = progress?.combined ?? null;

  return (
    <div className="asm-view">
      <div className="run-head">
        <div className="run-title">
          <h1 className="page-title">Assembly</h1>
          <Badge tone={view.tone} data-testid="assembly-state">
            {view.label}
          </Badge>
        </div>
        <div className="run-head-actions">
          {busy && (
            <Button size="sm" variant="danger" onClick={() => setConfirmingCancel(true)} busy={cancel.isPending} disabled={cancel.isPending}>
              {cancel.isPending ? 'Canceling…' : 'Cancel Assembly…'}
            </Button>
          )}
          {runId && (
            <Button size="sm" icon={<ArrowRightIcon />} onClick={() => navigate({ name: 'run', runId })}>
              Open its run
            </Button>
          )}
          <Button size="sm" variant="primary" icon={<RetryIcon />} disabled={busy} title={busy ? 'It can be replayed once it has ended.' : undefined} aria-expanded={replayOpen} onClick={() => setReplayOpen((v) => !v)}>
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
          <dt>Received</dt>
          <dd>{status.start_date ?? '—'}</dd>
        </div>
        <div>
          <dt>Uploading</dt>
          <dd className="num">{typeof status.upload_duration === 'number' ? formatDuration(status.upload_duration) : '—'}</dd>
        </div>
        <div>
          <dt>Processing</dt>
          <dd className="num" data-testid="execution-duration">
            {typeof status.execution_duration === 'number' ? formatDuration(status.execution_duration) : '—'}
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
        uploads={runId ? 'Files of it this app is still sending stop; the ones already sent stay with the Assembly.' : 'Files still on their way to it are refused, whoever sends them.'}
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

      {status.error && (
        <ErrorPanel
          data-testid="assembly-error"
          title="This Assembly failed"
          code={status.error}
          message={status.message ?? 'The service gave no message.'}
          facts={[...(typeof status.step === 'string' ? [{ label: 'Step', value: status.step }] : []), ...(typeof status.reason === 'string' ? [{ label: 'Reason', value: status.reason }] : [])]}
        />
      )}

      {busy && (
        <div className="asm-progress" data-testid="execution-progress">
          <ProgressBar
            value={combined}
            label="Processing progress"
            valueText={combined === null ? 'Running…' : `${Math.round(combined)} %`}
          />
          <span className="muted small">{combined === null ? 'Running; live from the service.' : `${Math.round(combined)} % processed`}</span>
        </div>
      )}

      <StepProgressList status={status} perStep={progress?.perStep ?? null} />

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

      <AssemblyFiles assemblyId={assemblyId} uploads={status.uploads ?? []} progress={progress} />
      <AssemblyResults assemblyId={assemblyId} results={status.results ?? {}} />
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
