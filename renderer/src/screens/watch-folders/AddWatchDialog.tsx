import { useState } from 'react';
import { PRESETS } from '../../../../shared/api/presets';
import type { FolderRef, WatchFolderInput } from '../../../../shared/ipc/watch-folder-models';
import { unwrap } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { parseFieldLines, settleMsOf } from './watch-view';

/**
 * A folder: the native dialog in the Electron host (the page gets a handle, never the path); in the
 * browser host, whose picker copies files rather than naming a folder, the absolute path typed.
 */
const FolderField = ({ label, value, onChange }: { label: string; value: FolderRef | null; onChange: (ref: FolderRef | null) => void }) => {
  const bridge = useBridge();
  const [picked, setPicked] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (bridge.host === 'electron' && bridge.pickFolder) {
    const pick = bridge.pickFolder;
    return (
      <div className="form-field">
        <span className="field-label">{label}</span>
        <div className="watch-pick-row">
          <Button
            size="sm"
            aria-label={`Choose ${label.toLowerCase()}`}
            onClick={async () => {
              try {
                const roots = unwrap(await pick());
                const root = roots?.[0];
                if (root) {
                  onChange({ handle: root.handle });
                  setPicked('Folder chosen');
                }
              } catch (cause) {
                setError(cause instanceof Error ? cause.message : String(cause));
              }
            }}
          >
            Choose…
          </Button>
          <span className="muted small">{picked ?? 'No folder chosen'}</span>
        </div>
        {error && <span className="field-error">{error}</span>}
      </div>
    );
  }
  return (
    <label className="form-field">
      <span className="field-label">{label}</span>
      <input className="input mono" value={value && 'path' in value ? value.path : ''} placeholder="/home/me/Incoming" onChange={(e) => onChange(e.currentTarget.value.trim() ? { path: e.currentTarget.value.trim() } : null)} />
    </label>
  );
};

type AfterKind = 'keep' | 'delete' | 'move';

/** The add dialog: folder, Template (and fields) or preset, output folder, reprocess stale, after success, settle time. */
export const AddWatchDialog = ({ open, busy, error, onAdd, onCancel }: { open: boolean; busy: boolean; error: { code: string; message: string } | null; onAdd: (input: WatchFolderInput) => void; onCancel: () => void }) => {
  const templates = useBridgeQuery('templates:list', { pagesize: 850, sort: 'name', order: 'asc', includeBuiltin: 'none' }, { enabled: open });
  const [folder, setFolder] = useState<FolderRef | null>(null);
  const [output, setOutput] = useState<FolderRef | null>(null);
  const [recipe, setRecipe] = useState(`preset:${PRESETS[0]?.id ?? ''}`);
  const [fieldText, setFieldText] = useState('');
  const [reprocessStale, setReprocessStale] = useState(false);
  const [after, setAfter] = useState<AfterKind>('keep');
  const [moveTo, setMoveTo] = useState<FolderRef | null>(null);
  const [settle, setSettle] = useState('2');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    if (!folder || !output) return setProblem('Choose the folder to watch and the output folder.');
    const settleMs = settleMsOf(settle);
    if (settleMs === null) return setProblem('The settle time is between 0.2 and 600 seconds.');
    const [kind, id] = [recipe.slice(0, recipe.indexOf(':')), recipe.slice(recipe.indexOf(':') + 1)];
    const parsed = parseFieldLines(fieldText);
    if ('error' in parsed) return setProblem(parsed.error);
    if (after === 'move' && !moveTo) return setProblem('Choose where to move the originals.');
    setProblem(null);
    onAdd({
      folder,
      output,
      recipe: kind === 'template' ? { kind: 'template', templateId: id, fields: parsed.fields } : { kind: 'preset', presetId: id },
      reprocessStale,
      afterSuccess: after === 'move' && moveTo ? { kind: 'move', folder: moveTo } : after === 'delete' ? { kind: 'delete' } : { kind: 'keep' },
      settleMs,
    });
  };

  const usesTemplate = recipe.startsWith('template:');
  return (
    <ConfirmDialog open={open} title="Add a watch folder" confirmLabel="Start watching" busy={busy} wide onConfirm={submit} onCancel={onCancel}>
      <div className="watch-form" data-testid="watch-add-form">
        <FolderField label="Folder to watch" value={folder} onChange={setFolder} />
        <label className="form-field">
          <span className="field-label">Process each file with</span>
          <select className="input" value={recipe} onChange={(e) => setRecipe(e.currentTarget.value)}>
            <optgroup label="Ready-made steps">
              {PRESETS.map((p) => (
                <option key={p.id} value={`preset:${p.id}`}>
                  {p.label}
                </option>
              ))}
            </optgroup>
            {templates.data && templates.data.items.length > 0 && (
              <optgroup label="Templates">
                {templates.data.items.map((t) => (
                  <option key={t.id} value={`template:${t.id}`}>
                    {t.name}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
          {templates.isError && <span className="muted small">Templates could not be loaded ({templates.error.code}); the ready-made steps still work.</span>}
        </label>
        {usesTemplate && (
          <label className="form-field">
            <span className="field-label">Fields</span>
            <textarea className="input mono" rows={3} value={fieldText} placeholder={'name=value\n(one a line)'} onChange={(e) => setFieldText(e.currentTarget.value)} />
          </label>
        )}
        <FolderField label="Output folder" value={output} onChange={setOutput} />
        <p className="muted small">Results go to the output folder as step/relative path of the file, with the result's extension.</p>
        <label className="form-check">
          <input type="checkbox" checked={reprocessStale} onChange={(e) => setReprocessStale(e.currentTarget.checked)} /> Reprocess stale: process files again even when they are unchanged since they were processed
        </label>
        <label className="form-field">
          <span className="field-label">After a file is processed</span>
          <select className="input" value={after} onChange={(e) => setAfter(e.currentTarget.value as AfterKind)}>
            <option value="keep">Keep the original</option>
            <option value="delete">Delete the original</option>
            <option value="move">Move the original to another folder</option>
          </select>
        </label>
        {after === 'move' && <FolderField label="Move originals to" value={moveTo} onChange={setMoveTo} />}
        <label className="form-field">
          <span className="field-label">Wait until a file is unchanged for (seconds)</span>
          <input className="input num watch-settle" inputMode="decimal" value={settle} onChange={(e) => setSettle(e.currentTarget.value)} />
        </label>
        {(problem ?? error) && (
          <div role="alert">
            <ErrorPanel title="Cannot add this watch" code={problem ? 'INVALID' : (error?.code ?? '')} message={problem ?? error?.message ?? ''} />
          </div>
        )}
      </div>
    </ConfirmDialog>
  );
};
