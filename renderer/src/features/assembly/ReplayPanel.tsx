import { useState } from 'react';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { EMPTY_REPLAY_FORM, replayOptionsOf, type ReplayForm } from './replay-form';

const EXAMPLE = '{\n  ":original": { "robot": "/upload/handle" },\n  "resized": { "use": ":original", "robot": "/image/resize", "width": 640 }\n}';

/**
 * Run the Assembly again as a new one over the same files: as it ran, with new steps, or under another
 * Template (read again, or as it was), optionally notifying another URL. The service checks the rest.
 */
export const ReplayPanel = ({ assemblyId, templateId, onDone, onCancel }: { assemblyId: string; templateId: string | null; onDone: (newId: string) => void; onCancel: () => void }) => {
  const [form, setForm] = useState<ReplayForm>({ ...EMPTY_REPLAY_FORM, templateId: templateId ?? '' });
  const [shownProblem, setShownProblem] = useState(false);
  const templates = useBridgeQuery('templates:list', {}, { enabled: form.mode === 'template' });
  const replay = useBridgeMutation('assemblies:replay', { onSuccess: (started) => onDone(started.assemblyId) });
  const checked = replayOptionsOf(form);
  const problem = shownProblem && !checked.ok ? checked : null;
  const set = (change: Partial<ReplayForm>) => setForm((f) => ({ ...f, ...change }));

  const submit = () => {
    setShownProblem(true);
    if (checked.ok) replay.mutate({ assemblyId, ...checked.options });
  };

  return (
    <section className="card asm-replay" aria-labelledby="replay-title" data-testid="replay-panel">
      <h2 id="replay-title" className="section-title">
        Replay this Assembly
      </h2>
      <fieldset className="asm-replay-modes">
        <legend className="small muted">Run it</legend>
        <label className="toolbar-check">
          <input type="radio" name="replay-mode" checked={form.mode === 'same'} onChange={() => set({ mode: 'same' })} />
          With the steps it ran with
        </label>
        <label className="toolbar-check">
          <input type="radio" name="replay-mode" checked={form.mode === 'steps'} onChange={() => set({ mode: 'steps', stepsText: form.stepsText || EXAMPLE })} />
          With new steps
        </label>
        <label className="toolbar-check">
          <input type="radio" name="replay-mode" checked={form.mode === 'template'} onChange={() => set({ mode: 'template' })} />
          Under another Template
        </label>
      </fieldset>
      {form.mode === 'steps' && (
        <label className="form-field">
          <span className="small">New steps (JSON)</span>
          <textarea
            className="input asm-steps"
            aria-label="New steps (JSON)"
            spellCheck={false}
            rows={8}
            value={form.stepsText}
            aria-invalid={problem?.field === 'steps'}
            onChange={(e) => set({ stepsText: e.currentTarget.value })}
          />
          {problem?.field === 'steps' && (
            <span className="field-error" data-testid="replay-steps-error">
              {problem.message}
            </span>
          )}
        </label>
      )}
      {form.mode === 'template' && (
        <label className="form-field">
          <span className="small">Template</span>
          <select className="input" aria-label="Replay Template" value={form.templateId} onChange={(e) => set({ templateId: e.currentTarget.value })} aria-invalid={problem?.field === 'template'}>
            <option value="">Choose a Template…</option>
            {(templates.data?.items ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
          {problem?.field === 'template' && <span className="field-error">{problem.message}</span>}
        </label>
      )}
      {form.mode !== 'steps' && (
        <label className="toolbar-check">
          <input type="checkbox" checked={form.reparse} onChange={(e) => set({ reparse: e.currentTarget.checked })} />
          Read the Template again (as it is now, not as it was when this ran)
        </label>
      )}
      <label className="form-field">
        <span className="small">Notify URL (optional; empty keeps the original's)</span>
        <input className="input" type="url" aria-label="Replay notify URL" placeholder="https://example.com/webhook" value={form.notifyUrl} aria-invalid={problem?.field === 'notifyUrl'} onChange={(e) => set({ notifyUrl: e.currentTarget.value })} />
        {problem?.field === 'notifyUrl' && <span className="field-error">{problem.message}</span>}
      </label>
      {replay.isError && <ErrorPanel data-testid="replay-error" title="The service did not replay it" code={replay.error.code} message={replay.error.message} />}
      <div className="toolbar-actions">
        <Button variant="primary" busy={replay.isPending} onClick={submit}>
          Replay
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
};
