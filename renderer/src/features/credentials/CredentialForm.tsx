import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CREDENTIAL_FORMS, credentialFieldProblem, isDestinationField, looksSecret, type CredentialField } from '../../../../shared/api/credential-forms';
import { CREDENTIAL_NAME_HINT, credentialNameProblem } from '../../../../shared/api/credential-name';
import type { Credential } from '../../../../shared/ipc/template-models';
import { useBridgeMutation } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { InlineForm, InlineFormCancel } from '../../components/InlineForm';
import { RadioCards, type RadioCardOption } from '../../components/RadioCards';
import { isDirty } from '../../lib/form-dirty';
import { useToasts } from '../../state/toast-store';
import { CredentialTestReportView } from './CredentialTestReportView';
import { TestPathField } from './TestPathField';
import { TypeSelect } from './TypeSelect';

export type Editing = { readonly mode: 'new' } | { readonly mode: 'edit'; readonly credential: Credential };

/** Service errors about the name are shown at the name field, the rest above the form. */
const isNameError = (e: { code: string; message: string } | null): boolean =>
  !!e && (e.code === 'TEMPLATE_CREDENTIALS_NAME_TAKEN' || (e.code === 'TEMPLATE_CREDENTIALS_INVALID' && e.message.startsWith('name')));

type ContentMode = 'fields' | 'value';
// The spec lets content be any JSON value; storage robots need fields, an API token may be one value.
const CONTENT_MODES: readonly RadioCardOption<ContentMode>[] = [
  { value: 'fields', label: 'Fields', description: 'Named settings, as storage steps read them.' },
  { value: 'value', label: 'One value', description: 'A token, or any JSON value (a list, a number…), stored as it is.' },
];

export const CredentialForm = ({ editing, onDone }: { editing: Editing; onDone: () => void }) => {
  const existing = editing.mode === 'edit' ? editing.credential : null;
  const [name, setName] = useState(existing?.name ?? '');
  const [type, setType] = useState(existing?.type ?? 'sftp');
  const [values, setValues] = useState<Record<string, string>>(existing?.values ?? {});
  const [extraName, setExtraName] = useState('');
  const [testPath, setTestPath] = useState('');
  const [mode, setMode] = useState<ContentMode>(existing?.contentKind === 'value' ? 'value' : 'fields');
  const [oneValue, setOneValue] = useState('');
  const [initial] = useState({ name, type, values, mode, oneValue });
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const onSuccess = (c: Credential) => {
    toast(`Saved the credentials "${c.name}".`, 'success');
    void client.invalidateQueries({ queryKey: ['credentials:list'] });
    onDone();
  };
  const create = useBridgeMutation('credentials:create', { onSuccess });
  const update = useBridgeMutation('credentials:update', { onSuccess });
  const test = useBridgeMutation('credentials:test');
  const error = create.error ?? update.error;
  const busy = create.isPending || update.isPending;

  const form = CREDENTIAL_FORMS[type];
  const fields: CredentialField[] = form
    ? [...form.fields]
    : [...new Set([...Object.keys(values), ...(existing?.secretsSet ?? [])])].map((n) => ({ name: n, label: n, secret: looksSecret(n) }));
  // Moved elsewhere (host, port, URL), the stored secrets stay behind: core drops them (security/secret-destination.ts).
  const moved =
    existing !== null && existing.type === type && Object.keys({ ...existing.values, ...values }).some((n) => isDestinationField(type, n) && (values[n] ?? '').trim() !== (existing.values[n] ?? '').trim());
  const stored = new Set(existing?.type === type && !moved ? existing.secretsSet : []);
  const storedElsewhere = new Set(existing?.type === type && moved ? existing.secretsSet : []);
  const nameProblem = credentialNameProblem(name);
  const showNameProblem = name !== '' && nameProblem !== null;
  const nameError = isNameError(error) ? error!.message.replace(/^name: /, '') : null;
  // A stored one value is write-only: left empty on edit it is kept.
  const valueStored = existing?.contentKind === 'value';
  const missing =
    mode === 'value'
      ? oneValue.trim() || valueStored ? [] : [{ name: 'value', label: 'Value' }]
      : fields.filter((f) => f.required && !(values[f.name] ?? '').trim() && !(f.secret && stored.has(f.name)));
  // A host, port or URL that cannot be one, said at its field; Test and Save wait until it is fixed.
  const fieldProblems = mode === 'fields' ? Object.fromEntries(fields.flatMap((f) => { const p = credentialFieldProblem(f, values[f.name] ?? ''); return p ? [[f.name, p]] : []; })) : {};
  const firstFieldProblem = Object.values(fieldProblems)[0] ?? null;
  const set = (field: string, value: string) => {
    setValues({ ...values, [field]: value });
    test.reset();
  };
  // Only the fields of the type shown are sent (a type switch leaves no stray fields behind).
  const shownValues = () => Object.fromEntries(fields.map((f) => [f.name, values[f.name] ?? '']));
  const runTest = () => test.mutate({ ...(existing ? { id: existing.id } : {}), draft: { type, values: shownValues(), clear: [] }, ...(testPath.trim() ? { path: testPath.trim() } : {}) });

  return (
    <InlineForm
      className="template-detail credential-form"
      aria-label={existing ? `Edit ${existing.name}` : 'New credentials'}
      dirty={isDirty(initial, { name, type, values, mode, oneValue })}
      onCancel={onDone}
      onSubmit={(e) => {
        e.preventDefault();
        const request = mode === 'value' ? { name, type, values: {}, value: oneValue } : { name, type, values };
        if (existing) update.mutate({ id: existing.id, ...request });
        else create.mutate(request);
      }}
    >
      <h2 className="section-title">{existing ? `Edit "${existing.name}"` : 'New credentials'}</h2>
      {error && !nameError && <ErrorPanel title="The credentials were not saved" code={error.code} message={error.message} httpCode={error.httpCode} data-testid="credential-error" />}
      <label className="form-field">
        <span className="field-label">Name *</span>
        <input
          className="input mono"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            create.reset();
            update.reset();
          }}
          aria-invalid={showNameProblem || nameError !== null}
          aria-describedby="credential-name-hint"
          autoComplete="off"
          spellCheck={false}
          data-testid="credential-name"
        />
        <span id="credential-name-hint" className={showNameProblem || nameError ? 'field-error' : 'small muted'} data-testid="credential-name-hint">
          {nameError ?? (showNameProblem ? nameProblem : `${CREDENTIAL_NAME_HINT} Steps name them with "credentials".`)}
        </span>
      </label>
      <TypeSelect
        value={type}
        onChange={(t) => {
          setType(t);
          test.reset();
        }}
      />
      <RadioCards name="credential-content" legend="Content" options={CONTENT_MODES} value={mode} onChange={(m) => (setMode(m), test.reset())} />
      {mode === 'value' && (
        <label className="form-field">
          <span className="field-label">
            Value{valueStored ? '' : ' *'} <span className="muted small">(write-only)</span>
          </span>
          <textarea
            className="input textarea mono"
            rows={3}
            value={oneValue}
            placeholder={valueStored ? 'Stored — leave empty to keep it' : 'sk-live-… or ["a", "b"]'}
            aria-label="Value"
            aria-describedby="credential-value-hint"
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setOneValue(e.currentTarget.value)}
            data-testid="credential-value"
          />
          <span id="credential-value-hint" className="small muted">
            JSON text is stored as that value (a list, a number, &quot;quoted text&quot;); anything else as text.
          </span>
        </label>
      )}
      {mode === 'fields' && fields.map((f) => {
        const placeholder =
          f.secret && stored.has(f.name)
            ? 'Stored — leave empty to keep it'
            : f.secret && storedElsewhere.has(f.name)
              ? 'Type it again: the stored one stays with the old address'
              : (f.placeholder ?? '');
        const common = {
          className: 'input',
          value: values[f.name] ?? '',
          placeholder,
          'aria-label': f.label,
          autoComplete: 'off',
          spellCheck: false,
        };
        const problem = fieldProblems[f.name];
        const problemId = `credential-field-${f.name}-problem`;
        const marks = problem ? { 'aria-invalid': true, 'aria-describedby': problemId } : {};
        return (
          <label key={f.name} className="form-field">
            <span className="field-label">
              {f.label}
              {f.required ? ' *' : ''} {f.secret && <span className="muted small">(write-only)</span>}
            </span>
            {f.multiline ? (
              <textarea {...common} {...marks} className="input textarea mono" rows={4} onChange={(e) => set(f.name, e.currentTarget.value)} />
            ) : (
              <input {...common} {...marks} type={f.secret ? 'password' : 'text'} inputMode={f.kind === 'port' ? 'numeric' : undefined} onChange={(e) => set(f.name, e.currentTarget.value)} />
            )}
            {problem && (
              <span className="field-error" id={problemId} data-testid="credential-field-problem">
                {problem}
              </span>
            )}
          </label>
        );
      })}
      {mode === 'fields' && !form && (
        <div className="field-row">
          <input className="input" value={extraName} placeholder="Field name" aria-label="New field name" onChange={(e) => setExtraName(e.currentTarget.value)} />
          <Button size="sm" disabled={!extraName.trim()} onClick={() => (set(extraName.trim(), values[extraName.trim()] ?? ''), setExtraName(''))}>
            Add field
          </Button>
        </div>
      )}
      {mode === 'fields' && type === 'sftp' && <TestPathField value={testPath} onChange={setTestPath} />}
      {test.error && <ErrorPanel title="Could not test" code={test.error.code} message={test.error.message} httpCode={test.error.httpCode} />}
      {test.data && !test.isPending && <CredentialTestReportView report={test.data} />}
      <div className="template-actions">
        <InlineFormCancel />
        <Button
          onClick={runTest}
          busy={test.isPending}
          disabled={test.isPending || missing.length > 0 || mode === 'value' || firstFieldProblem !== null}
          title={mode === 'value' ? 'A test connects with fields (host, user…)' : missing.length ? `Fill in ${missing.map((f) => f.label).join(', ')}` : (firstFieldProblem ?? 'Connect with these settings now, before saving')}
        >
          Test credential
        </Button>
        <Button type="submit" variant="primary" busy={busy} disabled={busy || nameProblem !== null || missing.length > 0 || firstFieldProblem !== null} title={missing.length ? `Fill in ${missing.map((f) => f.label).join(', ')}` : (firstFieldProblem ?? undefined)}>
          Save credentials
        </Button>
      </div>
    </InlineForm>
  );
};
