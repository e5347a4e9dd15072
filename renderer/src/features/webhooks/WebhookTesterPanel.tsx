import './webhooks.css';
import type { ReceivedWebhook } from '../../../../shared/ipc/webhook-models';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { formatBytes } from '../../lib/format';
import { useWebhookTester } from './use-webhook-tester';
import { DateTime } from '../../components/DateTime';

const pretty = (payload: string): string => {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
};

const ReceivedRow = ({ webhook }: { webhook: ReceivedWebhook }) => {
  const v = webhook.verification;
  return (
    <li className="wh-item" data-testid="webhook-received" data-assembly-id={webhook.assemblyId ?? ''}>
      <div className="wh-line">
        <DateTime className="num small muted" value={webhook.receivedAt} timeOnly />
        <span className="mono small wh-id">{webhook.assemblyId ?? 'no Assembly id'}</span>
        {webhook.ok && <Badge tone={webhook.error ? 'danger' : 'success'}>{webhook.error ?? webhook.ok}</Badge>}
        <Badge tone={v.verified ? 'success' : 'danger'} data-testid="webhook-verified" title={v.message}>
          {v.verified ? `✓ Verified (${v.algorithm})` : `✗ Not verified`}
        </Badge>
        <span className="num small muted">{formatBytes(webhook.payloadBytes)}</span>
      </div>
      <p className={`small ${v.verified ? 'muted' : 'wh-problem'}`} data-testid="webhook-verification">
        {webhook.problem ?? v.message}
      </p>
      {webhook.payload !== null && (
        <details className="wh-payload">
          <summary className="small">Payload (JSON)</summary>
          <pre className="mono asm-raw-json">{pretty(webhook.payload)}</pre>
        </details>
      )}
    </li>
  );
};

/**
 * The in-app webhook tester: core's receiver on a loopback URL. Every notification it receives is listed
 * with its signature checked in core against the workspaces' key secrets (or why it is not verified).
 */
export const WebhookTesterPanel = ({ assemblyId }: { assemblyId?: string }) => {
  const { tester, clear } = useWebhookTester();
  const url = tester.data?.url ?? null;
  if (!url) return null;
  const received = tester.data?.received ?? [];
  const mine = assemblyId ? received.filter((w) => w.assemblyId === assemblyId).length : null;
  return (
    <section className="card wh-panel" aria-labelledby="wh-title" data-testid="webhook-tester">
      <div className="wh-head">
        <h3 id="wh-title" className="section-title">
          Webhook tester
        </h3>
        <span className="mono small wh-url" data-testid="webhook-tester-url">
          {url}
        </span>
        {received.length > 0 && (
          <Button size="sm" variant="ghost" onClick={() => clear.mutate({})}>
            Clear
          </Button>
        )}
      </div>
      {tester.isError && <ErrorPanel title="Could not read the webhook tester" code={tester.error.code} message={tester.error.message} />}
      {received.length === 0 ? (
        <p className="muted small">Waiting for notifications sent to this URL…</p>
      ) : (
        <>
          {mine !== null && <p className="muted small">{`${received.length} received, ${mine} from this Assembly.`}</p>}
          <ul className="wh-list" aria-label="Received webhooks">
            {received.map((w) => (
              <ReceivedRow key={w.id} webhook={w} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
};
