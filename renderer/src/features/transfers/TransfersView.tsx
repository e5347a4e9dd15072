import { assemblyRouteOfRun } from './open-assembly';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TransferAction, TransferBatch, TransferScope } from '../../../../shared/ipc/transfer-models';
import { useTransferController } from '../../bridge/transfer-events';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useDiscardQuestion } from '../../components/DiscardQuestion';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { CloseIcon, PauseIcon, PlayIcon, RetryIcon, SettingsIcon, TransfersIcon } from '../../components/Icons';
import { ProgressBar } from '../../components/ProgressBar';
import { Spinner } from '../../components/Spinner';
import { formatCount, percentOf } from '../../lib/format';
import { emptySelection, reduceSelection, type ListSelection, type SelectionAction } from '../../lib/list-selection';
import { rowAt } from '../../lib/row-pages';
import { nextMeasuredSince, totalsText } from './transfer-eta';
import { FILTERS, FILTER_LABEL, filterCount, type TransferFilter } from './transfer-filters';
import { lineAt } from './transfer-layout';
import { useNavigation } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import { useAfterPaint } from '../../hooks/use-after-paint';
import { useDebounced } from '../../hooks/use-debounced';
import { useNow } from '../../hooks/use-now';
import { cancelQuestion, itemsAt, keyTarget, scopeOf, shortcutFor, type CancelTarget } from './key-target';
import { ResendDialog, type ResendAsk } from './ResendDialog';
import { SelectionBar } from './SelectionBar';
import { TransferList } from './TransferList';
import { TransferSettingsForm } from './TransferSettingsForm';
import { ExportManifestDialog } from '../results/ExportManifestDialog';
import { SaveResultsDialog } from '../results/SaveResultsDialog';
import { useTransfers } from './transfer-store';
import './transfers.css';

const TotalsBar = () => {
  const totals = useTransfers((s) => s.totals);
  const settings = useBridgeQuery('transfers:settings', {});
  const measured = useRef<number | null>(null);
  const busy = Boolean(totals && totals.filesActive + totals.filesQueued > 0);
  const now = useNow(busy);
  if (!totals) return null;
  measured.current = nextMeasuredSince(measured.current, totals.speedBps, Date.now());
  const text = totalsText({ totals, measuredSince: measured.current, now: Math.max(now, measured.current ?? 0) }, settings.data?.concurrency ?? null);
  return (
    <div className="tx-totals" data-testid="transfer-totals" aria-label="Transfer totals">
      <ProgressBar value={percentOf(totals.current.bytesSent, totals.current.bytesTotal)} label="Transfer progress" valueText={`${text.files}, ${text.bytes}`} />
      <dl className="batch-stats">
        <div>
          <dt>Files</dt>
          <dd className="num">{text.files}</dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd className="num">{text.bytes}</dd>
        </div>
        <div>
          <dt>Speed</dt>
          <dd className="num" data-testid="transfer-speed">
            {text.speed}
          </dd>
        </div>
        <div>
          <dt>Time left</dt>
          <dd className="num" data-testid="transfer-eta">
            {text.eta}
          </dd>
        </div>
      </dl>
      {text.concurrency && (
        <p className="muted small" data-testid="effective-concurrency">
          {text.concurrency}
        </p>
      )}
    </div>
  );
};

const FilterChips = ({ filter, onFilter }: { filter: TransferFilter; onFilter: (f: TransferFilter) => void }) => {
  const totals = useTransfers((s) => s.totals);
  return (
    <div className="chips" role="group" aria-label="Show">
      {FILTERS.map((f) => (
        <button key={f} type="button" className="chip" aria-pressed={filter === f} onClick={() => onFilter(f)}>
          {FILTER_LABEL[f]} <span className="num chip-count">{totals ? filterCount(f, totals).toLocaleString('en-US') : '—'}</span>
        </button>
      ))}
    </div>
  );
};

/** "clip.mov" for one file the list has read, "3 files" otherwise. */
const scopeWhat = (scope: TransferScope): string => {
  if (scope.kind !== 'files') return 'these files';
  if (scope.ids.length > 1) return formatCount(scope.ids.length, 'file');
  const { cache } = useTransfers.getState();
  const offset = cache.index.get(scope.ids[0] as string);
  const row = offset === undefined ? undefined : rowAt(cache, offset);
  return row?.relativePath ?? 'this file';
};

const ACTION_DONE: Record<TransferAction, string> = { pause: 'Paused', resume: 'Resumed', cancel: 'Canceled', retry: 'Retrying' };

/** The transfer window: totals, filters, bulk actions, one virtualized list grouped by batch, settings. */
export const TransfersView = ({ batchId }: { batchId?: string }) => {
  const controller = useTransferController();
  const navigate = useNavigation((s) => s.navigate);
  const toast = useToasts((s) => s.show);
  const loaded = useTransfers((s) => s.loaded);
  const error = useTransfers((s) => s.error);
  const totals = useTransfers((s) => s.totals);
  const rowsLoaded = useTransfers((s) => s.rowsLoaded);
  const rowsError = useTransfers((s) => s.rowsError);
  const lineCount = useTransfers((s) => s.layout.count);
  // The list (its rows and the layout its first measure forces) mounts after the view's first paint.
  const listMounts = useAfterPaint();
  // A link to a batch that left the queue (a restart, a cleared queue) says so instead of "no files".
  const batchLabel = useTransfers((s) => (batchId ? (s.batches.get(batchId)?.label ?? null) : null));
  const [filter, setFilter] = useState<TransferFilter>('all');
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebounced(search, 200);
  const [selection, setSelection] = useState<ListSelection>(emptySelection);
  const [showSettings, setShowSettings] = useState(false);
  const settingsButton = useRef<HTMLButtonElement>(null);
  // Escape closes the settings panel, and the focus goes back to the button that opened it; a value typed
  // and not saved (refused at its field, or not sent yet) is asked about first.
  const [settingsUnsaved, setSettingsUnsaved] = useState(false);
  const closeSettings = useCallback(() => {
    setShowSettings(false);
    setSettingsUnsaved(false);
    settingsButton.current?.focus();
  }, []);
  const { ask: askCloseSettings, question: settingsQuestion } = useDiscardQuestion(settingsUnsaved, closeSettings);
  // The batch whose results are being saved or listed (its dialogs outlive the focus moving in the list).
  const [resultsOf, setResultsOf] = useState<{ batch: TransferBatch; what: 'save' | 'manifest' } | null>(null);

  useEffect(() => {
    controller.setView({ filter, search: debouncedSearch, batchId: batchId ?? null });
    setSelection(emptySelection);
  }, [controller, filter, debouncedSearch, batchId]);

  // Canceling files an existing Assembly waits for would send the rest of its batch again: core says so, the user decides.
  const [resendAsk, setResendAsk] = useState<(ResendAsk & { scope: TransferScope }) | null>(null);
  const control = useBridgeMutation('transfers:control', {
    onSuccess: (answer, request) => {
      if (answer.confirm) return setResendAsk({ what: scopeWhat(request.scope), cost: answer.confirm, scope: request.scope });
      toast(`${ACTION_DONE[request.action]}: ${formatCount(answer.affected, 'file')}`, 'success');
    },
    onError: (e) => toast(`Could not do that (${e.code}): ${e.message}`, 'danger'),
  });
  const mutate = control.mutate;
  const onControl = useCallback((action: TransferAction, scope: TransferScope) => mutate({ action, scope }), [mutate]);
  const clearFinished = useBridgeMutation('transfers:clearFinished', {
    onSuccess: (answer) => {
      const kept = answer.keptWithFailures > 0 ? ` ${formatCount(answer.keptWithFailures, 'drop')} with failed files kept: retry or cancel those files first.` : '';
      toast(answer.transfers > 0 ? `Cleared ${formatCount(answer.transfers, 'finished drop')} (${formatCount(answer.files, 'file')}).${kept}` : `Nothing finished to clear.${kept}`, answer.transfers > 0 ? 'success' : 'info');
      controller.reload();
    },
    onError: (e) => toast(`Could not clear (${e.code}): ${e.message}`, 'danger'),
  });
  const anyFinished = useTransfers((s) => [...s.transfers.values()].some((t) => t.state === 'done' || t.state === 'canceled'));

  const onSelect = useCallback((action: SelectionAction) => {
    const { layout, cache } = useTransfers.getState();
    const idAt = (line: number) => {
      const at = lineAt(layout, line);
      return at.kind === 'row' ? rowAt(cache, at.offset)?.id : undefined;
    };
    setSelection((s) => reduceSelection(s, action, layout.count, idAt));
  }, []);

  // P, R and Delete in the list act on the selection, else on the focused batch or file (key-target.ts).
  const [askCancel, setAskCancel] = useState<CancelTarget | null>(null);
  const onShortcut = (key: string): boolean => {
    const target = keyTarget([...selection.selected], itemsAt(useTransfers.getState(), selection.focus));
    const action = target && shortcutFor(key, target.actions);
    if (!target || !action) return false;
    if (action === 'cancel') setAskCancel(target);
    else onControl(action, scopeOf(target));
    return true;
  };

  if (!loaded) {
    return (
      <div className="center-pane">
        <Spinner size={24} label="Loading transfers" />
      </div>
    );
  }
  if (error) {
    return (
      <div className="transfers-view">
        <h1 className="page-title">Transfers</h1>
        <ErrorPanel title="Could not read the transfer queue" code={error.code} message={error.message} action={<Button onClick={() => controller.reload()}>Try again</Button>} />
      </div>
    );
  }
  const empty = !totals || totals.filesTotal === 0;
  const cancelAsk = askCancel && cancelQuestion(askCancel);

  return (
    <div className="transfers-view">
      <div className="transfers-main">
        <div className="section-head">
          <h1 className="page-title">Transfers</h1>
          <div className="toolbar-actions" role="toolbar" aria-label="All transfers">
            {totals?.paused ? (
              <Button size="sm" icon={<PlayIcon />} onClick={() => onControl('resume', { kind: 'all' })} disabled={empty}>
                Resume all
              </Button>
            ) : (
              <Button size="sm" icon={<PauseIcon />} onClick={() => onControl('pause', { kind: 'all' })} disabled={empty || (totals?.filesActive ?? 0) + (totals?.filesQueued ?? 0) === 0}>
                Pause all
              </Button>
            )}
            <Button size="sm" icon={<RetryIcon />} onClick={() => onControl('retry', { kind: 'all' })} disabled={(totals?.filesFailed ?? 0) === 0}>
              Retry failed
            </Button>
            <Button size="sm" variant="danger" icon={<CloseIcon />} onClick={() => setAskCancel({ kind: 'all' })} disabled={empty || (totals?.filesActive ?? 0) + (totals?.filesQueued ?? 0) === 0}>
              Cancel all
            </Button>
            <Button size="sm" variant="ghost" onClick={() => clearFinished.mutate({})} disabled={!anyFinished || clearFinished.isPending} data-testid="clear-finished">
              Clear finished
            </Button>
            <Button ref={settingsButton} size="sm" variant="ghost" icon={<SettingsIcon />} aria-expanded={showSettings} aria-controls="transfer-settings" onClick={() => (showSettings ? askCloseSettings() : setShowSettings(true))}>
              Settings
            </Button>
          </div>
        </div>

        {empty ? (
          <EmptyState icon={<TransfersIcon />} title="Nothing is transferring" action={<Button variant="primary" onClick={() => navigate({ name: 'upload' })}>Upload files</Button>}>
            Files you start on the Upload view queue here, in Assemblies, with their progress.
          </EmptyState>
        ) : (
          <>
            <TotalsBar />
            <div className="toolbar tx-toolbar">
              <FilterChips filter={filter} onFilter={setFilter} />
              <input className="input tx-search" type="search" placeholder="Search paths" aria-label="Search paths" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
              {batchId && (
                <span className="chip chip-active" data-testid="batch-filter">
                  Batch: {batchLabel ?? 'no longer in the queue'}
                  <button type="button" className="icon-btn" aria-label="Show every batch" onClick={() => navigate({ name: 'transfers' })}>
                    <CloseIcon />
                  </button>
                </span>
              )}
            </div>
            <SelectionBar selection={selection} onControl={onControl} onAskCancel={setAskCancel} onClear={() => setSelection(emptySelection)} onOpenRun={(runId) => navigate(assemblyRouteOfRun(runId))} onResults={(batch, what) => setResultsOf({ batch, what })} />
            {rowsError && <ErrorPanel title="Could not read these files" code={rowsError.code} message={rowsError.message} action={<Button onClick={() => controller.reload()}>Try again</Button>} />}
            {!rowsLoaded || !listMounts ? (
              <div className="tx-list-wrap tx-loading">
                <Spinner size={18} label="Loading files" />
              </div>
            ) : lineCount === 0 && !rowsError ? (
              <EmptyState title="No files match">{batchId && batchLabel === null ? 'This batch is no longer in the queue: show every batch to see the rest.' : debouncedSearch ? `No path contains “${debouncedSearch}” here.` : `No ${FILTER_LABEL[filter].toLowerCase()} files right now.`}</EmptyState>
            ) : (
              <TransferList selection={selection} onSelect={onSelect} onControl={onControl} onShortcut={onShortcut} />
            )}
          </>
        )}
      </div>
      {showSettings && (
        <section id="transfer-settings" className="transfers-settings" aria-label="Transfer settings" onKeyDown={(e) => e.key === 'Escape' && askCloseSettings()}>
          <div className="section-head">
            <h2 className="section-title">Settings</h2>
            <Button size="sm" variant="ghost" onClick={askCloseSettings}>
              Close
            </Button>
          </div>
          <TransferSettingsForm sections={['speed', 'batching', 'skip']} onUnsavedChange={setSettingsUnsaved} />
          <p className="muted small">Speed settings apply to running transfers at once; batching and skip rules to the next drop.</p>
        </section>
      )}
      {settingsQuestion}
      <ConfirmDialog
        open={cancelAsk !== null}
        title={cancelAsk?.title ?? ''}
        confirmLabel={cancelAsk?.confirmLabel ?? ''}
        // "Cancel" beside "Cancel batch" would read as the same thing: the way out says what it keeps doing.
        cancelLabel="Keep sending"
        tone="danger"
        onConfirm={() => {
          if (cancelAsk) onControl('cancel', cancelAsk.scope);
          setAskCancel(null);
        }}
        onCancel={() => setAskCancel(null)}
      >
        {cancelAsk?.body}
      </ConfirmDialog>
      {resultsOf && (
        <>
          <SaveResultsDialog
            open={resultsOf.what === 'save'}
            scope={{ kind: 'batch', batchId: resultsOf.batch.id }}
            what={`The results of Assembly ${resultsOf.batch.seq} · ${resultsOf.batch.label} (${formatCount(resultsOf.batch.filesTotal, 'input file')})`}
            onClose={() => setResultsOf(null)}
          />
          <ExportManifestDialog
            open={resultsOf.what === 'manifest'}
            scope={{ kind: 'batch', batchId: resultsOf.batch.id }}
            what={`Assembly ${resultsOf.batch.seq} · ${resultsOf.batch.label}`}
            onClose={() => setResultsOf(null)}
          />
        </>
      )}
      <ResendDialog
        ask={resendAsk}
        onConfirm={() => {
          if (resendAsk) mutate({ action: 'cancel', scope: resendAsk.scope, resend: true });
          setResendAsk(null);
        }}
        onCancel={() => setResendAsk(null)}
      />
    </div>
  );
};
