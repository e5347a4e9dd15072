import { useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { Template } from '../../../../shared/ipc/template-models';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { CodeEditor, type LineDiagnostic } from '../../components/CodeEditor';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DiffView } from '../../components/DiffView';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { checkTemplateText, lineOfProblem, templateNotes } from './template-checks';
import { formatContent } from './template-dates';
import { isDirty } from '../../lib/form-dirty';
import { useNavigation, useUnsavedChanges } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import './templates.css';

const STARTER = formatContent({
  steps: {
    ':original': { robot: '/upload/handle' },
    resized: { robot: '/image/resize', use: ':original', width: 1024, height: 1024, resize_strategy: 'fit' },
  },
});

/**
 * Where the service's refusal points in the text: its error body names the step and the parameter
 * (`step`, `parameter`); null when it names neither (a bad name, a network error).
 */
const serviceProblemAt = (text: string, error: { code: string; message: string; details?: Record<string, unknown> | undefined }) => {
  const step = typeof error.details?.step === 'string' ? error.details.step : undefined;
  const parameter = typeof error.details?.parameter === 'string' ? error.details.parameter : undefined;
  if (step === undefined && parameter === undefined) return null;
  const line = lineOfProblem(text, { step, parameter });
  const where = [step !== undefined ? `step "${step}"` : null, parameter !== undefined ? `"${parameter}"` : null].filter(Boolean).join(', ');
  return { code: error.code, message: error.message, line, where: `line ${line}, ${where}` };
};

/** Create, edit or duplicate: loads the Template first when there is one. */
export const TemplateEditor = ({ id, copy = false }: { id?: string | undefined; copy?: boolean | undefined }) => {
  const existing = useBridgeQuery('templates:get', { id: id ?? '' }, { enabled: id !== undefined });
  if (id !== undefined && existing.isPending) {
    return (
      <div className="center-pane">
        <Spinner size={24} label="Loading the Template" />
      </div>
    );
  }
  if (id !== undefined && existing.isError) {
    return <ErrorPanel title="Could not load the Template" code={existing.error.code} message={existing.error.message} httpCode={existing.error.httpCode} />;
  }
  return <TemplateForm original={existing.data ?? null} copy={copy} />;
};

const TemplateForm = ({ original, copy }: { original: Template | null; copy: boolean }) => {
  const navigate = useNavigation((s) => s.navigate);
  const toast = useToasts((s) => s.show);
  const client = useQueryClient();
  const editing = original !== null && !copy;
  const [name, setName] = useState(original ? (copy ? `${original.name} (copy)` : original.name) : '');
  const [description, setDescription] = useState(original?.description ?? '');
  const [requireSignature, setRequireSignature] = useState(original?.requireSignatureAuth === 1);
  const [text, setText] = useState(original ? formatContent(original.content) : STARTER);
  const [reviewing, setReviewing] = useState(false);
  // What the editor opened with: leaving with anything else asks first (the navigation guard).
  const [initial] = useState(() => ({ name, description, requireSignature, text }));
  useUnsavedChanges(isDirty(initial, { name, description, requireSignature, text }), 'the Template editor');

  const check = useMemo(() => checkTemplateText(text), [text]);
  const notes = useMemo(() => (check.kind === 'ok' ? templateNotes(text, check.content) : []), [check, text]);
  const nameError = name.trim() === '' ? 'Give the Template a name.' : name.trim().length > 255 ? 'Names are at most 255 characters.' : null;
  // Red only once the user has been in the field (or tried to save): not before anything is typed.
  const [nameTouched, setNameTouched] = useState(false);
  const showNameError = nameError !== null && nameTouched;
  const nameErrorId = useId();
  const blocked = nameError ?? (check.kind === 'ok' ? null : 'Fix the problems in the content to save.');

  const done = (saved: Template, verb: string) => {
    setReviewing(false);
    void client.invalidateQueries({ queryKey: ['templates:list'] });
    client.setQueryData(['templates:get', { id: saved.id }], saved);
    toast(`${verb} the Template "${saved.name}".`, 'success');
    // Back must not reopen the editor of what was just saved; what it held is saved, so nothing to ask.
    navigate({ name: 'templates', selectedId: saved.id }, { replace: true, force: true });
  };
  const create = useBridgeMutation('templates:create', { onSuccess: (t) => done(t, 'Created') });
  // A refused save closes the review, so the marker the service's error puts in the editor is in view.
  const update = useBridgeMutation('templates:update', { onSuccess: (t) => done(t, 'Saved'), onError: () => setReviewing(false) });
  const saving = create.isPending || update.isPending;
  const error = create.error ?? update.error;
  // The service's word on the content, at the line of the step and parameter it names (they follow edits).
  const serviceProblem = useMemo(() => (error ? serviceProblemAt(text, error) : null), [error, text]);
  const diagnostics = useMemo<LineDiagnostic[]>(() => {
    const local: LineDiagnostic[] =
      check.kind === 'syntax'
        ? [{ line: check.error.line, column: check.error.column, message: check.error.message }]
        : check.kind === 'invalid'
          ? check.problems.map((p) => ({ line: p.line, message: `${p.message} (${p.code})` }))
          : [];
    const warnings = notes.map((n): LineDiagnostic => ({ line: n.line, message: n.message, severity: 'warning' }));
    return serviceProblem ? [...local, ...warnings, { line: serviceProblem.line, message: `The service: ${serviceProblem.message} (${serviceProblem.code})` }] : [...local, ...warnings];
  }, [check, notes, serviceProblem]);

  const input = () => ({
    name: name.trim(),
    content: check.kind === 'ok' ? check.content : null,
    requireSignatureAuth: requireSignature ? (1 as const) : (0 as const),
    description,
  });
  const save = () => {
    setNameTouched(true);
    if (blocked) return;
    if (editing) setReviewing(true);
    else create.mutate(input());
  };

  const title = editing ? `Edit "${original.name}"` : copy && original ? `Duplicate "${original.name}"` : 'New Template';
  return (
    <form
      className="template-editor"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <div className="section-head">
        <h1 className="page-title">{title}</h1>
        <div className="editor-actions">
          <Button onClick={() => navigate({ name: 'templates', ...(original ? { selectedId: original.id } : {}) })}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={blocked !== null || saving} busy={saving && !reviewing} title={blocked ?? undefined}>
            {editing ? 'Review and save…' : 'Save Template'}
          </Button>
        </div>
      </div>
      {error && (
        <ErrorPanel
          title="The Template was not saved"
          code={error.code}
          message={error.message}
          httpCode={error.httpCode}
          facts={serviceProblem ? [{ label: 'At', value: serviceProblem.where }] : []}
          data-testid="template-save-error"
        />
      )}
      <div className="form-grid">
        <label className="form-field">
          <span className="field-label">Name</span>
          <input
            className="input"
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameTouched(true);
            }}
            onBlur={() => setNameTouched(true)}
            aria-invalid={showNameError}
            aria-describedby={nameErrorId}
            maxLength={300}
            required
            data-testid="template-name"
          />
          {/* The line is always there, so the fields beside and below do not move when it fills. */}
          <span className="field-error field-slot" id={nameErrorId}>
            {showNameError ? nameError : ''}
          </span>
        </label>
        <label className="form-field">
          <span className="field-label">Description</span>
          <input className="input" value={description} onChange={(e) => setDescription(e.currentTarget.value)} maxLength={1000} />
        </label>
        <label className="toolbar-check form-check">
          <input type="checkbox" checked={requireSignature} onChange={(e) => setRequireSignature(e.currentTarget.checked)} />
          Require a signature for Assemblies that use it
        </label>
      </div>
      <span className="field-label">Content (JSON)</span>
      <CodeEditor value={text} onChange={setText} diagnostics={diagnostics} label="Template content (JSON)" height="440px" data-testid="template-editor" />
      <div className="steps-status" aria-live="polite" data-testid="template-check">
        {check.kind === 'syntax' && (
          <p className="steps-error">
            Line {check.error.line}, column {check.error.column}: {check.error.message} — expected {check.error.expected}.
          </p>
        )}
        {check.kind === 'invalid' && (
          <ul className="steps-error">
            {check.problems.map((p, i) => (
              <li key={i}>
                Line {p.line}: {p.message} <code className="code-chip">{p.code}</code>
              </li>
            ))}
          </ul>
        )}
        {check.kind === 'ok' && serviceProblem && (
          <p className="steps-error">
            Line {serviceProblem.line}: the service refused it: {serviceProblem.message} <code className="code-chip">{serviceProblem.code}</code>
          </p>
        )}
        {check.kind === 'ok' && !serviceProblem && <span className="steps-ok">Looks valid. The service checks the rest when you save.</span>}
        {notes.length > 0 && (
          <ul className="steps-notes" data-testid="template-notes">
            {notes.map((n, i) => (
              <li key={i}>
                Line {n.line}: {n.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      {editing && (
        <ConfirmDialog
          open={reviewing}
          wide
          title="Review your changes"
          confirmLabel="Save changes"
          busy={update.isPending}
          onCancel={() => setReviewing(false)}
          onConfirm={() => update.mutate({ id: original.id, ...input() })}
        >
          {name.trim() !== original.name && (
            <p>
              Name: <del>{original.name}</del> → <ins>{name.trim()}</ins>
            </p>
          )}
          {requireSignature !== (original.requireSignatureAuth === 1) && <p>Signature {requireSignature ? 'will be required' : 'will no longer be required'}.</p>}
          {formatContent(original.content) === text.trim() ? <p className="muted">The content is unchanged.</p> : <DiffView before={formatContent(original.content)} after={text} label="Template content" />}
          {update.error && <ErrorPanel title="The Template was not saved" code={update.error.code} message={update.error.message} httpCode={update.error.httpCode} />}
        </ConfirmDialog>
      )}
    </form>
  );
};
