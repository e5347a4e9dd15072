import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Workspace } from '../../../../shared/ipc/models';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { InlineForm, InlineFormCancel } from '../../components/InlineForm';
import { Spinner } from '../../components/Spinner';
import { useToasts } from '../../state/toast-store';

const short = (k: string) => `${k.slice(0, 12)}…`;

/**
 * Switch a workspace to another key. Local: any active key of its own service (the app knows their
 * secrets). Remote: a key of the account the current key can read, or one typed with its secret; core
 * proves it with a connection test before anything is saved.
 */
export const SwitchKeyForm = ({ workspace, onDone }: { workspace: Workspace; onDone: () => void }) => {
  const local = workspace.kind === 'local';
  const choices = useBridgeQuery('workspaces:keyChoices', { id: workspace.id }, { retry: false });
  const usable = (choices.data ?? []).filter((k) => k.isActive && k.authKey !== workspace.authKey);
  const [mode, setMode] = useState<'choose' | 'type'>('choose');
  const [keyId, setKeyId] = useState('');
  const [authKey, setAuthKey] = useState('');
  const [authSecret, setAuthSecret] = useState('');
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const switchKey = useBridgeMutation('workspaces:switchKey', {
    onSuccess: (w) => {
      setAuthSecret('');
      toast(`"${w.name}" signs with ${short(w.authKey)} now.`, 'success');
      void client.invalidateQueries();
      onDone();
    },
  });
  const chosen = keyId || usable[0]?.id || '';
  // A remote workspace whose key cannot list keys (inactive, no scope) can still take a typed key.
  const typing = !local && (mode === 'type' || choices.isError);
  const canSubmit = typing ? authKey.trim() !== '' && authSecret !== '' : chosen !== '';

  return (
    <InlineForm
      className="template-detail"
      aria-label={`Switch key of ${workspace.name}`}
      // A key picked from the list is one click away again; typed ones are worth a question.
      dirty={authKey !== '' || authSecret !== ''}
      onCancel={onDone}
      onSubmit={(e) => {
        e.preventDefault();
        switchKey.mutate(typing ? { id: workspace.id, authKey: authKey.trim(), authSecret } : { id: workspace.id, keyId: chosen });
      }}
    >
      <h2 className="section-title">Switch the key of "{workspace.name}"</h2>
      <p className="small muted">
        It signs with <span className="mono">{short(workspace.authKey)}</span> now.{' '}
        {local ? 'Choose another active key of the local service.' : 'The new key is tested against the deployment before it replaces the current one.'}
      </p>
      {switchKey.error && <ErrorPanel title="Not switched" code={switchKey.error.code} message={switchKey.error.message} httpCode={switchKey.error.httpCode} data-testid="switch-error" />}
      {!local && !choices.isError && (
        <div className="form-field" role="radiogroup" aria-label="How to pick the key">
          <label className="form-check">
            <input type="radio" checked={mode === 'choose'} onChange={() => setMode('choose')} />
            <span>A key of this account</span>
          </label>
          <label className="form-check">
            <input type="radio" checked={mode === 'type'} onChange={() => setMode('type')} />
            <span>Type a key and its secret</span>
          </label>
        </div>
      )}
      {!local && choices.isError && (
        <p className="small muted">The current key cannot list this account's keys ({choices.error.code}): type the new key and its secret.</p>
      )}
      {!typing &&
        (choices.isPending ? (
          <Spinner size={18} label="Loading keys" />
        ) : local && choices.isError ? (
          <ErrorPanel title="Could not list the keys" code={choices.error.code} message={choices.error.message} />
        ) : usable.length === 0 ? (
          <p className="muted">There is no other active key. Make one on the Auth Keys screen{local ? ', or restore full access' : ''}.</p>
        ) : (
          <label className="form-field">
            <span className="field-label">New key</span>
            <select className="input" value={chosen} onChange={(e) => setKeyId(e.currentTarget.value)} aria-label="New key">
              {usable.map((k) => (
                <option key={k.id} value={k.id}>
                  {short(k.authKey)} · {k.scopes === null ? 'all scopes' : k.scopes.join(', ')}
                  {k.description ? ` · ${k.description}` : ''}
                </option>
              ))}
            </select>
          </label>
        ))}
      {typing && (
        <>
          <label className="form-field">
            <span className="field-label">Auth Key</span>
            <input className="input mono" value={authKey} onChange={(e) => setAuthKey(e.currentTarget.value)} aria-label="New Auth Key" autoComplete="off" />
          </label>
          <label className="form-field">
            <span className="field-label">Auth Secret</span>
            <input className="input mono" type="password" value={authSecret} onChange={(e) => setAuthSecret(e.currentTarget.value)} aria-label="New Auth Secret" autoComplete="off" />
          </label>
        </>
      )}
      <div className="template-actions">
        <InlineFormCancel />
        <Button type="submit" variant="primary" busy={switchKey.isPending} disabled={!canSubmit}>
          Switch key
        </Button>
      </div>
    </InlineForm>
  );
};
