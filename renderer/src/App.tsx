import { lazy, Suspense, useEffect, useState } from 'react';
import { useRunEvents } from './bridge/run-events';
import { TransferControllerProvider, useTransferEvents } from './bridge/transfer-events';
import { Toaster } from './components/Toaster';
import { AssemblyView } from './features/assembly/AssemblyView';
import { ActivityView } from './features/activity/ActivityView';
import { AppHeader } from './features/shell/AppHeader';
import { LeaveGuard } from './features/shell/LeaveGuard';
import { ConnectionBanner } from './features/shell/ConnectionBanner';
import { RunRedirect } from './features/assembly/RunRedirect';
import { Sidebar } from './features/shell/Sidebar';
import { Spinner } from './components/Spinner';
import { loadedTransfersView, loadTransfersView } from './features/transfers/view-loader';
import { UploadView } from './features/upload/UploadView';
import { useSavedStepsChoice } from './features/upload/use-saved-choice';
import { useConnectionEvents } from './features/shell/use-connection-events';
import { ShortcutsDialog } from './features/shell/ShortcutsDialog';
import { SkipLink } from './features/shell/SkipLink';
import { useDesktop } from './features/shell/use-desktop';
import { VaultBanner } from './features/shell/VaultBanner';
import { useLocationRoute, useNavigation } from './state/navigation-store';

/** A file dropped outside the drop zone must not make the window navigate to it (and leave the app). */
const useNoFileNavigation = (): void => {
  useEffect(() => {
    const block = (event: DragEvent) => {
      if (event.defaultPrevented) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
    };
    window.addEventListener('dragover', block);
    window.addEventListener('drop', block);
    return () => {
      window.removeEventListener('dragover', block);
      window.removeEventListener('drop', block);
    };
  }, []);
};

// The admin screens carry CodeMirror; loading them on first visit keeps the app's start small.
const TemplatesView = lazy(() => import('./features/templates/TemplatesView').then((m) => ({ default: m.TemplatesView })));
const TemplateEditor = lazy(() => import('./features/templates/TemplateEditor').then((m) => ({ default: m.TemplateEditor })));
const WorkspacesView = lazy(() => import('./features/workspaces/WorkspacesView').then((m) => ({ default: m.WorkspacesView })));
const AuthKeysView = lazy(() => import('./features/auth-keys/AuthKeysView').then((m) => ({ default: m.AuthKeysView })));
const CdnView = lazy(() => import('./features/cdn/CdnView').then((m) => ({ default: m.CdnView })));
const UsageView = lazy(() => import('./features/usage/UsageView').then((m) => ({ default: m.UsageView })));
const StatisticsView = lazy(() => import('./features/statistics/StatisticsView').then((m) => ({ default: m.StatisticsView })));
const WatchFoldersView = lazy(() => import('./features/watch-folders/WatchFoldersView').then((m) => ({ default: m.WatchFoldersView })));
const QueueView = lazy(() => import('./features/queue/QueueView').then((m) => ({ default: m.QueueView })));
const AssetsView = lazy(() => import('./features/assets/AssetsView').then((m) => ({ default: m.AssetsView })));
const CredentialsView = lazy(() => import('./features/credentials/CredentialsView').then((m) => ({ default: m.CredentialsView })));

const LazyTransfersView = lazy(() => loadTransfersView().then((View) => ({ default: View })));

/** The loaded view if its chunk is in (preloaded while idle after start), else the lazy one; fixed per mount. */
const TransfersRoute = ({ batchId }: { batchId?: string | undefined }) => {
  const [View] = useState(() => loadedTransfersView() ?? LazyTransfersView);
  return <View batchId={batchId} />;
};

export const App = () => {
  useRunEvents();
  const transfers = useTransferEvents();
  useConnectionEvents();
  useNoFileNavigation();
  useLocationRoute();
  useSavedStepsChoice();
  const desktop = useDesktop();
  const route = useNavigation((s) => s.route);
  return (
    <TransferControllerProvider value={transfers}>
    <div className="shell">
      <SkipLink />
      <Sidebar />
      <div className="shell-main">
        <AppHeader />
        <ConnectionBanner />
        <VaultBanner />
        <main className="content" id="main" tabIndex={-1} aria-label="Content">
          {route.name === 'upload' && <UploadView />}
          {route.name === 'activity' && <ActivityView />}
          {route.name === 'run' && <RunRedirect key={route.runId} runId={route.runId} />}
          {route.name === 'assembly' && <AssemblyView key={route.assemblyId} assemblyId={route.assemblyId} />}
          <Suspense
            fallback={
              <div className="center-pane">
                <Spinner size={24} label="Loading" />
              </div>
            }
          >
            {route.name === 'transfers' && <TransfersRoute batchId={route.batchId} />}
            {route.name === 'templates' && <TemplatesView selectedId={route.selectedId} list={route.list} />}
            {route.name === 'credentials' && <CredentialsView />}
            {route.name === 'workspaces' && <WorkspacesView />}
            {route.name === 'auth-keys' && <AuthKeysView />}
            {route.name === 'cdn' && <CdnView />}
            {route.name === 'usage' && <UsageView />}
            {route.name === 'statistics' && <StatisticsView />}
            {route.name === 'queue' && <QueueView />}
            {route.name === 'watch-folders' && <WatchFoldersView />}
            {route.name === 'assets' && <AssetsView key={route.folder ?? ''} folder={route.folder ?? ''} />}
            {route.name === 'template-editor' && <TemplateEditor key={`${route.id ?? 'new'}-${String(route.copy)}`} id={route.id} copy={route.copy} />}
          </Suspense>
        </main>
      </div>
      <Toaster />
      <LeaveGuard />
      <ShortcutsDialog open={desktop.shortcutsOpen} mac={desktop.mac} onClose={desktop.closeShortcuts} />
    </div>
    </TransferControllerProvider>
  );
};
