import '../../styles/webhooks.css';
import { NOTIFICATION_PAYLOAD_OPTIONS } from '../../../../shared/api/instructions';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { notifyUrlProblem, PAYLOAD_LABELS } from '../../lib/notify-form';
import { useWebhookTester } from '../webhooks/use-webhook-tester';
import { useNotifyChoice } from './notify-store';

/**
 * "Notify a URL when done": the Assembly's `notify_url` (and what its notification leaves out,
 * `notification_payload`), or the in-app webhook tester's loopback URL.
 */
export const NotifyField = () => {
  const url = useNotifyChoice((s) => s.url);
  const leaveOut = useNotifyChoice((s) => s.leaveOut);
  const setUrl = useNotifyChoice((s) => s.setUrl);
  const toggle = useNotifyChoice((s) => s.toggle);
  const { start } = useWebhookTester();
  const problem = notifyUrlProblem(url);

  return (
    <fieldset className="notify-field">
      <legend className="section-title">Notify a URL when done</legend>
      <span className="notify-row">
        <input className="input" type="url" aria-label="Notify URL" placeholder="https://example.com/webhook (optional)" value={url} aria-invalid={problem !== null} onChange={(e) => setUrl(e.currentTarget.value)} />
        <Button size="sm" busy={start.isPending} onClick={() => start.mutate({}, { onSuccess: (tester) => tester.url && setUrl(tester.url) })}>
          Use the in-app tester
        </Button>
      </span>
      {problem && <span className="field-error">{problem}</span>}
      {start.isError && <ErrorPanel title="The webhook tester could not start" code={start.error.code} message={start.error.message} />}
      {url.trim() !== '' && (
        <div className="notify-leave-out small" role="group" aria-label="Leave out of the notification">
          <span className="muted">Leave out:</span>
          {NOTIFICATION_PAYLOAD_OPTIONS.map((option) => (
            <label key={option} className="toolbar-check">
              <input type="checkbox" checked={leaveOut.includes(option)} onChange={() => toggle(option)} />
              {PAYLOAD_LABELS[option]}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
};
