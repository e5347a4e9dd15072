import { useState } from 'react';
import { stepsSchema, type Steps } from '../../../../shared/api/instructions';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatCount } from '../../lib/format';
import { useUnsavedChanges } from '../../state/navigation-store';

interface Props {
  readonly open: boolean;
  readonly count: number;
  readonly busy: boolean;
  readonly onStart: (choice: { templateId: string } | { steps: Steps }) => void;
  readonly onCancel: () => void;
}

const EXAMPLE = JSON.stringify({ resized: { robot: '/image/resize', use: ':original', width: 256, height: 256, result: true } }, null, 2);

/** The steps stored assets go through, read as input by an `/transloadit/import` step in place of uploads. */
export function parseSteps(text: string): { steps: Steps } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    return { problem: `Not JSON: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
  const parsed = stepsSchema.safeParse(value);
  if (!parsed.success) return { problem: 'Steps are an object of named steps, each with a "robot".' };
  return { steps: parsed.data };
}

/** "Use as input": a Template (its steps, the import in place of its uploads) or steps typed here. */
export const UseAsInputDialog = ({ open, count, busy, onStart, onCancel }: Props) => {
  const [mode, setMode] = useState<'template' | 'steps'>('template');
  const [templateId, setTemplateId] = useState('');
  const [text, setText] = useState(EXAMPLE);
  // Steps typed here live only in this dialog: leaving the screen with them asks first.
  useUnsavedChanges(open && mode === 'steps' && text !== EXAMPLE, 'the steps typed for the Assembly');
  const list = useBridgeQuery('templates:list', { pagesize: 850, sort: 'name', order: 'asc', includeBuiltin: 'latest' }, { enabled: open });
  const parsed = mode === 'steps' ? parseSteps(text) : null;
  const problem = mode === 'template' ? (templateId ? null : 'Choose a Template.') : parsed && 'problem' in parsed ? parsed.problem : null;
  const start = () => {
    if (problem) return;
    if (mode === 'template') onStart({ templateId });
    else if (parsed && 'steps' in parsed) onStart({ steps: parsed.steps });
  };
  return (
    <ConfirmDialog open={open} wide title={`Run an Assembly on ${formatCount(count, 'asset')}`} confirmLabel="Start Assembly" busy={busy} onConfirm={start} onCancel={onCancel}>
      <p className="muted small">
        An <code>/transloadit/import</code> step named <code>imported</code> brings the assets in; steps that read <code>:original</code> (the uploads) read it instead.
      </p>
      <div className="asset-use-modes" role="radiogroup" aria-label="Steps to run">
        <label className="toolbar-check">
          <input type="radio" name="use-mode" checked={mode === 'template'} onChange={() => setMode('template')} />
          A Template
        </label>
        <label className="toolbar-check">
          <input type="radio" name="use-mode" checked={mode === 'steps'} onChange={() => setMode('steps')} />
          Steps (JSON)
        </label>
      </div>
      {mode === 'template' ? (
        <label className="form-field">
          <span className="field-label">Template</span>
          <select className="input" value={templateId} aria-label="Template to run" onChange={(e) => setTemplateId(e.currentTarget.value)} disabled={!list.data}>
            <option value="">{list.isPending ? 'Loading Templates…' : 'Choose a Template…'}</option>
            {list.data?.items.map((t) => (
              <option key={t.id} value={t.id}>
                {t.builtinVersion ? `${t.description.split('.')[0] ?? t.name} (${t.id})` : t.name}
              </option>
            ))}
          </select>
          {list.isError && (
            <span className="field-error small">
              Could not load Templates: {list.error.code} — {list.error.message}
            </span>
          )}
        </label>
      ) : (
        <label className="form-field">
          <span className="field-label">Steps (JSON)</span>
          <textarea className="input mono asset-steps" rows={8} aria-label="Steps for the assets" value={text} onChange={(e) => setText(e.currentTarget.value)} aria-invalid={problem !== null} spellCheck={false} />
        </label>
      )}
      {problem && (
        <p className="field-error small" data-testid="use-problem">
          {problem}
        </p>
      )}
    </ConfirmDialog>
  );
};
