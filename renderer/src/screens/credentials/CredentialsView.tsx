import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CREDENTIAL_FORMS, CREDENTIAL_TYPES, looksSecret, type CredentialField } from '../../../../shared/api/credential-forms';
import type { Credential } from '../../../../shared/ipc/template-models';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { formatServiceDate } from '../../lib/template-dates';
import { useToasts } from '../../state/toast-store';

type Editing = { readonly mode: 'new' } | { readonly mode: 'edit'; readonly credential: Credential } | null;

/** Template credentials of the workspace: list, create, edit, delete. Secrets are write-only here. */
export const CredentialsView = () => {
  const list = useBridgeQuery('credentials:list', {});
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Credential | null>(null);
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const remove = useBridgeMutation('credentials:delete', {
    onSuccess: () => {
      toast(`Deleted the credentials "${deleting?.name ?? ''}".`, 'success');
      setDeleting(null);
      void client.invalidateQueries({ queryKey: ['credentials:list'] });
    },
  });

  return (
    <div className="templates-view">
      <div className="section-head">
        <h1 className="page-title">Template credentials</h1>
        <Button variant="primary" onClick={() => setEditing({ mode: 'new' })}>
          New credentials
        </Button>
      </div>
      <p className="muted">Storage steps name credentials with &quot;credentials&quot;: &quot;name&quot;, so Templates never hold secrets. Secret values can be replaced but never shown again.</p>
      {list.isError && <ErrorPanel title="Could not load credentials" code={list.error.code} message={list.error.message} httpCode={list.error.httpCode} />}
      <div className="templates-split">
        <section className="templates-list-pane" aria-label="Credentials">
          {list.isPending && <Spinner size={24} label="Loading credentials" />}
          {list.data && list.data.length === 0 && <EmptyState title="No credentials yet">Add an SFTP server, an S3 bucket or another storage, then use it from a Template.</EmptyState>}
          {list.data && list.data.length > 0 && (
            <ul className="template-list" aria-label="Credential list">
              {list.data.map((c) => (
                <li key={c.id} className="credential-row" data-testid="credential-row">
                  <span className="template-row-main">
                    <span className="template-name">{c.name}</span>
                    <span className="small muted">
                      {CREDENTIAL_FORMS[c.type]?.label ?? c.type}
                      {c.values.host ? ` · ${c.values.user ? `${c.values.user}@` : ''}${c.values.host}` : c.values.bucket ? ` · ${c.values.bucket}` : ''} · modified {formatServiceDate(c.modified)}
                    </span>
                  </span>
                  <span className="template-badges credential-actions">
                    {c.secretsSet.map((s) => (
                      <Badge key={s} tone="success" title={`A ${s} is stored`}>
                        {s} set
                      </Badge>
                    ))}
                    <Button size="sm" onClick={() => setEditing({ mode: 'edit', credential: c })} aria-label={`Edit ${c.name}`}>
                      Edit
                    </Button>
                    <Button size="sm" variant="danger" onClick={() => setDeleting(c)} aria-label={`Delete ${c.name}`}>
                      Delete
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="template-detail-pane" aria-label="Credentials form">
          {editing ? (
            <CredentialForm key={editing.mode === 'edit' ? editing.credential.id : 'new'} editing={editing} onDone={() => setEditing(null)} />
          ) : (
            <p className="muted empty-hint">Choose Edit on a credential, or make new ones.</p>
          )}
        </section>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete "${deleting?.name ?? ''}"?`}
        confirmLabel="Delete credentials"
        tone="danger"
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      >
        Steps that name these credentials will fail until you add them again.
        {remove.error && <ErrorPanel title="Not deleted" code={remove.error.code} message={remove.error.message} httpCode={remove.error.httpCode} />}
      </ConfirmDialog>
    </div>
  );
};

const CredentialForm = ({ editing, onDone }: { editing: NonNullable<Editing>; onDone: () => void }) => {
  const existing = editing.mode === 'edit' ? editing.credential : null;
  const [name, setName] = useState(existing?.name ?? '');
  const [type, setType] = useState(existing?.type ?? 'sftp');
  const [values, setValues] = useState<Record<string, string>>(existing?.values ?? {});
  const [extraName, setExtraName] = useState('');
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const onSuccess = (c: Credential) => {
    toast(`Saved the credentials "${c.name}".`, 'success');
    void client.invalidateQueries({ queryKey: ['credentials:list'] });
    onDone();
  };
  const create = useBridgeMutation('credentials:create', { onSuccess });
  const update = useBridgeMutation('credentials:update', { onSuccess });
  const error = create.error ?? update.error;
  const busy = create.isPending || update.isPending;

  const form = CREDENTIAL_FORMS[type];
  const fields: CredentialField[] = form
    ? [...form.fields]
    : [...new Set([...Object.keys(values), ...(existing?.secretsSet ?? [])])].map((n) => ({ name: n, label: n, secret: looksSecret(n) }));
  const stored = new Set(existing?.type === type ? existing.secretsSet : []);
  const nameOk = /^[a-zA-Z-]{4,}$/.test(name);
  const missing = fields.filter((f) => f.required && !(values[f.name] ?? '').trim() && !(f.secret && stored.has(f.name)));
  const set = (field: string, value: string) => setValues({ ...values, [field]: value });

  return (
    <form
      className="template-detail credential-form"
      aria-label={existing ? `Edit ${existing.name}` : 'New credentials'}
      onSubmit={(e) => {
        e.preventDefault();
        const request = { name, type, values };
        if (existing) update.mutate({ id: existing.id, ...request });
        else create.mutate(request);
      }}
    >
      <h2 className="section-title">{existing ? `Edit "${existing.name}"` : 'New credentials'}</h2>
      {error && <ErrorPanel title="The credentials were not saved" code={error.code} message={error.message} httpCode={error.httpCode} data-testid="credential-error" />}
      <label className="form-field">
        <span className="field-label">Name</span>
        <input className="input" value={name} onChange={(e) => setName(e.currentTarget.value)} aria-invalid={name !== '' && !nameOk} data-testid="credential-name" />
        {name !== '' && !nameOk && <span className="field-error">At least 4 characters: latin letters and dashes.</span>}
      </label>
      <label className="form-field">
        <span className="field-label">Type</span>
        <select className="input" value={type} onChange={(e) => setType(e.currentTarget.value)} aria-label="Type">
          {CREDENTIAL_TYPES.map((t) => (
            <option key={t} value={t}>
              {CREDENTIAL_FORMS[t]?.label ?? t}
            </option>
          ))}
        </select>
      </label>
      {fields.map((f) => {
        const placeholder = f.secret && stored.has(f.name) ? 'Stored — leave empty to keep it' : (f.placeholder ?? '');
        const common = {
          className: 'input',
          value: values[f.name] ?? '',
          placeholder,
          'aria-label': f.label,
          autoComplete: 'off',
          spellCheck: false,
        };
        return (
          <label key={f.name} className="form-field">
            <span className="field-label">
              {f.label}
              {f.required ? ' *' : ''} {f.secret && <span className="muted small">(write-only)</span>}
            </span>
            {f.multiline ? (
              <textarea {...common} className="input textarea mono" rows={4} onChange={(e) => set(f.name, e.currentTarget.value)} />
            ) : (
              <input {...common} type={f.secret ? 'password' : 'text'} onChange={(e) => set(f.name, e.currentTarget.value)} />
            )}
          </label>
        );
      })}
      {!form && (
        <div className="field-row">
          <input className="input" value={extraName} placeholder="Field name" aria-label="New field name" onChange={(e) => setExtraName(e.currentTarget.value)} />
          <Button size="sm" disabled={!extraName.trim()} onClick={() => (set(extraName.trim(), values[extraName.trim()] ?? ''), setExtraName(''))}>
            Add field
          </Button>
        </div>
      )}
      <div className="template-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} disabled={busy || !nameOk || missing.length > 0} title={missing.length ? `Fill in ${missing.map((f) => f.label).join(', ')}` : undefined}>
          Save credentials
        </Button>
      </div>
    </form>
  );
};
