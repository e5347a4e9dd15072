import { cdnUrlBase } from '../../../../shared/api/cdn-url-base';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Workspace } from '../../../../shared/ipc/models';
import type { AuthMode, ConnectionReport } from '../../../../shared/ipc/workspace-models';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { InlineForm, InlineFormCancel } from '../../components/InlineForm';
import { RadioCards, type RadioCardOption } from '../../components/RadioCards';
import { isDirty } from '../../lib/form-dirty';
import { useToasts } from '../../state/toast-store';
import { CaFileField, caPemOf, type CaChoice } from './CaFileField';
import { ClientKeyPanel } from './ClientKeyPanel';
import { ConnectionReportView } from './ConnectionReportView';
import { ScopePicker } from '../auth-keys/ScopePicker';
import { useDebounced } from '../../hooks/use-debounced';
import { useGeneratedClientKeys } from './use-generated-client-keys';

const MODES: readonly RadioCardOption<AuthMode>[] = [
  { value: 'signature', label: 'Signed requests', description: 'Every request is signed with the Auth Secret in the main process.' },
  { value: 'bearer', label: 'Short-lived Bearer tokens', description: 'The main process trades the key and secret for tokens holding only the scope each request needs, renewed before they expire.' },
];

/** Add or edit a workspace. The Auth Secret is write-only: it goes to the system keychain and is never shown again. */
export const WorkspaceForm = ({ existing, onDone }: { existing: Workspace | null; onDone: () => void }) => {
  const local = existing?.kind === 'local';
  const [name, setName] = useState(existing?.name ?? '');
  const [endpoint, setEndpoint] = useState(existing?.endpoint ?? 'https://');
  const [slug, setSlug] = useState(existing?.slug ?? '');
  const [authKey, setAuthKey] = useState(existing?.authKey ?? '');
  const [authSecret, setAuthSecret] = useState('');
  const [authMode, setAuthMode] = useState<AuthMode>(existing?.authMode ?? 'signature');
  const [limitScopes, setLimitScopes] = useState(existing?.tokenScopes !== null && existing?.tokenScopes !== undefined);
  const [tokenScopes, setTokenScopes] = useState<string[]>(existing?.tokenScopes ?? []);
  const [report, setReport] = useState<ConnectionReport | null>(null);
  const [ca, setCa] = useState<CaChoice>({ kind: 'keep' });
  /** The sign-in key the next browser sign-in uses (client assertions); null = the app's plain client id. */
  const [clientKeyId, setClientKeyId] = useState<string | null>(existing?.clientKey?.kid ?? null);
  const generatedKeys = useGeneratedClientKeys();
  const values = { name, endpoint, slug, authKey, authSecret, authMode, limitScopes, tokenScopes, ca };
  const [initial] = useState(values);
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);

  const draft = () => ({
    ...(existing ? { id: existing.id } : {}),
    name: name.trim(),
    endpoint: endpoint.trim(),
    slug: slug.trim(),
    authKey: authKey.trim(),
    authSecret,
    authMode,
    signatureAlgo: existing?.signatureAlgo ?? ('sha384' as const),
    tokenScopes: authMode === 'bearer' && limitScopes ? tokenScopes : null,
    ...caPemOf(ca),
  });
  const save = useBridgeMutation('workspaces:save', {
    onSuccess: (w) => {
      setAuthSecret('');
      toast(`Saved the workspace "${w.name}".`, 'success');
      void client.invalidateQueries();
      onDone();
    },
  });
  const test = useBridgeMutation('workspaces:test', { onSuccess: setReport });
  const runTest = () => {
    setReport(null);
    const d = draft();
    // A saved workspace with no secret typed is tested with its stored one (core reads it).
    test.mutate(existing && !authSecret ? { id: existing.id, draft: { ...d, authSecret: undefined } } : { draft: d });
  };

  const endpointOk = /^https?:\/\/[^/\s]+/.test(endpoint.trim());
  const probeEndpoint = useDebounced(endpoint.trim(), 500);
  const offersSignIn = useBridgeQuery(
    'workspaces:signInAvailable',
    { endpoint: probeEndpoint, ...(existing ? { id: existing.id } : {}), ...caPemOf(ca) },
    { enabled: !local && /^https?:\/\/[^/\s]+/.test(probeEndpoint), retry: false, staleTime: 60_000 },
  );
  const signIn = useBridgeMutation('workspaces:signIn', {
    onSuccess: (w) => {
      toast(`Signed in: "${w.name}" is ready.`, 'success');
      // The workspace now signs in with the key it generated: closing the form must not delete it.
      generatedKeys.kept();
      void client.invalidateQueries();
      onDone();
    },
  });
  const cancelSignIn = useBridgeMutation('workspaces:signInCancel');
  // A stored secret is only reused for the same key at the same endpoint.
  const needsSecret =
    !local && (!existing || existing.authKey !== authKey.trim() || existing.endpoint !== endpoint.trim().replace(/\/+$/, '') || !existing.hasSecret);
  const browser = existing?.authMode === 'browser';
  const canSave = local || (name.trim() !== '' && endpointOk && (browser || (authKey.trim() !== '' && (!needsSecret || authSecret !== ''))));

  return (
    <InlineForm
      className="template-detail workspace-form"
      aria-label={existing ? `Edit ${existing.name}` : 'Add a workspace'}
      dirty={isDirty(initial, values)}
      onCancel={onDone}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(draft());
      }}
    >
      <h2 className="section-title">{existing ? `Edit "${existing.name}"` : 'Add a workspace'}</h2>
      {save.error && <ErrorPanel title="The workspace was not saved" code={save.error.code} message={save.error.message} httpCode={save.error.httpCode} />}
      {local && <p className="small muted">Its endpoint and key belong to the local service: use Switch key to sign with another of its keys, or Restore full access.</p>}
      {!local && (
        <>
          <label className="form-field">
            <span className="field-label">Name *</span>
            <input className="input" value={name} onChange={(e) => setName(e.currentTarget.value)} placeholder="Production" aria-label="Workspace name" />
          </label>
          <label className="form-field">
            <span className="field-label">API endpoint *</span>
            <input className="input mono" value={endpoint} onChange={(e) => setEndpoint(e.currentTarget.value)} aria-label="API endpoint" aria-invalid={endpoint !== 'https://' && !endpointOk} spellCheck={false} />
            {endpoint !== 'https://' && !endpointOk && <span className="field-error">A URL such as https://api2.example.com</span>}
          </label>
          <label className="form-field">
            <span className="field-label">Workspace slug</span>
            <input className="input mono" value={slug} onChange={(e) => setSlug(e.currentTarget.value.toLowerCase())} aria-label="Workspace slug" placeholder="my-team" spellCheck={false} />
            <span className="small muted">Used in content-delivery URLs: {cdnUrlBase({ endpoint: endpointOk ? endpoint : 'https://', slug: slug || 'my-team' })}/…</span>
          </label>
          <CaFileField stored={existing?.ca ?? null} value={ca} onChange={setCa} />
          {(offersSignIn.data?.available || existing?.authMode === 'browser') && (
            <div className="sign-in-box" data-testid="sign-in-box">
              {signIn.isPending ? (
                <>
                  <span>Waiting for you to approve Assemblyline in your browser…</span>
                  <Button size="sm" onClick={() => cancelSignIn.mutate({})}>
                    Cancel
                  </Button>
                </>
              ) : (
                <>
                  <span>This deployment offers browser sign-in: approve Assemblyline there, no secret to type.</span>
                  <Button
                    variant="primary"
                    disabled={!name.trim() || !endpointOk}
                    title={!name.trim() ? 'Give the workspace a name first' : undefined}
                    onClick={() =>
                      signIn.mutate({
                        ...(existing ? { id: existing.id } : {}),
                        name: name.trim(),
                        endpoint: endpoint.trim(),
                        slug: slug.trim(),
                        ...(clientKeyId ? { clientKeyId } : {}),
                        ...caPemOf(ca),
                      })
                    }
                  >
                    Sign in with browser
                  </Button>
                </>
              )}
              <ClientKeyPanel
                endpoint={endpoint}
                offered={offersSignIn.data?.privateKeyJwt ?? false}
                kid={clientKeyId}
                onChange={setClientKeyId}
                onGenerated={generatedKeys.generated}
              />
            </div>
          )}
          {signIn.error && <ErrorPanel title="Not signed in" code={signIn.error.code} message={signIn.error.message} httpCode={signIn.error.httpCode} />}
          {existing?.authMode === 'browser' ? null : (
          <>
          <label className="form-field">
            <span className="field-label">Auth Key *</span>
            <input className="input mono" value={authKey} onChange={(e) => setAuthKey(e.currentTarget.value)} aria-label="Auth Key" autoComplete="off" spellCheck={false} />
          </label>
          <label className="form-field">
            <span className="field-label">
              Auth Secret {needsSecret ? '*' : ''} <span className="muted small">(write-only, kept in the system keychain)</span>
            </span>
            <input
              className="input mono"
              type="password"
              value={authSecret}
              onChange={(e) => setAuthSecret(e.currentTarget.value)}
              aria-label="Auth Secret"
              autoComplete="off"
              placeholder={existing?.hasSecret && !needsSecret ? 'Stored — leave empty to keep it' : ''}
            />
          </label>
          </>
          )}
        </>
      )}
      {existing?.authMode !== 'browser' && (
      <RadioCards name="auth-mode" legend="How requests authenticate" options={MODES} value={authMode} onChange={setAuthMode} />
      )}
      {authMode === 'bearer' && (
        <div className="form-field">
          <label className="form-check">
            <input type="checkbox" checked={limitScopes} onChange={(e) => setLimitScopes(e.currentTarget.checked)} aria-label="Limit token scopes" />
            <span>Limit the app&apos;s tokens to these scopes</span>
          </label>
          {limitScopes && <ScopePicker value={tokenScopes} onChange={setTokenScopes} workspaceId={existing?.id ?? null} />}
        </div>
      )}
      {test.error && <ErrorPanel title="Could not test" code={test.error.code} message={test.error.message} />}
      {report && <ConnectionReportView report={report} />}
      <div className="template-actions">
        <InlineFormCancel />
        {!local && existing?.authMode !== 'browser' && (
          <Button onClick={runTest} busy={test.isPending} disabled={test.isPending || !endpointOk || !authKey.trim()}>
            Test connection
          </Button>
        )}
        <Button type="submit" variant="primary" busy={save.isPending} disabled={save.isPending || !canSave}>
          Save workspace
        </Button>
      </div>
    </InlineForm>
  );
};
