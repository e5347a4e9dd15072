import { useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { ErrorPanel } from '../../components/ErrorPanel';
import { WebhookTesterPanel } from '../webhooks/WebhookTesterPanel';
import { NotificationReplay } from './NotificationReplay';
import { DateTime } from '../../components/DateTime';
import { formatDateTime } from '../../lib/date-time';

/**
 * Every delivery of the Assembly's notification (GET /assembly_notifications/{id}), oldest first; once it
 * ended, replaying it (to another URL too) and the in-app webhook tester's received notifications.
 */
export const NotificationAttempts = ({ assemblyId, hasNotifyUrl, busy }: { assemblyId: string; hasNotifyUrl: boolean; busy: boolean }) => {
  const notes = useBridgeQuery('assemblies:notifications', { assemblyId }, { enabled: hasNotifyUrl || !busy, refetchInterval: (q) => ((q.state.data?.pending.length ?? 0) > 0 ? 3000 : false) });
  // Without a notify URL there are no attempts, but an ended Assembly can still notify a URL given now.
  if (!hasNotifyUrl && busy) return null;
  return (
    <section aria-labelledby="asm-notes-title">
      <h2 id="asm-notes-title" className="section-title">
        Notifications
      </h2>
      {notes.isError && <ErrorPanel title="Could not read the notification attempts" code={notes.error.code} message={notes.error.message} />}
      {!hasNotifyUrl && <p className="muted">It was made without a notify URL; a replay can send its notification to one.</p>}
      {hasNotifyUrl && notes.data && notes.data.attempts.length === 0 && notes.data.pending.length === 0 && (
        <p className="muted">{busy ? 'Sent once the Assembly ends.' : 'No attempt yet.'}</p>
      )}
      {notes.data && notes.data.attempts.length > 0 && (
        <table className="asm-table" data-testid="notification-attempts">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">To</th>
              <th scope="col">Outcome</th>
              <th scope="col">Answer</th>
            </tr>
          </thead>
          <tbody>
            {notes.data.attempts.map((a, i) => (
              <tr key={i} data-testid="notification-attempt">
                <td className="num small">
                  <DateTime value={a.started} />
                </td>
                <td className="mono small asm-url">
                  {a.url}
                  {a.replay ? ' (replay)' : ''}
                </td>
                <td>
                  <Badge tone={a.successful ? 'success' : 'danger'}>{a.successful ? `${a.responseCode ?? ''} OK`.trim() : a.responseCode !== null ? `HTTP ${a.responseCode}` : 'Failed'}</Badge>
                  {a.duration !== null && <span className="muted small num"> {a.duration.toFixed(2)} s</span>}
                </td>
                <td className="small">{a.error ?? a.responseData ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {notes.data && notes.data.pending.length > 0 && (
        <p className="muted small" data-testid="notification-pending">
          {notes.data.pending.map((p) => `Next attempt ${p.nextAttempt ? formatDateTime(p.nextAttempt) : 'soon'} to ${p.url ?? 'the notify URL'}`).join('; ')}
        </p>
      )}
      {!busy && <NotificationReplay assemblyId={assemblyId} />}
      <WebhookTesterPanel assemblyId={assemblyId} />
    </section>
  );
};
