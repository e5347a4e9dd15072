import { useId, useState } from 'react';
import { PRESETS } from '../../../../shared/api/presets';
import type { FolderRef, WatchField, WatchFolder, WatchFolderInput, WatchFolderUpdate } from '../../../../shared/ipc/watch-folder-models';
import { unwrap } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { useUnsavedChanges } from '../../state/navigation-store';
import { RadioCards } from '../../components/RadioCards';
import { initialForm, inputOf, updateOf, WATCH_CONFLICTS, type AfterKind, type FormProblem, type WatchForm } from './watch-view';

/** A problem under its field: the id ties it to the control (aria-describedby). */
const FieldError = ({ id, text }: { id: string; text: string | null }) =>
  text ? (
    <span id={id} className="field-error" role="alert">
      {text}
    </span>
  ) : null;

/**
 * A folder: the native dialog in the Electron host (the page gets a handle, never the path); in the
 * browser host, whose picker copies files rather than naming a folder, the absolute path typed. `current`
 * is the folder in use when editing (shown until another is chosen).
 */
const FolderField = ({ label, value, current, error, onChange }: { label: string; value: FolderRef | null; current?: string | undefined; error: string | null; onChange: (ref: FolderRef | null) => void }) => {
  const bridge = useBridge();
  const errorId = useId();
  const [picked, setPicked] = useState<string | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  if (bridge.host === 'electron' && bridge.pickFolder) {
    const pick = bridge.pickFolder;
    return (
      <div className="form-field">
        <span className="field-label">{label}</span>
        <div className="watch-pick-row">
          <Button
            size="sm"
            aria-label={`Choose ${label.toLowerCase()}`}
            aria-describedby={error ? errorId : undefined}
            onClick={async () => {
              try {
                const roots = unwrap(await pick());
                const root = roots?.[0];
                if (root) {
                  onChange({ handle: root.handle });
                  setPicked(current ? 'New folder chosen' : 'Folder chosen');
                }
              } catch (cause) {
                setPickError(cause instanceof Error ? cause.message : String(cause));
              }
            }}
          >
            Choose…
          </Button>
          <span className={`muted small${picked === null && current ? ' mono' : ''}`}>{picked ?? current ?? 'No folder chosen'}</span>
        </div>
        <FieldError id={errorId} text={error ?? pickError} />
      </div>
    );
  }
  return (
    <div className="form-field">
      <label className="form-field">
        <span className="field-label">{label}</span>
        <input
          className="input mono"
          value={value && 'path' in value ? value.path : ''}
          placeholder="/home/me/Incoming"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(e.currentTarget.value.trim() ? { path: e.currentTarget.value.trim() } : null)}
        />
      </label>
      <FieldError id={errorId} text={error} />
    </div>
  );
};

type ServerError = { code: string; message: string; details?: Record<string, unknown> | undefined } | null;

type ModeProps = { watch?: undefined; onAdd: (input: WatchFolderInput) => void } | { watch: WatchFolder; onSave: (update: WatchFolderUpdate) => void };

/**
 * The watch dialog, adding a watch or editing one: folder, Template (and fields) or preset, output folder,
 * what to do when a result is already there, reprocess stale, after success, settle time. Editing, the watched folder is shown but fixed; everything
 * else is pre-filled and applies to the files that arrive or change from then on.
 */
export const WatchDialog = (props: { open: boolean; busy: boolean; error: ServerError; onCancel: () => void } & ModeProps) => {
  const { open, busy, error, onCancel, watch } = props;
  const templates = useBridgeQuery('templates:list', { pagesize: 850, sort: 'name', order: 'asc', includeBuiltin: 'none' }, { enabled: open });
  const [form, setForm] = useState<WatchForm>(() => initialForm(watch));
  // Leaving the screen with changes in the open dialog asks first (the navigation guard).
  const [opened] = useState(() => JSON.stringify(initialForm(watch)));
  useUnsavedChanges(open && JSON.stringify(form) !== opened, watch ? 'the watch folder being edited' : 'the new watch folder');
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const folderHintId = useId();
  const ids = { recipe: useId(), after: useId(), settle: useId(), conflict: useId() };
  // core's refusal until the field it is about is changed (a new refusal shows again).
  const [dismissed, setDismissed] = useState<ServerError>(null);
  const shown = error !== dismissed ? error : null;
  const serverField = typeof shown?.details?.field === 'string' ? (shown.details.field as WatchField) : null;
  const fieldOf: Partial<Record<keyof WatchForm, WatchField>> = { folder: 'folder', output: 'output', recipe: 'recipe', fieldText: 'recipe', after: 'afterSuccess', moveTo: 'afterSuccess', settle: 'settleMs' };
  const set = <K extends keyof WatchForm>(key: K, value: WatchForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (shown && serverField === fieldOf[key]) setDismissed(shown);
    if (problem && problem.field === fieldOf[key]) setProblem(null);
  };

  // A refusal, local or from core, shows at its field; one about no field shows below the form.
  const at = (field: WatchField): string | null => {
    if (problem) return problem.field === field ? problem.message : null;
    return shown && serverField === field ? `${shown.message} (${shown.code})` : null;
  };
  const unplaced = problem ? (problem.field === null ? { code: 'INVALID', message: problem.message } : null) : shown && serverField === null ? shown : null;

  const submit = () => {
    const checked = props.watch ? updateOf(props.watch, form) : inputOf(form);
    if ('problem' in checked) return setProblem(checked.problem);
    setProblem(null);
    if ('update' in checked && props.watch) props.onSave(checked.update);
    else if ('input' in checked && !props.watch) props.onAdd(checked.input);
  };

  const usesTemplate = form.recipe.startsWith('template:');
  const templateItems = templates.data?.items ?? [];
  // Editing a watch whose Template is not in the list (not loaded, or gone): it stays chosen, by id.
  const keptTemplate = form.recipe.startsWith('template:') && !templateItems.some((t) => `template:${t.id}` === form.recipe) ? form.recipe.slice('template:'.length) : null;
  const recipeError = at('recipe');
  return (
    <ConfirmDialog open={open} title={watch ? 'Edit watch folder' : 'Add a watch folder'} confirmLabel={watch ? 'Save changes' : 'Start watching'} busy={busy} wide onConfirm={submit} onCancel={onCancel}>
      <div className="watch-form" data-testid={watch ? 'watch-edit-form' : 'watch-add-form'}>
        {watch ? (
          <div className="form-field">
            <label className="form-field">
              <span className="field-label">Folder to watch</span>
              <input className="input mono watch-fixed-folder" value={watch.folder} readOnly aria-describedby={folderHintId} />
            </label>
            <span id={folderHintId} className="muted small">
              A different folder is a different watch: add it as a new one.
            </span>
          </div>
        ) : (
          <FolderField label="Folder to watch" value={form.folder} error={at('folder')} onChange={(v) => set('folder', v)} />
        )}
        <div className="form-field">
          <label className="form-field">
            <span className="field-label">Process each file with</span>
            <select className="input" value={form.recipe} aria-invalid={recipeError ? true : undefined} aria-describedby={recipeError ? ids.recipe : undefined} onChange={(e) => set('recipe', e.currentTarget.value)}>
              <optgroup label="Ready-made steps">
                {PRESETS.map((p) => (
                  <option key={p.id} value={`preset:${p.id}`}>
                    {p.label}
                  </option>
                ))}
              </optgroup>
              {(templateItems.length > 0 || keptTemplate) && (
                <optgroup label="Templates">
                  {keptTemplate && <option value={`template:${keptTemplate}`}>Template {keptTemplate}</option>}
                  {templateItems.map((t) => (
                    <option key={t.id} value={`template:${t.id}`}>
                      {t.name}
                    </option>
                  ))}
                </optgroup>
              )}
            </select>
          </label>
          {templates.isError && <span className="muted small">Templates could not be loaded ({templates.error.code}); the ready-made steps still work.</span>}
          {!usesTemplate && <FieldError id={ids.recipe} text={recipeError} />}
        </div>
        {usesTemplate && (
          <div className="form-field">
            <label className="form-field">
              <span className="field-label">Fields</span>
              <textarea className="input mono" rows={3} value={form.fieldText} placeholder={'name=value\n(one a line)'} aria-invalid={recipeError ? true : undefined} aria-describedby={recipeError ? ids.recipe : undefined} onChange={(e) => set('fieldText', e.currentTarget.value)} />
            </label>
            <FieldError id={ids.recipe} text={recipeError} />
          </div>
        )}
        {watch && <p className="muted small watch-edit-note">Changes apply to files that arrive or change from now on: files already processed are not processed again, files in progress finish as they started.</p>}
        <FolderField label="Output folder" value={form.output} current={watch?.output} error={at('output')} onChange={(v) => set('output', v)} />
        <p className="muted small">Results go to the output folder as step/relative path of the file, with the result's extension.</p>
        <RadioCards name={`watch-conflict-${ids.conflict}`} legend="When a result is already there" options={WATCH_CONFLICTS} value={form.conflict} onChange={(v) => set('conflict', v)} />
        <label className="form-check">
          <input type="checkbox" checked={form.reprocessStale} onChange={(e) => set('reprocessStale', e.currentTarget.checked)} /> Reprocess stale: process files again even when they are unchanged since they were processed
        </label>
        <div className="form-field">
          <label className="form-field">
            <span className="field-label">After a file is processed</span>
            <select className="input" value={form.after} onChange={(e) => set('after', e.currentTarget.value as AfterKind)}>
              <option value="keep">Keep the original</option>
              <option value="delete">Delete the original</option>
              <option value="move">Move the original to another folder</option>
            </select>
          </label>
          {form.after !== 'move' && <FieldError id={ids.after} text={at('afterSuccess')} />}
        </div>
        {form.after === 'move' && <FolderField label="Move originals to" value={form.moveTo} current={watch?.afterSuccess.kind === 'move' ? watch.afterSuccess.folder : undefined} error={at('afterSuccess')} onChange={(v) => set('moveTo', v)} />}
        <div className="form-field">
          <label className="form-field">
            <span className="field-label">Wait until a file is unchanged for (seconds)</span>
            <input className="input num watch-settle" inputMode="decimal" value={form.settle} aria-invalid={at('settleMs') ? true : undefined} aria-describedby={at('settleMs') ? ids.settle : undefined} onChange={(e) => set('settle', e.currentTarget.value)} />
          </label>
          <FieldError id={ids.settle} text={at('settleMs')} />
        </div>
        {unplaced && (
          <div role="alert">
            <ErrorPanel title={watch ? 'Cannot save the changes' : 'Cannot add this watch'} code={unplaced.code} message={unplaced.message} />
          </div>
        )}
      </div>
    </ConfirmDialog>
  );
};
