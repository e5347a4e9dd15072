import { Fragment, useState } from 'react';
import type { ClientKey } from '../../../../shared/ipc/workspace-models';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { useToasts } from '../../state/toast-store';

/** Same service: origins compared with the trailing slash dropped (the embedded service's URL is an origin). */
export const isLocalService = (endpoint: string, localUrl: string | null | undefined): boolean =>
  !!localUrl && endpoint.trim().replace(/\/+$/, '') === localUrl.replace(/\/+$/, '');

/**
 * "Sign in with a private key" inside the sign-in box: generates a key pair in core (the private key goes
 * straight to the system keychain), shows the public key to register, and for the embedded service
 * registers it in one click. `kid` is the key the next sign-in uses (null: the app's plain client id).
 */
export const ClientKeyPanel = ({
  endpoint,
  offered,
  kid,
  onChange,
  onGenerated,
}: {
  endpoint: string;
  /** The deployment's metadata lists private_key_jwt. */
  offered: boolean;
  kid: string | null;
  onChange: (kid: string | null) => void;
  /** A key pair was just generated (the form deletes it again if it is not used). */
  onGenerated?: (kid: string) => void;
}) => {
  const toast = useToasts((s) => s.show);
  const info = useBridgeQuery('app:info', {});
  const [enabled, setEnabled] = useState(kid !== null);
  const [created, setCreated] = useState<ClientKey | null>(null);
  const [registered, setRegistered] = useState<string | null>(null);
  const shown = useBridgeQuery('workspaces:clientKeyShow', { kid: kid ?? '' }, { enabled: kid !== null && created?.kid !== kid, retry: false });
  const key = created?.kid === kid ? created : (shown.data ?? null);
  const create = useBridgeMutation('workspaces:clientKeyCreate', {
    onSuccess: (k) => {
      setCreated(k);
      setRegistered(null);
      onChange(k.kid);
      onGenerated?.(k.kid);
    },
  });
  const register = useBridgeMutation('workspaces:clientKeyRegisterLocal', { onSuccess: (r) => setRegistered(r.clientId) });
  const local = isLocalService(endpoint, info.data?.localServiceUrl);

  const copy = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toast(`${what} copied.`, 'success');
    } catch {
      toast(`Could not copy the ${what.toLowerCase()}: the clipboard is not available here.`, 'danger');
    }
  };

  return (
    <div className="client-key" data-testid="client-key-panel">
      <label className="form-check">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setEnabled(on);
            onChange(on ? (key?.kid ?? null) : null);
          }}
          aria-label="Sign in with a private key"
        />
        <span>
          Sign in with a private key
          <span className="small muted block">
            {offered
              ? 'This deployment accepts client assertions signed with a registered key (private_key_jwt).'
              : 'This deployment does not say it accepts signed client assertions: it may refuse the sign-in.'}
          </span>
        </span>
      </label>
      {enabled && !key && (
        <div className="client-key-actions">
          <Button size="sm" onClick={() => create.mutate({})} busy={create.isPending} disabled={create.isPending}>
            Generate key pair
          </Button>
          <span className="small muted">The private key stays in the system keychain; you register the public key with the deployment.</span>
        </div>
      )}
      {create.error && <ErrorPanel title="No key was generated" code={create.error.code} message={create.error.message} />}
      {shown.error && <ErrorPanel title="The sign-in key is missing" code={shown.error.code} message={shown.error.message} />}
      {enabled && key && (
        <div className="client-key-details" data-testid="client-key-details">
          <div className="client-key-row">
            <span className="field-label">Client ID</span>
            <code className="mono" data-testid="client-key-client-id">
              {key.clientId}
            </code>
            <Button size="sm" onClick={() => void copy(key.clientId, 'Client ID')}>
              Copy client ID
            </Button>
          </div>
          {(['JWK', 'PEM'] as const).map((form) => {
            const text = form === 'JWK' ? key.publicJwk : key.publicPem;
            return (
              <Fragment key={form}>
                <div className="client-key-row">
                  <span className="field-label">Public key ({form})</span>
                  <Button size="sm" onClick={() => void copy(text, `Public key (${form})`)}>
                    Copy {form}
                  </Button>
                </div>
                <pre className="mono client-key-text" data-testid={`client-key-${form.toLowerCase()}`} tabIndex={0} aria-label={`Public key as ${form}`}>
                  {text}
                </pre>
              </Fragment>
            );
          })}
          {local ? (
            <div className="client-key-actions">
              {registered === key.clientId ? (
                <Badge tone="success" data-testid="client-key-registered">
                  Registered with the local service
                </Badge>
              ) : (
                <Button size="sm" variant="primary" onClick={() => register.mutate({ kid: key.kid })} busy={register.isPending} disabled={register.isPending}>
                  Register with the local service
                </Button>
              )}
            </div>
          ) : (
            <p className="small muted">Ask the deployment&apos;s admin to register this public key for the client ID above, then sign in.</p>
          )}
          {register.error && <ErrorPanel title="The key was not registered" code={register.error.code} message={register.error.message} httpCode={register.error.httpCode} />}
        </div>
      )}
    </div>
  );
};
