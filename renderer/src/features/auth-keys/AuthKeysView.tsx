import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuthKey } from '../../../../shared/ipc/template-models';
import { CDN_SIGN_SCOPE, scopeDescription } from '../../../../shared/api/scopes';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { InlineForm, InlineFormCancel } from '../../components/InlineForm';
import { isDirty } from '../../lib/form-dirty';
import { Spinner } from '../../components/Spinner';
import { useNavigation } from '../../state/navigation-store';
import { useReturnFocus } from '../../hooks/use-return-focus';
import { useToasts } from '../../state/toast-store';
import { RestoreAccessButton } from '../workspaces/RestoreAccessButton';
import { KeyChangeDialog } from './KeyChangeDialog';
import { workspacesUsingKey, type KeyChange } from './key-usage';
import { ScopePicker } from './ScopePicker';
import './keys.css';
import { SecretReveal } from './SecretReveal';
import './auth-keys.css';
import { DateTime } from '../../components/DateTime';

/** Codes after which the Local workspace gets its access back with "Restore full access". */
const LOCKED_OUT = new Set(['AUTH_KEY_INACTIVE', 'INSUFFICIENT_AUTH_SCOPE', 'GET_ACCOUNT_UNKNOWN_AUTH_KEY', 'INVALID_SIGNATURE']);

type Editing = { readonly mode: 'new' } | { readonly mode: 'edit'; readonly key: AuthKey } | null;

/** Auth Keys of the workspace's account: state, scopes, algorithm, last use; secrets never reach this page. */
export const AuthKeysView = () => {
  const info = useBridgeQuery('app:info', {});
  const list = useBridgeQuery('authKeys:list', {});
  const workspaces = useBridgeQuery('workspaces:list', {});
  const [editing, setEditing] = useState<Editing>(null);
  const opener = useReturnFocus();
  const closeForm = () => {
    setEditing(null);
    opener.restore();
  };
  const [changing, setChanging] = useState<{ change: KeyChange; key: AuthKey } | null>(null);
  // Which key's secret is being revealed; the secret itself lives only inside <SecretReveal>.
  const [revealing, setRevealing] = useState<AuthKey | null>(null);
  const [noClipboard, setNoClipboard] = useState<AuthKey | null>(null);
  const stopRevealing = useCallback(() => setRevealing(null), []);
  // Keyboard users land back on the Reveal button they started from once the secret is hidden.
  const revealButtons = useRef(new Map<string, HTMLButtonElement>());
  const lastRevealed = useRef<string | null>(null);
  useEffect(() => {
    if (revealing) lastRevealed.current = revealing.id;
    else if (lastRevealed.current) {
      revealButtons.current.get(lastRevealed.current)?.focus();
      lastRevealed.current = null;
    }
  }, [revealing]);
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const navigate = useNavigation((s) => s.navigate);
  const refresh = () => void client.invalidateQueries({ queryKey: ['authKeys:list'] });
  const active = workspaces.data?.find((w) => w.id === info.data?.activeWorkspaceId);

  const update = useBridgeMutation('authKeys:update', {
    onSuccess: (k) => {
      toast(`${k.authKey.slice(0, 12)}… is now ${k.isActive ? 'active' : 'inactive'}.`, 'success');
      setChanging(null);
      refresh();
      // The workspaces that signed with it see the change at once (their screens read again).
      void client.invalidateQueries({ queryKey: ['workspaces:list'] });
    },
    onError: (e) => {
      if (!changing) toast(`${e.code}: ${e.message}`, 'danger');
    },
  });
  const remove = useBridgeMutation('authKeys:delete', {
    onSuccess: () => {
      toast('Deleted the key.', 'success');
      setChanging(null);
      refresh();
    },
  });
  const copy = useBridgeMutation('authKeys:copySecret', {
    onSuccess: (r) => toast(`The secret is on the clipboard; it is cleared in ${r.clearsInSeconds} seconds.`, 'success'),
    onError: (e, request) => {
      // No clipboard here (a browser host without one): offer Reveal instead of a dead end.
      if (e.code === 'CLIPBOARD_UNAVAILABLE') setNoClipboard(list.data?.find((k) => k.id === request.id) ?? null);
      else toast(`${e.code}: ${e.message}`, 'danger');
    },
  });
  const usersOf = (k: AuthKey) => workspacesUsingKey(k.authKey, workspaces.data ?? [], active);
  const toggle = (k: AuthKey) => {
    // Reactivating is harmless; deactivating a key some workspace signs with asks first.
    if (k.isActive && usersOf(k).length > 0) {
      update.reset();
      setChanging({ change: 'deactivate', key: k });
    } else update.mutate({ id: k.id, isActive: !k.isActive });
  };
  const changeError = changing?.change === 'deactivate' ? update.error : changing?.change === 'delete' ? remove.error : null;

  return (
    <div className="templates-view auth-keys-view">
      <div className="section-head">
        <h1 className="page-title">Auth Keys</h1>
        <Button variant="primary" onClick={(e) => {
            opener.from(e.currentTarget);
            setEditing({ mode: 'new' });
          }} disabled={!list.data}>
          New key
        </Button>
      </div>
      <p className="muted">
        Keys of {active ? <strong>{active.name}</strong> : 'this workspace'}. Secrets stay in the main process: Copy secret puts one on the clipboard and clears it
        shortly after; Reveal shows one here for 30 seconds after you confirm.
      </p>
      {list.isError && (
        <ErrorPanel
          title="Could not load Auth Keys"
          code={list.error.code}
          message={list.error.message}
          httpCode={list.error.httpCode}
          data-testid="auth-keys-error"
          action={
            <span className="button-row">
              {active?.kind === 'local' && LOCKED_OUT.has(list.error.code) && <RestoreAccessButton variant="primary" />}
              <Button onClick={() => navigate({ name: 'workspaces' })}>Open Workspaces</Button>
            </span>
          }
        />
      )}
      {!list.isError && (
      <div className="templates-split">
        <section className="templates-list-pane" aria-label="Auth Keys">
          {list.isPending && <Spinner size={24} label="Loading Auth Keys" />}
          {list.data && list.data.length === 0 && <EmptyState title="No keys">Create one to give a tool or a colleague its own access.</EmptyState>}
          {list.data && list.data.length > 0 && (
            <ul className="boxed-list template-list" aria-label="Auth Key list">
              {list.data.map((k) => (
                <li key={k.id} className="auth-key-row" data-testid="auth-key-row" data-key={k.authKey}>
                  <span className="template-row-main">
                    <span className="template-name mono" title={k.authKey}>
                      {k.authKey}
                    </span>
                    <span className="small">{k.description || <span className="muted">No description</span>}</span>
                    <span className="small muted">
                      <span title={k.scopes === null ? 'Every scope' : k.scopes.map((x) => `${x}: ${scopeDescription(x) ?? 'a scope this app does not know'}`).join('\n')}>{k.scopes === null ? 'All scopes' : k.scopes.join(', ')}</span> · {k.signatureAlgo ?? `${k.smartCdn ? 'sha256' : 'sha384'} (default)`} · last used {k.lastUsed ? <DateTime value={k.lastUsed} /> : 'never'}
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
                    <Button size="sm" onClick={(e) => {
                        opener.from(e.currentTarget);
                        setEditing({ mode: 'edit', key: k });
                      }} aria-label={`Edit ${k.authKey}`}>
                      Edit
                    </Button>
                    <Button size="sm" busy={update.isPending && update.variables?.id === k.id} onClick={() => toggle(k)} aria-label={`${k.isActive ? 'Deactivate' : 'Activate'} ${k.authKey}`}>
                      {k.isActive ? 'Deactivate' : 'Activate'}
                    </Button>
                    {k.canShowSecret && (
                      <Button size="sm" busy={copy.isPending && copy.variables?.id === k.id} onClick={() => copy.mutate({ id: k.id })} aria-label={`Copy secret of ${k.authKey}`}>
                        Copy secret
                      </Button>
                    )}
                    {k.canShowSecret && (
                      <Button
                        size="sm"
                        ref={(el: HTMLButtonElement | null) => void (el ? revealButtons.current.set(k.id, el) : revealButtons.current.delete(k.id))}
                        onClick={() => setRevealing(k)}
                        aria-label={`Reveal secret of ${k.authKey}`}
                      >
                        Reveal
                      </Button>
                    )}
                    <Button
                      size="sm"
                      variant="danger"
                      onClick={() => {
                        remove.reset();
                        setChanging({ change: 'delete', key: k });
                      }}
                      aria-label={`Delete ${k.authKey}`}
                    >
                      Delete
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="template-detail-pane" aria-label="Auth Key form">
          {revealing && <SecretReveal key={revealing.id} keyId={revealing.id} authKey={revealing.authKey} onClose={stopRevealing} />}
          {noClipboard && !revealing && (
            <div className="notice-panel" role="status" data-testid="no-clipboard">
              <p>
                There is no clipboard here, so the secret of <span className="mono">{noClipboard.authKey.slice(0, 12)}…</span> was not copied. Reveal it instead to read it
                on screen.
              </p>
              <div className="template-actions">
                <Button onClick={() => setNoClipboard(null)}>Dismiss</Button>
                <Button
                  variant="primary"
                  onClick={() => {
                    setRevealing(noClipboard);
                    setNoClipboard(null);
                  }}
                >
                  Reveal instead
                </Button>
              </div>
            </div>
          )}
          {editing ? <KeyForm key={editing.mode === 'edit' ? editing.key.id : 'new'} editing={editing} onDone={closeForm} /> : <p className="muted empty-hint">Choose Edit on a key, or make a new one.</p>}
        </section>
      </div>
      )}
      {changing && (
        <KeyChangeDialog
          key={`${changing.change}-${changing.key.id}`}
          change={changing.change}
          authKey={changing.key}
          users={usersOf(changing.key)}
          current={active}
          keys={list.data ?? []}
          busy={changing.change === 'deactivate' ? update.isPending : remove.isPending}
          error={changeError ?? null}
          onCancel={() => setChanging(null)}
          onConfirm={() => (changing.change === 'deactivate' ? update.mutate({ id: changing.key.id, isActive: false }) : remove.mutate({ id: changing.key.id }))}
        />
      )}
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
  // A key's scope list decides what it may sign: Smart CDN goes with the smart_cdn:sign scope, both ways.
  const toggleSmartCdn = (on: boolean): void => {
    setSmartCdn(on);
    setScopes((list) => (on ? [...new Set([...list, CDN_SIGN_SCOPE])] : list.filter((x) => x !== CDN_SIGN_SCOPE)));
  };
  const values = { description, allScopes, scopes, smartCdn, algo };
  const [initial] = useState(values);
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
  // "Default" on a new key leaves the algorithm to the service (the spec: sha384 for ordinary keys, null —
  // sha256 — for Smart CDN keys), so the key is listed as the form said; on an edit it resets to the default.
  const request = { description, scopes: allScopes ? null : scopes, smartCdn, ...(algo === '' ? (existing ? { signatureAlgo: null } : {}) : { signatureAlgo: algo }) };
  return (
    <InlineForm
      className="template-detail"
      aria-label={existing ? `Edit ${existing.authKey}` : 'New Auth Key'}
      dirty={isDirty(initial, values)}
      onCancel={onDone}
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
        <input type="checkbox" checked={smartCdn} onChange={(e) => toggleSmartCdn(e.currentTarget.checked)} aria-label="Allowed for Smart CDN" />
        <span>Allowed for Smart CDN (signs content-delivery URLs)</span>
      </label>
      {smartCdn && !allScopes && !scopes.includes(CDN_SIGN_SCOPE) && (
        <span className="field-error" role="alert">
          Without the {CDN_SIGN_SCOPE} scope the service refuses the URLs this key signs.
        </span>
      )}
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
        <InlineFormCancel />
        <Button type="submit" variant="primary" busy={create.isPending || update.isPending} disabled={tooLong || (!allScopes && scopes.length === 0)}>
          {existing ? 'Save key' : 'Create key'}
        </Button>
      </div>
    </InlineForm>
  );
};
