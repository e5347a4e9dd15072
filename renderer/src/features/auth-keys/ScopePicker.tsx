import { ALLOWED_SCOPES, scopeDescription } from '../../../../shared/api/scopes';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { Spinner } from '../../components/Spinner';
import './auth-keys.css';

/** `workspaceId`: ask that workspace's service (undefined: the active one); null: a workspace not saved yet. */
export const ScopePicker = ({ value, onChange, workspaceId }: { value: string[]; onChange: (v: string[]) => void; workspaceId?: string | null }) => {
  const scopes = useBridgeQuery('authKeys:scopes', workspaceId ? { workspaceId } : {}, { retry: false, staleTime: 300_000, enabled: workspaceId !== null });
  if (workspaceId !== null && scopes.isPending) return <Spinner size={16} label="Loading scopes" />;
  // The spec's list when the service cannot be asked (no auth_keys:read).
  const all = scopes.data ?? ALLOWED_SCOPES;
  const toggle = (s: string, on: boolean) => onChange(on ? [...new Set([...value, s])] : value.filter((x) => x !== s));
  return (
    <fieldset className="scope-picker" aria-label="Scopes">
      {all.map((s) => (
        <label key={s} className="form-check scope-option">
          <input type="checkbox" checked={value.includes(s)} onChange={(e) => toggle(s, e.currentTarget.checked)} aria-label={s} />
          <code>{s}</code>
          {scopeDescription(s) && <span className="muted small scope-what">{scopeDescription(s)}</span>}
        </label>
      ))}
    </fieldset>
  );
};
