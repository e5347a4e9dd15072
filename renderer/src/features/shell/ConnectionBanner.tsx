import { useBridgeQuery } from '../../bridge/use-bridge';
import { connectionNotice } from './connection-notice';
import { useConnection } from './connection-store';

/** "Disconnected" / "Local service restarting…" under the header, instead of a page that silently freezes. */
export const ConnectionBanner = () => {
  const hostConnected = useConnection((s) => s.hostConnected);
  const service = useBridgeQuery('service:status', {}, { staleTime: Infinity });
  const info = useBridgeQuery('app:info', {}, { staleTime: Infinity });
  const notice = connectionNotice(hostConnected, service.data, (info.data?.activeWorkspaceId ?? 'local') === 'local');
  if (!notice) return null;
  return (
    <div className={`banner banner-${notice.tone}`} role="alert" aria-label="Connection" data-testid="connection-banner">
      <span className={`status-dot ${notice.tone === 'danger' ? 'status-bad' : 'status-wait'}`} aria-hidden="true" />
      <div>
        <strong>{notice.title}</strong> <span className="muted">{notice.detail}</span>
      </div>
    </div>
  );
};
