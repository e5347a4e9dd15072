import type { ConnectionReport } from '../../../../shared/ipc/workspace-models';
import { Badge } from '../../components/Badge';

const TONE = { ok: 'success', fail: 'danger', warn: 'warning', skipped: 'neutral' } as const;
const WORD = { ok: 'OK', fail: 'Failed', warn: 'Warning', skipped: 'Skipped' } as const;

/** "Test connection" as a checklist: each check says what is wrong, with the service's code. */
export const ConnectionReportView = ({ report }: { report: ConnectionReport }) => (
  <section className="connection-report" aria-label="Connection test" data-testid="connection-report">
    <h3 className="section-title">{report.ok ? 'Connection works' : 'Connection has problems'}</h3>
    <ul className="check-list">
      {report.checks.map((c) => (
        <li key={c.id} className="check-row" data-testid={`check-${c.id}`} data-status={c.status}>
          <Badge tone={TONE[c.status]}>{WORD[c.status]}</Badge>
          <span className="check-text">
            <strong>{c.label}</strong>
            <span>{c.message}</span>
            {c.code && <code className="error-code">{c.code}</code>}
          </span>
        </li>
      ))}
    </ul>
  </section>
);
