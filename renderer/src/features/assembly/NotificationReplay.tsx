import { useState } from 'react';
import '../webhooks/webhooks.css';
import { useQueryClient } from '@tanstack/react-query';
import { bridgeKey, useBridgeMutation } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { RetryIcon } from '../../components/Icons';
import { notifyUrlProblem } from '../../lib/notify-form';
import { useWebhookTester } from '../webhooks/use-webhook-tester';

/**
 * Send the notification of an ended Assembly again (POST /assembly_notifications/{id}/replay), to its own
 * notify URL or another (this replay only), and show the first attempt's outcome at once.
 */
export const NotificationReplay = ({ assemblyId }: { assemblyId: string }) => {
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [shownProblem, setShownProblem] = useState(false);
  const { start } = useWebhookTester();
  const replay = useBridgeMutation('assemblies:replayNotification', {
    onSettled: () => void client.invalidateQueries({ queryKey: bridgeKey('assemblies:notifications', { assemblyId }) }),
  });
  const problem = shownProblem ? notifyUrlProblem(url) : null;
  const result = replay.data;

  const submit = () => {
    setShownProblem(true);
    if (notifyUrlProblem(url) === null) replay.mutate({ assemblyId, ...(url.trim() ? { notifyUrl: url.trim() } : {}) });
  };
  const fillFromTester = () =>
    start.mutate(
      {},
      {
        onSuccess: (tester) => {
          if (tester.url) setUrl(tester.url);
        },
      },
    );

  return (
    <div className="notify-replay" data-testid="notification-replay">
      <div className="form-field">
        <label className="small" htmlFor={`notify-replay-${assemblyId}`}>
          Replay the notification to (empty: its notify URL)
        </label>
        <span className="notify-row">
          <input
            id={`notify-replay-${assemblyId}`}
            className="input"
            type="url"
            aria-label="Notification replay URL"
            placeholder="https://example.com/webhook"
            value={url}
            aria-invalid={problem !== null}
            onChange={(e) => setUrl(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && submit()}
          />
          <Button size="sm" busy={start.isPending} onClick={fillFromTester}>
            Use the webhook tester
          </Button>
          <Button size="sm" variant="primary" icon={<RetryIcon />} busy={replay.isPending} onClick={submit}>
            Replay notification
          </Button>
        </span>
        {problem && <span className="field-error">{problem}</span>}
      </div>
      {start.isError && <ErrorPanel title="The webhook tester could not start" code={start.error.code} message={start.error.message} />}
      {replay.isError && <ErrorPanel data-testid="notification-replay-error" title="The service did not replay the notification" code={replay.error.code} message={replay.error.message} />}
      {result && !replay.isPending && (
        <p className="notify-result small" role="status" data-testid="notification-replay-result">
          <span className="muted">{result.queued ? 'Replay:' : 'First attempt:'}</span>
          {result.queued ? (
            <Badge tone="neutral">Queued</Badge>
          ) : (
            <Badge tone={result.success ? 'success' : 'danger'}>{result.success ? `Delivered${result.responseCode ? ` · HTTP ${result.responseCode}` : ''}` : result.responseCode ? `Failed · HTTP ${result.responseCode}` : 'Failed'}</Badge>
          )}
          <span className="mono asm-url">{result.notifyUrl}</span>
          {result.duration !== null && <span className="muted num">{result.duration.toFixed(2)} s</span>}
          {!result.success && !result.queued && <span className="muted">{result.error ?? result.responseData ?? ''} The service retries it; the attempts above show how it went.</span>}
        </p>
      )}
    </div>
  );
};
