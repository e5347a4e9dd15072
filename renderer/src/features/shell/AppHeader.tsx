import { useQueryClient } from '@tanstack/react-query';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { IconButton } from '../../components/IconButton';
import { MonitorIcon, MoonIcon, SunIcon } from '../../components/Icons';
import { useConnection } from './connection-store';
import { guarded } from '../../state/navigation-store';
import { useTheme } from '../../state/theme-store';

const THEME_LABEL = { system: 'Theme: follow system', light: 'Theme: light', dark: 'Theme: dark' } as const;

export const AppHeader = () => {
  const info = useBridgeQuery('app:info', {}, { staleTime: Infinity });
  const workspaces = useBridgeQuery('workspaces:list', {}, { staleTime: 30_000 });
  const service = useBridgeQuery('service:status', {}, { staleTime: Infinity });
  const hostConnected = useConnection((s) => s.hostConnected);
  const theme = useTheme((s) => s.theme);
  const cycle = useTheme((s) => s.cycle);
  const client = useQueryClient();
  // Every screen's data belongs to the workspace it came from: switching reads it all again.
  const activate = useBridgeMutation('workspaces:activate', { onSuccess: () => void client.invalidateQueries() });

  const active = workspaces.data?.find((w) => w.id === info.data?.activeWorkspaceId);
  const name = active?.name ?? (info.data ? 'Local (this computer)' : '…');
  const endpoint = active?.kind === 'remote' ? active.endpoint : (info.data?.localServiceUrl ?? active?.endpoint);
  // Green only when the page reaches the app and, for the Local workspace, its service answers.
  const serviceDown = active?.kind !== 'remote' && service.data !== undefined && service.data.phase !== 'running';
  const dot = !hostConnected || info.isError ? 'status-bad' : !info.data || serviceDown ? 'status-wait' : 'status-ok';
  const dotLabel = !hostConnected ? 'Disconnected' : info.isError ? 'Cannot reach the app core' : serviceDown ? 'Local service not running' : info.data ? 'Connected' : 'Connecting';

  return (
    <header className="app-header" aria-label="Workspace and settings">
      <div className="workspace" role="group" aria-label="Active workspace">
        <span className={`status-dot ${dot}`} role="img" aria-label={dotLabel} title={dotLabel} data-testid="connection-dot" />
        <div className="workspace-text">
          {workspaces.data && workspaces.data.length > 1 && info.data ? (
            <select
              className="workspace-select"
              aria-label="Switch workspace"
              value={info.data.activeWorkspaceId}
              disabled={activate.isPending}
              onChange={(e) => {
                const id = e.currentTarget.value;
                // Another workspace's screens replace this one's: unsaved input is asked about first.
                guarded(() => activate.mutate({ id }));
              }}
            >
              {workspaces.data.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          ) : (
            <span className="workspace-name">{name}</span>
          )}
          {info.isError ? (
            <span className="workspace-url danger-text">
              Cannot reach the app core: <code>{info.error.code}</code> {info.error.message}
            </span>
          ) : (
            endpoint && (
              <span className="workspace-url" title={active?.kind === 'remote' ? 'API endpoint' : 'Local service URL'}>
                {endpoint}
              </span>
            )
          )}
        </div>
      </div>
      <div className="header-actions">
        {info.data && <span className="muted small">v{info.data.version}</span>}
        <IconButton label={THEME_LABEL[theme]} onClick={cycle}>
          {theme === 'system' ? <MonitorIcon /> : theme === 'light' ? <SunIcon /> : <MoonIcon />}
        </IconButton>
      </div>
    </header>
  );
};
