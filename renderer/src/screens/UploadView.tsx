import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { PRESETS } from '../../../shared/api/presets';
import type { Instructions, Steps } from '../../../shared/api/instructions';
import { storeRun } from '../bridge/run-events';
import { toAppError } from '../bridge/bridge-error';
import { useBridgeMutation } from '../bridge/use-bridge';
import { Button } from '../components/Button';
import { ErrorPanel } from '../components/ErrorPanel';
import { formatBytes, formatCount } from '../lib/format';
import { totalBytesOf } from '../lib/selection';
import { checkStepsText, type StepsCheck } from '../lib/step-checks';
import { useNavigation } from '../state/navigation-store';
import { useSelection } from '../state/selection-store';
import { CUSTOM_PRESET, TEMPLATE_PRESET, useStepsChoice } from '../state/steps-store';
import { DropZone } from './DropZone';
import { FileList } from './FileList';
import { StepsPicker } from './StepsPicker';
import { useAddFiles, type AddOutcome } from './use-add-files';

/** The contract's limit on `runs:start` files. */
export const MAX_FILES_PER_RUN = 100_000;

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
    return { steps: null, instructions, reason: reason ?? limitReason(fileCount) };
  }
  const steps = presetId === CUSTOM_PRESET ? (check.kind === 'ok' ? check.steps : null) : (PRESETS.find((p) => p.id === presetId)?.steps ?? null);
  const instructions = steps ? { steps } : null;
  if (fileCount === 0) return { steps, instructions, reason: 'Add files to start.' };
  const tooMany = limitReason(fileCount);
  if (tooMany) return { steps, instructions, reason: tooMany };
  if (steps === null) return { steps, instructions, reason: check.kind === 'syntax' ? 'Fix the JSON in the steps editor to start.' : 'Fix the steps to start.' };
  return { steps, instructions, reason: null };
};

const limitReason = (fileCount: number): string | null =>
  fileCount > MAX_FILES_PER_RUN ? `An Assembly takes at most ${MAX_FILES_PER_RUN.toLocaleString('en-US')} files: remove some to start.` : null;

const outcomeText = (o: AddOutcome): string => {
  if (o.empty) return 'Nothing to add: no files were found there.';
  const parts = [o.added > 0 ? `Added ${formatCount(o.added, 'file')}.` : 'No new files.'];
  if (o.duplicates > 0) parts.push(`${formatCount(o.duplicates, 'file')} ${o.duplicates === 1 ? 'was' : 'were'} already in the list.`);
  if (o.skipped.length > 0) parts.push(`${formatCount(o.skipped.length, 'item')} could not be read.`);
  return parts.join(' ');
};

export const UploadView = () => {
  const files = useSelection((s) => s.files);
  const clear = useSelection((s) => s.clear);
  const presetId = useStepsChoice((s) => s.presetId);
  const customText = useStepsChoice((s) => s.customText);
  const templateId = useStepsChoice((s) => s.templateId);
  const templateFields = useStepsChoice((s) => s.templateFields);
  const navigate = useNavigation((s) => s.navigate);
  const client = useQueryClient();
  const addFiles = useAddFiles();
  const start = useBridgeMutation('runs:start', {
    onSuccess: (run) => {
      storeRun(client, run);
      clear();
      navigate({ name: 'run', runId: run.runId });
    },
  });

  const check = useMemo(() => checkStepsText(customText), [customText]);
  const totalBytes = useMemo(() => totalBytesOf(files), [files]);
  const { instructions, reason } = startReadiness(files.length, presetId, check, { id: templateId, fields: templateFields });
  const addError = addFiles.error ? toAppError(addFiles.error) : null;

  return (
    <div className="upload-view">
      <section className="upload-files" aria-labelledby="files-title">
        <div className="section-head">
          <h1 id="files-title" className="page-title">
            Upload
          </h1>
          {files.length > 0 && (
            <div className="totals">
              <span className="num" aria-label="Selection totals">
                {formatCount(files.length, 'file')} · {formatBytes(totalBytes)}
              </span>
              <Button size="sm" variant="ghost" onClick={clear}>
                Clear
              </Button>
            </div>
          )}
        </div>
        <DropZone onFiles={(collect) => addFiles.mutate(collect)} busy={addFiles.isPending} compact={files.length > 0} />
        {addError && <ErrorPanel title="Could not add those files" code={addError.code} message={addError.message} httpCode={addError.httpCode} />}
        {addFiles.data && !addFiles.isPending && (
          <div className="add-outcome muted" role="status">
            {outcomeText(addFiles.data)}
            {addFiles.data.skipped.length > 0 && (
              <details>
                <summary>Show unreadable items</summary>
                <ul className="skipped-list mono">
                  {addFiles.data.skipped.slice(0, 200).map((s) => (
                    <li key={s.relativePath}>
                      {s.relativePath}: {s.reason}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </div>
        )}
        {files.length > 0 ? (
          <FileList />
        ) : (
          <p className="empty-hint muted">No files yet. Drop photos, videos or whole folders above; thousands of files are fine.</p>
        )}
      </section>

      <aside className="upload-side" aria-label="What to do">
        <StepsPicker check={check} />
        <div className="start-bar">
          {start.error && <ErrorPanel title="The Assembly could not start" code={start.error.code} message={start.error.message} httpCode={start.error.httpCode} />}
          <Button
            variant="primary"
            className="start-btn"
            disabled={reason !== null || start.isPending}
            busy={start.isPending}
            aria-describedby="start-reason"
            onClick={() => instructions && start.mutate({ files: files.slice(), instructions })}
          >
            {start.isPending ? 'Starting…' : files.length > 0 ? `Start · ${formatCount(files.length, 'file')}` : 'Start'}
          </Button>
          <p id="start-reason" className="start-reason muted">
            {reason ?? `Creates an Assembly and uploads ${formatBytes(totalBytes)}.`}
          </p>
        </div>
      </aside>
    </div>
  );
};
