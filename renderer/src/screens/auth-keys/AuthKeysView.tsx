import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AuthKey } from '../../../../shared/ipc/template-models';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { formatServiceDate } from '../../lib/template-dates';
import { useNavigation } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import { ScopePicker } from './ScopePicker';

type Editing = { readonly mode: 'new' } | { readonly mode: 'edit'; readonly key: AuthKey } | null;

/** Auth Keys of the workspace's account: state, scopes, algorithm, last use; secrets never reach this page. */
export const AuthKeysView = () => {
  const info = useBridgeQuery('app:info', {});
  const list = useBridgeQuery('authKeys:list', {});
  const workspaces = useBridgeQuery('workspaces:list', {});
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AuthKey | null>(null);
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const navigate = useNavigation((s) => s.navigate);
  const refresh = () => void client.invalidateQueries({ queryKey: ['authKeys:list'] });
  const active = workspaces.data?.find((w) => w.id === info.data?.activeWorkspaceId);

  const update = useBridgeMutation('authKeys:update', {
    onSuccess: (k) => {
      toast(`${k.authKey.slice(0, 12)}… is now ${k.isActive ? 'active' : 'inactive'}.`, 'success');
      refresh();
    },
    onError: (e) => toast(`${e.code}: ${e.message}`, 'danger'),
  });
  const remove = useBridgeMutation('authKeys:delete', {
    onSuccess: () => {
      toast('Deleted the key.', 'success');
      setDeleting(null);
      refresh();
    },
  });
  const copy = useBridgeMutation('authKeys:copySecret', {
    onSuccess: (r) => toast(`The secret is on the clipboard; it is cleared in ${r.clearsInSeconds} seconds.`, 'success'),
    onError: (e) => toast(`${e.code}: ${e.message}`, 'danger'),
  });

  return (
    <div className="templates-view auth-keys-view">
      <div className="section-head">
        <h1 className="page-title">Auth Keys</h1>
        <Button variant="primary" onClick={() => setEditing({ mode: 'new' })} disabled={!list.data}>
          New key
        </Button>
      </div>
      <p className="muted">
        Keys of {active ? <strong>{active.name}</strong> : 'this workspace'}. Secrets stay in the main process: Copy secret puts one on the clipboard and clears it
        shortly after.
      </p>
      {list.isError && (
        <ErrorPanel
          title="Could not load Auth Keys"
          code={list.error.code}
          message={list.error.message}
          httpCode={list.error.httpCode}
          data-testid="auth-keys-error"
          action={<Button onClick={() => navigate({ name: 'workspaces' })}>Open Workspaces</Button>}
        />
      )}
      {!list.isError && (
      <div className="templates-split">
        <section className="templates-list-pane" aria-label="Auth Keys">
          {list.isPending && <Spinner size={24} label="Loading Auth Keys" />}
          {list.data && list.data.length === 0 && <EmptyState title="No keys">Create one to give a tool or a colleague its own access.</EmptyState>}
          {list.data && list.data.length > 0 && (
            <ul className="template-list" aria-label="Auth Key list">
              {list.data.map((k) => (
                <li key={k.id} className="auth-key-row" data-testid="auth-key-row" data-key={k.authKey}>
                  <span className="template-row-main">
                    <span className="template-name mono" title={k.authKey}>
                      {k.authKey}
                    </span>
                    <span className="small">{k.description || <span className="muted">No description</span>}</span>
                    <span className="small muted">
                      {k.scopes === null ? 'All scopes' : k.scopes.join(', ')} · {k.signatureAlgo ?? `${k.smartCdn ? 'sha256' : 'sha384'} (default)`} · last used {k.lastUsed ? formatServiceDate(k.lastUsed) : 'never'}
                    </span>
                  </span>
                  <span className="template-badges">
                    {k.authKey === active?.authKey && <Badge tone="info">This workspace</Badge>}
                    <Badge tone={k.isActive ? 'success' : 'neutral'} data-testid="key-state">
                      {k.isActive ? 'Active' : 'Inactive'}
                    </Badge>
                    {k.smartCdn && <Badge tone="info">Smart CDN</Badge>}
                  </span>
                  <span className="credential-actions key-actions">
                    <Button size="sm" onClick={() => setEditing({ mode: 'edit', key: k })} aria-label={`Edit ${k.authKey}`}>
                      Edit
                    </Button>
                    <Button size="sm" busy={update.isPending && update.variables?.id === k.id} onClick={() => update.mutate({ id: k.id, isActive: !k.isActive })} aria-label={`${k.isActive ? 'Deactivate' : 'Activate'} ${k.authKey}`}>
                      {k.isActive ? 'Deactivate' : 'Activate'}
                    </Button>
                    {k.canShowSecret && (
                      <Button size="sm" busy={copy.isPending && copy.variables?.id === k.id} onClick={() => copy.mutate({ id: k.id })} aria-label={`Copy secret of ${k.authKey}`}>
                        Copy secret
                      </Button>
                    )}
                    <Button size="sm" variant="danger" onClick={() => setDeleting(k)} aria-label={`Delete ${k.authKey}`}>
                      Delete
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="template-detail-pane" aria-label="Auth Key form">
          {editing ? <KeyForm key={editing.mode === 'edit' ? editing.key.id : 'new'} editing={editing} onDone={() => setEditing(null)} /> : <p className="muted empty-hint">Choose Edit on a key, or make a new one.</p>}
        </section>
      </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the key ${deleting?.authKey.slice(0, 12) ?? ''}…?`}
        confirmLabel="Delete key"
        tone="danger"
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      >
        Everything that signs with it stops working at once, and it cannot be restored. Deactivate it instead to try that safely first.
        {remove.error && <ErrorPanel title="Not deleted" code={remove.error.code} message={remove.error.message} httpCode={remove.error.httpCode} />}
      </ConfirmDialog>
    </div>
  );
};

const KeyForm = ({ editing, onDone }: { editing: NonNullable<Editing>; onDone: () => void }) => {
  const existing = editing.mode === 'edit' ? editing.key : null;
  const [description, setDescription] = useState(existing?.description ?? '');
  const [allScopes, setAllScopes] = useState(existing ? existing.scopes === null : false);
  const [scopes, setScopes] = useState<string[]>(existing?.scopes ?? ['assemblies:write', 'templates:read']);
  const [smartCdn, setSmartCdn] = useState(existing?.smartCdn ?? false);
  const [algo, setAlgo] = useState<'' | 'sha1' | 'sha256' | 'sha384'>(existing?.signatureAlgo ?? '');
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const onSuccess = (k: AuthKey) => {
    toast(`Saved the key ${k.authKey.slice(0, 12)}….`, 'success');
    void client.invalidateQueries({ queryKey: ['authKeys:list'] });
    onDone();
  };
  const create = useBridgeMutation('authKeys:create', { onSuccess });
  const update = useBridgeMutation('authKeys:update', { onSuccess });
  const error = create.error ?? update.error;
  const tooLong = description.length > 255;
  const request = { description, scopes: allScopes ? null : scopes, smartCdn, signatureAlgo: algo === '' ? null : algo };
  return (
    <form
      className="template-detail"
      aria-label={existing ? `Edit ${existing.authKey}` : 'New Auth Key'}
      onSubmit={(e) => {
        e.preventDefault();
        if (existing) update.mutate({ id: existing.id, ...request });
        else create.mutate(request);
      }}
    >
      <h2 className="section-title">{existing ? `Edit ${existing.authKey.slice(0, 12)}…` : 'New Auth Key'}</h2>
      {error && <ErrorPanel title="The key was not saved" code={error.code} message={error.message} httpCode={error.httpCode} data-testid="key-error" />}
      <label className="form-field">
        <span className="field-label">Description</span>
        <input className="input" value={description} onChange={(e) => setDescription(e.currentTarget.value)} aria-label="Description" aria-invalid={tooLong} />
        <span className={tooLong ? 'field-error' : 'small muted'}>{description.length}/255</span>
      </label>
      <div className="form-field">
        <span className="field-label">Scopes</span>
        <label className="form-check">
          <input type="checkbox" checked={allScopes} onChange={(e) => setAllScopes(e.currentTarget.checked)} aria-label="All scopes" />
          <span>All scopes</span>
        </label>
        {!allScopes && <ScopePicker value={scopes} onChange={setScopes} />}
      </div>
      <label className="form-check">
        <input type="checkbox" checked={smartCdn} onChange={(e) => setSmartCdn(e.currentTarget.checked)} aria-label="Allowed for Smart CDN" />
        <span>Allowed for Smart CDN (signs content-delivery URLs)</span>
      </label>
      <label className="form-field">
        <span className="field-label">Signature algorithm</span>
        <select className="input" value={algo} onChange={(e) => setAlgo(e.currentTarget.value as typeof algo)} aria-label="Signature algorithm">
          <option value="">Default ({smartCdn ? 'sha256 for Smart CDN keys' : 'sha384'})</option>
          <option value="sha384">sha384</option>
          <option value="sha256">sha256</option>
          <option value="sha1">sha1</option>
        </select>
      </label>
      <div className="template-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={create.isPending || update.isPending} disabled={tooLong || (!allScopes && scopes.length === 0)}>
          {existing ? 'Save key' : 'Create key'}
        </Button>
      </div>
    </form>
  );
};
