import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Workspace } from '../../../../shared/ipc/models';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ClosablePane } from '../../components/ClosablePane';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { useReturnFocus } from '../../hooks/use-return-focus';
import { guarded } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import { ConnectionReportView } from './ConnectionReportView';
import { ChatModelSettings } from './ChatModelSettings';
import { DesktopPreferences } from './DesktopPreferences';
import { RotationPanel } from '../auth-keys/RotationPanel';
import { RestoreAccessButton } from './RestoreAccessButton';
import { SwitchKeyForm } from './SwitchKeyForm';
import { WorkspaceForm } from './WorkspaceForm';
import '../auth-keys/keys.css';
import './workspaces.css';

const MODE_LABEL = { signature: 'Signed requests', bearer: 'Bearer tokens', browser: 'Browser sign-in' } as const;

type Pane = { kind: 'form'; workspace: Workspace | null } | { kind: 'test'; workspace: Workspace } | { kind: 'switch'; workspace: Workspace } | null;

/** Workspaces: the Local one and remote deployments; switch, add, edit, test, rotate keys, remove. */
export const WorkspacesView = () => {
  const info = useBridgeQuery('app:info', {});
  const list = useBridgeQuery('workspaces:list', {});
  const rotations = useBridgeQuery('rotations:list', {});
  const [pane, setPane] = useState<Pane>(null);
  const opener = useReturnFocus();
  const openPane = (next: Pane, target: EventTarget) => {
    opener.from(target);
    setPane(next);
  };
  const closeForm = () => {
    setPane(null);
    opener.restore();
  };
  const [removing, setRemoving] = useState<Workspace | null>(null);
  const [rotating, setRotating] = useState<Workspace | null>(null);
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const activeId = info.data?.activeWorkspaceId;

  const activate = useBridgeMutation('workspaces:activate', {
    onSuccess: () => {
      // Every screen's data belongs to the workspace it came from: read it all again.
      void client.invalidateQueries();
    },
  });
  const remove = useBridgeMutation('workspaces:remove', {
    onSuccess: () => {
      toast(`Removed the workspace "${removing?.name ?? ''}" and its secret.`, 'success');
      setRemoving(null);
      setPane(null);
      void client.invalidateQueries();
    },
  });
  const test = useBridgeMutation('workspaces:test');
  const rotate = useBridgeMutation('rotations:start', {
    onSettled: () => {
      setRotating(null);
      void client.invalidateQueries();
    },
  });
  const open = (rotations.data ?? []).filter((r) => r.state === 'interrupted' || r.state === 'failed-rollback' || r.state === 'running');
  const history = (rotations.data ?? []).filter((r) => !open.includes(r));

  return (
    <div className="templates-view workspaces-view">
      <div className="section-head">
        <h1 className="page-title">Workspaces</h1>
        <Button variant="primary" onClick={(e) => openPane({ kind: 'form', workspace: null }, e.currentTarget)}>
          Add workspace
        </Button>
      </div>
      {open.map((r) => (
        <RotationPanel key={r.id} rotation={r} />
      ))}
      {list.isError && <ErrorPanel title="Could not list workspaces" code={list.error.code} message={list.error.message} />}
      {rotate.error && <ErrorPanel title="The rotation did not start" code={rotate.error.code} message={rotate.error.message} httpCode={rotate.error.httpCode} />}
      <div className="templates-split">
        <section className="templates-list-pane" aria-label="Workspaces">
          {list.isPending && <Spinner size={24} label="Loading workspaces" />}
          <ul className="boxed-list template-list" aria-label="Workspace list">
            {(list.data ?? []).map((w) => (
              <li key={w.id} className="workspace-row" data-testid="workspace-row" aria-current={w.id === activeId ? 'true' : undefined}>
                <span className="template-row-main">
                  <span className="template-name">
                    {w.name} {w.id === activeId && <Badge tone="success">Active</Badge>}
                  </span>
                  <span className="small muted mono workspace-endpoint">{w.endpoint || 'not running'}</span>
                  <span className="small muted">
                    {MODE_LABEL[w.authMode]}
                    {w.authMode === 'bearer' && w.tokenScopes ? ` · limited to ${w.tokenScopes.join(', ')}` : ''} · key <span className="mono">{w.authKey.slice(0, 12)}…</span>
                  </span>
                  {!w.hasSecret && w.kind === 'remote' && <Badge tone="warning">No secret stored</Badge>}
                  {w.accessProblem && (
                    <span className="small workspace-access-problem" role="status" data-testid="access-problem">
                      {w.accessProblem}
                    </span>
                  )}
                </span>
                <span className="template-badges workspace-actions">
                  {w.id !== activeId && (
                    <Button size="sm" variant="primary" busy={activate.isPending && activate.variables?.id === w.id} onClick={() => guarded(() => activate.mutate({ id: w.id }))} aria-label={`Use ${w.name}`}>
                      Use
                    </Button>
                  )}
                  {w.kind === 'remote' && (
                    <Button
                      size="sm"
                      onClick={(e) => {
                        openPane({ kind: 'test', workspace: w }, e.currentTarget);
                        test.mutate({ id: w.id });
                      }}
                      aria-label={`Test ${w.name}`}
                    >
                      Test
                    </Button>
                  )}
                  <Button size="sm" onClick={(e) => openPane({ kind: 'form', workspace: w }, e.currentTarget)} aria-label={`Edit ${w.name}`}>
                    Edit
                  </Button>
                  {w.authMode !== 'browser' && (
                    <Button size="sm" onClick={(e) => openPane({ kind: 'switch', workspace: w }, e.currentTarget)} aria-label={`Switch key of ${w.name}`}>
                      Switch key
                    </Button>
                  )}
                  {w.kind === 'local' && <RestoreAccessButton size="sm" variant={w.accessProblem ? 'primary' : 'secondary'} />}
                  {w.kind === 'remote' && w.authMode !== 'browser' && (
                    <Button
                      size="sm"
                      onClick={() => setRotating(w)}
                      aria-label={`Rotate key of ${w.name}`}
                      disabled={open.some((r) => r.workspaceId === w.id)}
                      title={open.some((r) => r.workspaceId === w.id) ? 'Finish or roll back the rotation above first' : undefined}
                    >
                      Rotate key
                    </Button>
                  )}
                  {w.kind === 'remote' && (
                    <Button size="sm" variant="danger" onClick={() => setRemoving(w)} aria-label={`Remove ${w.name}`}>
                      Remove
                    </Button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </section>
        <section className="template-detail-pane" aria-label="Workspace details">
          {pane?.kind === 'form' && <WorkspaceForm key={pane.workspace?.id ?? 'new'} existing={pane.workspace} onDone={closeForm} />}
          {pane?.kind === 'switch' && <SwitchKeyForm key={`switch-${pane.workspace.id}`} workspace={pane.workspace} onDone={closeForm} />}
          {pane?.kind === 'test' && (
            <ClosablePane key={`test-${pane.workspace.id}`} onClose={closeForm} label={`Test of ${pane.workspace.name}`} data-testid="workspace-test-pane">
              <h2 className="section-title">Test of "{pane.workspace.name}"</h2>
              {test.isPending && <Spinner size={20} label="Testing the connection" />}
              {test.error && <ErrorPanel title="Could not test" code={test.error.code} message={test.error.message} />}
              {test.data && !test.isPending && <ConnectionReportView report={test.data} />}
              <div className="template-actions">
                <Button onClick={closeForm}>Close</Button>
              </div>
            </ClosablePane>
          )}
          {pane === null && <p className="muted empty-hint">Add a deployment of the API, or choose Edit or Test on a workspace.</p>}
        </section>
      </div>
      {history.length > 0 && (
        <section aria-label="Rotation history" className="rotation-history">
          <h2 className="section-title">Key rotations</h2>
          {history.map((r) => (
            <RotationPanel key={r.id} rotation={r} />
          ))}
        </section>
      )}
      <ChatModelSettings />
      <DesktopPreferences />
      <ConfirmDialog
        open={rotating !== null}
        title={`Rotate the key of "${rotating?.name ?? ''}"?`}
        confirmLabel="Rotate key"
        busy={rotate.isPending}
        onCancel={() => setRotating(null)}
        onConfirm={() => rotating && rotate.mutate({ workspaceId: rotating.id })}
      >
        A new key with the same scopes is created, proven with a signed request and put in place; then the old key {rotating?.authKey.slice(0, 12)}… is
        deactivated. Anything else still using the old key stops working. You can delete the old key afterwards.
      </ConfirmDialog>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove "${removing?.name ?? ''}"?`}
        confirmLabel="Remove workspace"
        tone="danger"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ id: removing.id })}
      >
        Its Auth Secret is deleted from the system keychain. The deployment and its keys are not touched.
        {remove.error && <ErrorPanel title="Not removed" code={remove.error.code} message={remove.error.message} />}
      </ConfirmDialog>
    </div>
  );
};
