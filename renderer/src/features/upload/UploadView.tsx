import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PRESETS } from '../../../../shared/api/presets';
import type { Instructions, Steps } from '../../../../shared/api/instructions';
import type { DraftSummary } from '../../../../shared/ipc/transfer-models';
import { toAppError, unwrap, type BridgeError } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { draftKey, useTransferController } from '../../bridge/transfer-events';
import { askNotificationPermission } from '../shell/use-desktop';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FieldWarnings } from '../../components/FieldWarnings';
import { formatBytes, formatCount } from '../../lib/format';
import { applyUploadOptions, checkUploadOptions, optionsReason } from './upload-options';
import { emptySelection, reduceSelection, type ListSelection, type SelectionAction } from '../../lib/list-selection';
import { rowAt } from '../../lib/row-pages';
import { checkStepsText, type StepsCheck } from '../../lib/step-checks';
import { useNavigation } from '../../state/navigation-store';
import { CUSTOM_PRESET, TEMPLATE_PRESET, useStepsChoice } from '../../state/steps-store';
import { TransferSettingsForm } from '../transfers/TransferSettingsForm';
import { useDebounced } from '../../hooks/use-debounced';
import { useThrottled } from './use-throttled';
import { DraftFileList } from './DraftFileList';
import { DropZone } from './DropZone';
import { PreflightSummary } from './PreflightSummary';
import { SkippedItems } from './SkippedItems';
import { StepsPicker } from './StepsPicker';
import { UploadOptionsSection } from './UploadOptions';
import { PICK_FOLDER, useDraft, useDraftRows, type AddSource } from './use-draft';
import './upload.css';

export interface TemplateChoice {
  readonly id: string | null;
  readonly fields: Readonly<Record<string, string>>;
}

/** What Start would send (steps, or a Template with its fields), or why it cannot start. */
export const startReadiness = (
  fileCount: number,
  presetId: string,
  check: StepsCheck,
  template: TemplateChoice = { id: null, fields: {} },
): { steps: Steps | null; instructions: Instructions | null; reason: string | null } => {
  if (presetId === TEMPLATE_PRESET) {
    const fields = Object.fromEntries(Object.entries(template.fields).filter(([k, v]) => k.trim() !== '' && v !== ''));
    const instructions = template.id ? { template_id: template.id, ...(Object.keys(fields).length > 0 ? { fields } : {}) } : null;
    const reason = fileCount === 0 ? 'Add files to start.' : instructions === null ? 'Choose a Template to start.' : null;
    return { steps: null, instructions, reason };
  }
  const steps = presetId === CUSTOM_PRESET ? (check.kind === 'ok' ? check.steps : null) : (PRESETS.find((p) => p.id === presetId)?.steps ?? null);
  const instructions = steps ? { steps } : null;
  if (fileCount === 0) return { steps, instructions, reason: 'Add files to start.' };
  if (steps === null) return { steps, instructions, reason: check.kind === 'syntax' ? 'Fix the JSON in the steps editor to start.' : 'Fix the steps to start.' };
  return { steps, instructions, reason: null };
};

interface Baseline {
  readonly files: number;
  readonly duplicates: number;
  readonly unreadable: number;
}

/** What the last drop added, once core finished walking it. */
export const outcomeText = (before: Baseline, after: DraftSummary): string => {
  const added = Math.max(0, after.files - before.files);
  const duplicates = Math.max(0, after.duplicates - before.duplicates);
  const unreadable = Math.max(0, after.unreadable - before.unreadable);
  if (added === 0 && duplicates === 0 && unreadable === 0) return 'Nothing to add: no files were found there.';
  const parts = [added > 0 ? `Added ${formatCount(added, 'file')}.` : 'No new files.'];
  if (duplicates > 0) parts.push(`${formatCount(duplicates, 'file')} ${duplicates === 1 ? 'was' : 'were'} already in the list.`);
  if (unreadable > 0) parts.push(`${formatCount(unreadable, 'item')} could not be read.`);
  return parts.join(' ');
};

const EMPTY: DraftSummary = { version: 0, scanning: false, files: 0, bytes: 0, unreadable: 0, duplicates: 0 };

/** The pre-flight plan, asked again (debounced) when the draft, the instructions or the settings change. */
const usePlan = (summary: DraftSummary, instructions: Instructions | null) => {
  const bridge = useBridge();
  const settings = useBridgeQuery('transfers:settings', {});
  const version = useThrottled(summary.version, 500);
  const settled = useDebounced(instructions, 300);
  return useQuery<Awaited<ReturnType<typeof fetchPlan>>, BridgeError>({
    queryKey: ['drafts:plan', settled, version, settings.data ?? null],
    queryFn: () => fetchPlan(),
    enabled: settled !== null && summary.files + summary.unreadable > 0,
    placeholderData: keepPreviousData,
  });
  async function fetchPlan() {
    return unwrap(await bridge.invoke('drafts:plan', { instructions: settled as Instructions }));
  }
};

export const UploadView = () => {
  const bridge = useBridge();
  const presetId = useStepsChoice((s) => s.presetId);
  const customText = useStepsChoice((s) => s.customText);
  const templateId = useStepsChoice((s) => s.templateId);
  const templateFields = useStepsChoice((s) => s.templateFields);
  const navigate = useNavigation((s) => s.navigate);
  const client = useQueryClient();
  const controller = useTransferController();
  const { summary: summaryQuery, add, remove, clear } = useDraft();
  const summary = summaryQuery.data ?? EMPTY;
  const transferSettings = useBridgeQuery('transfers:settings', {});
  const rows = useDraftRows(summary.version, summary.files, JSON.stringify(transferSettings.data?.skip ?? null));
  const [selection, setSelection] = useState<ListSelection>(emptySelection);
  const [baseline, setBaseline] = useState<Baseline | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const adding = useRef(false);

  const start = useBridgeMutation('transfers:start', {
    onSuccess: () => {
      client.setQueryData(draftKey(), (old: DraftSummary | undefined) => ({ ...(old ?? EMPTY), version: (old?.version ?? 0) + 1, files: 0, bytes: 0, unreadable: 0, duplicates: 0, scanning: false }));
      void client.invalidateQueries({ queryKey: draftKey() });
      controller.reload();
      navigate({ name: 'transfers' });
    },
  });

  const check = useMemo(() => checkStepsText(customText), [customText]);
  const options = useStepsChoice((s) => s.options);
  const ready = startReadiness(summary.files, presetId, check, { id: templateId, fields: templateFields });
  // The options go into the Assembly params core signs; one with a problem holds Start until fixed.
  // A Template's steps (read as TemplateSteps reads them) tell which of them take the stack version.
  // The same query TemplateSteps reads (one request): its name also names the drop in Transfers.
  const chosenTemplate = useBridgeQuery('templates:get', { id: templateId ?? '' }, { enabled: presetId === TEMPLATE_PRESET && templateId !== null });
  const templateContent = chosenTemplate.data?.content;
  const instructions = ready.instructions ? applyUploadOptions(ready.instructions, options, templateContent) : null;
  const reason = ready.reason ?? optionsReason(checkUploadOptions(options));
  const plan = usePlan(summary, instructions);
  // What the drop does, as the user chose it: names its batches in Transfers.
  const recipe = presetId === TEMPLATE_PRESET ? chosenTemplate.data?.name?.slice(0, 200) : presetId === CUSTOM_PRESET ? 'Custom steps' : PRESETS.find((p) => p.id === presetId)?.label;
  const warnings = plan.data?.warnings ?? [];

  // The outcome of a drop is known once core finished walking it.
  useEffect(() => {
    if (baseline && !summary.scanning && !add.isPending && adding.current) {
      adding.current = false;
      setOutcome(outcomeText(baseline, summary));
      setBaseline(null);
    }
  }, [baseline, summary, add.isPending]);

  const onFiles = (collect: AddSource) => {
    setBaseline({ files: summary.files, duplicates: summary.duplicates, unreadable: summary.unreadable });
    setOutcome(null);
    adding.current = true;
    add.mutate(collect, { onSuccess: (r) => r.empty && (adding.current = false, setBaseline(null), setOutcome('Nothing to add: no files were found there.')) });
  };

  const onSelect = useCallback(
    (action: SelectionAction) => setSelection((s) => reduceSelection(s, action, summary.files, (i) => rowAt(rows.cache, i)?.id)),
    [summary.files, rows.cache],
  );
  const onRemove = useCallback((id: string) => remove.mutate({ ids: [id] }), [remove]);
  const selectedIds = [...selection.selected];
  const addError = add.error ? toAppError(add.error) : null;
  const scanningText = summary.scanning ? `Adding… ${formatCount(summary.files, 'file')} · ${formatBytes(summary.bytes)}` : null;
  // The button counts what the pre-flight shows: while the plan is asked again, both keep the last answer
  // (the pre-flight marked busy); only before the first answer does it count the picked files. An emptied
  // draft has no plan, whatever answer is still kept.
  const planFiles = summary.files === 0 ? 0 : plan.data ? plan.data.files : summary.files;

  return (
    <div className="upload-view">
      <section className="upload-files" aria-labelledby="files-title">
        <div className="section-head">
          <h1 id="files-title" className="page-title">
            Upload
          </h1>
          {summary.files > 0 && (
            <div className="totals">
              <span className="num" aria-label="Selection totals">
                {formatCount(summary.files, 'file')} · {formatBytes(summary.bytes)}
              </span>
              {selectedIds.length > 0 && (
                <Button size="sm" variant="ghost" onClick={() => remove.mutate({ ids: selectedIds }, { onSuccess: () => setSelection(emptySelection) })}>
                  Remove {formatCount(selectedIds.length, 'selected file')}
                </Button>
              )}
              <Button size="sm" variant="ghost" onClick={() => clear.mutate({}, { onSuccess: () => setSelection(emptySelection) })}>
                Clear
              </Button>
            </div>
          )}
        </div>
        <DropZone onFiles={onFiles} onPickFolder={bridge.pickFolder ? () => onFiles(PICK_FOLDER) : undefined} busy={add.isPending} compact={summary.files > 0 || summary.scanning} scanning={scanningText} />
        <FieldWarnings warnings={warnings} field="files" />
        {addError && <ErrorPanel title="Could not add those files" code={addError.code} message={addError.message} httpCode={addError.httpCode} />}
        {(remove.error ?? clear.error) && <ErrorPanel title="Could not change the list" code={(remove.error ?? clear.error)?.code ?? ''} message={(remove.error ?? clear.error)?.message ?? ''} />}
        {outcome && (
          <p className="add-outcome muted" role="status" data-testid="add-outcome">
            {outcome}
          </p>
        )}
        {summary.unreadable > 0 && <SkippedItems count={summary.unreadable} version={summary.version} />}
        {summary.files > 0 ? (
          <DraftFileList count={summary.files} cache={rows.cache} onRange={rows.onRange} selection={selection} onSelect={onSelect} onRemove={onRemove} />
        ) : (
          !summary.scanning &&
          !add.isPending &&
          summaryQuery.isSuccess && <p className="empty-hint muted">No files yet. Drop photos, videos or whole folders above; thousands of files are fine.</p>
        )}
        {summaryQuery.isError && <ErrorPanel title="Could not read the selection" code={summaryQuery.error.code} message={summaryQuery.error.message} />}
      </section>

      <aside className="upload-side" aria-label="What to do">
        <StepsPicker check={check} warnings={warnings} />
        <UploadOptionsSection />
        {summary.files + summary.unreadable > 0 && instructions && <PreflightSummary plan={plan.data} pending={plan.isFetching} />}
        {plan.error && <ErrorPanel title="Could not work out the plan" code={plan.error.code} message={plan.error.message} httpCode={plan.error.httpCode} />}
        <div className="start-bar">
          {start.error && <ErrorPanel title="The transfer could not start" code={start.error.code} message={start.error.message} httpCode={start.error.httpCode} />}
          <Button
            variant="primary"
            className="start-btn"
            disabled={reason !== null || start.isPending || planFiles === 0}
            busy={start.isPending}
            aria-describedby="start-reason"
            onClick={() => {
              // The browser host tells when a long drop ends with a Web Notification: ask now, on the user's act.
              askNotificationPermission();
              if (instructions) start.mutate({ instructions, ...(recipe ? { recipe } : {}) });
            }}
          >
            {start.isPending ? 'Starting…' : planFiles > 0 ? `Start · ${formatCount(planFiles, 'file')}` : 'Start'}
          </Button>
          <p id="start-reason" className="start-reason muted">
            {reason ?? (planFiles === 0 ? 'The skip rules leave no file to send.' : summary.scanning ? 'Starts with the files found so far; the rest follow as they are found.' : `Queues ${formatBytes(plan.data?.bytes ?? summary.bytes)} in Transfers.`)}
          </p>
        </div>
        <details className="upload-settings" open={warnings.some((w) => w.field !== null && ['batchMode', 'batchMaxFiles', 'batchMaxBytes', 'minBytes', 'maxBytes'].includes(w.field)) || undefined}>
          <summary className="section-title">Assemblies and skip rules</summary>
          <TransferSettingsForm sections={['batching', 'skip']} warnings={warnings} />
        </details>
      </aside>
    </div>
  );
};
