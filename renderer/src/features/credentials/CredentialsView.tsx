import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { credentialTypeLabel } from '../../../../shared/api/credential-types';
import type { Credential } from '../../../../shared/ipc/template-models';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { useReturnFocus } from '../../hooks/use-return-focus';
import { useToasts } from '../../state/toast-store';
import { CredentialForm, type Editing } from './CredentialForm';
import { CredentialTestPane } from './CredentialTestPane';
import './credentials.css';
import { DateTime } from '../../components/DateTime';

/** The right pane: a form (new or edit), the test of a saved credential, or nothing. */
type Pane = Editing | { readonly mode: 'test'; readonly credential: Credential } | null;

/** Template credentials of the workspace: list, create, edit, test, delete. Secrets are write-only here. */
export const CredentialsView = () => {
  const list = useBridgeQuery('credentials:list', {});
  const [pane, setPane] = useState<Pane>(null);
  const opener = useReturnFocus();
  const openPane = (next: Pane, target: EventTarget) => {
    opener.from(target);
    setPane(next);
  };
  const closePane = () => {
    setPane(null);
    opener.restore();
  };
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
        <Button variant="primary" onClick={(e) => openPane({ mode: 'new' }, e.currentTarget)}>
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
            <ul className="boxed-list template-list" aria-label="Credential list">
              {list.data.map((c) => (
                <li key={c.id} className="credential-row" data-testid="credential-row">
                  <span className="template-row-main">
                    <span className="template-name">{c.name}</span>
                    <span className="small muted">
                      {credentialTypeLabel(c.type)} <code className="type-code">{c.type}</code>
                      {c.values.host ? ` · ${c.values.user ? `${c.values.user}@` : ''}${c.values.host}` : c.values.bucket ? ` · ${c.values.bucket}` : ''} · modified <DateTime value={c.modified} />
                    </span>
                  </span>
                  <span className="template-badges credential-actions">
                    {c.secretsSet.map((s) => (
                      <Badge key={s} tone="success" title={`A ${s} is stored`}>
                        {s} set
                      </Badge>
                    ))}
                    {c.contentKind === 'value' && (
                      <Badge tone="success" title="Its content is one value (a token or a JSON value), not fields">
                        value set
                      </Badge>
                    )}
                    <Button size="sm" onClick={(e) => openPane({ mode: 'test', credential: c }, e.currentTarget)} aria-label={`Test ${c.name}`}>
                      Test
                    </Button>
                    <Button size="sm" onClick={(e) => openPane({ mode: 'edit', credential: c }, e.currentTarget)} aria-label={`Edit ${c.name}`}>
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
        <section className="template-detail-pane" aria-label="Credential details">
          {pane?.mode === 'test' && <CredentialTestPane key={pane.credential.id} credential={pane.credential} onClose={closePane} />}
          {(pane?.mode === 'new' || pane?.mode === 'edit') && <CredentialForm key={pane.mode === 'edit' ? pane.credential.id : 'new'} editing={pane} onDone={closePane} />}
          {pane === null && <p className="muted empty-hint">Choose Test or Edit on a credential, or make new ones.</p>}
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
