import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Workspace } from '../../../../shared/ipc/models';
import type { AuthKey } from '../../../../shared/ipc/template-models';
import type { BridgeError } from '../../bridge/bridge-error';
import { useBridgeMutation } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { useToasts } from '../../state/toast-store';
import { canManageKeys, keyChangeLabel, type KeyChange } from './key-usage';

export interface KeyChangeDialogProps {
  readonly change: KeyChange;
  readonly authKey: AuthKey;
  /** Workspaces of this app that sign with the key (workspacesUsingKey), the current one first. */
  readonly users: readonly Workspace[];
  readonly current: Workspace | undefined;
  /** The account's keys (to offer another active one to switch to). */
  readonly keys: readonly AuthKey[];
  readonly busy: boolean;
  readonly error: BridgeError | null;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

const short = (k: string) => `${k.slice(0, 12)}…`;

/**
 * Deactivate or delete a key: names every workspace here that signs with it and what stops working; when
 * the current workspace is one of them the button says so, and the dialog offers to switch it first.
 */
export const KeyChangeDialog = ({ change, authKey, users, current, keys, busy, error, onConfirm, onCancel }: KeyChangeDialogProps) => {
  const currentUses = current !== undefined && users.some((w) => w.id === current.id);
  // Full-access keys first: a narrower one may leave this screen (or uploads) without the scope it needs.
  const others = keys.filter((k) => k.isActive && k.id !== authKey.id).sort((a, b) => Number(b.scopes === null) - Number(a.scopes === null));
  const [target, setTarget] = useState(others[0]?.id ?? '');
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const switchKey = useBridgeMutation('workspaces:switchKey', {
    onSuccess: (w) => {
      toast(`"${w.name}" signs with ${short(w.authKey)} now.`, 'success');
      void client.invalidateQueries();
    },
  });
  const verb = change === 'deactivate' ? 'Deactivate' : 'Delete';
  return (
    <ConfirmDialog
      open
      wide
      title={`${verb} the key ${short(authKey.authKey)}?`}
      confirmLabel={keyChangeLabel(change, currentUses)}
      tone="danger"
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {users.length > 0 ? (
        <>
          <p>
            {users.length === 1 ? 'This workspace signs' : 'These workspaces sign'} with it. {change === 'deactivate' ? 'While it is inactive' : 'Once it is deleted'},{' '}
            {users.length === 1 ? 'its' : 'their'} uploads, Templates, Credentials and Auth Keys fail with{' '}
            <code>{change === 'deactivate' ? 'AUTH_KEY_INACTIVE' : 'GET_ACCOUNT_UNKNOWN_AUTH_KEY'}</code> until {users.length === 1 ? 'it switches' : 'they switch'} to another key:
          </p>
          <ul className="key-users" data-testid="key-users">
            {users.map((w) => (
              <li key={w.id}>
                <strong>{w.name}</strong>
                {w.id === current?.id && <span className="muted"> (this workspace)</span>}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>
          No workspace of this app signs with it. Everything that signs with it stops working at once (tools, colleagues)
          {change === 'delete' ? ', and it cannot be restored. Deactivate it instead to try that safely first.' : '.'}
        </p>
      )}
      {currentUses && (
        <div className="key-switch-first" data-testid="switch-first">
          {others.length > 0 ? (
            <>
              <label className="form-field">
                <span className="field-label">Switch this workspace first to</span>
                <select className="input" value={target} onChange={(e) => setTarget(e.currentTarget.value)} aria-label="Switch this workspace to">
                  {others.map((k) => (
                    <option key={k.id} value={k.id}>
                      {short(k.authKey)} · {k.scopes === null ? 'all scopes' : k.scopes.join(', ')}
                      {k.description ? ` · ${k.description}` : ''}
                      {canManageKeys(k.scopes) ? '' : ' (Auth Keys will not load with it)'}
                    </option>
                  ))}
                </select>
              </label>
              <Button busy={switchKey.isPending} disabled={!target} onClick={() => current && switchKey.mutate({ id: current.id, keyId: target })}>
                Switch workspace to this key
              </Button>
            </>
          ) : (
            <p className="small muted">There is no other active key to switch to: make one first, or keep this key active.</p>
          )}
          {switchKey.error && <ErrorPanel title="Not switched" code={switchKey.error.code} message={switchKey.error.message} httpCode={switchKey.error.httpCode} />}
        </div>
      )}
      {error && <ErrorPanel title={change === 'deactivate' ? 'Not deactivated' : 'Not deleted'} code={error.code} message={error.message} httpCode={error.httpCode} />}
    </ConfirmDialog>
  );
};
