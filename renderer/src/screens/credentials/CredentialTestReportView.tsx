import type { CredentialTestReport } from '../../../../shared/ipc/template-models';
import { Badge } from '../../components/Badge';

const TONE = { ok: 'success', fail: 'danger', warn: 'warning', skipped: 'neutral' } as const;
const WORD = { ok: 'OK', fail: 'Failed', warn: 'Warning', skipped: 'Skipped' } as const;

const title = (r: CredentialTestReport): string => (!r.tested ? 'Cannot be tested from here' : r.ok ? 'Credentials work' : 'Credentials have problems');

/** "Test credential" as a checklist, like the workspace connection test: each check says what to fix. */
export const CredentialTestReportView = ({ report }: { report: CredentialTestReport }) => (
  <section className="connection-report" aria-label="Credential test" data-testid="credential-test-report" data-ok={report.ok} aria-live="polite">
    <h3 className="section-title">{title(report)}</h3>
    <p className="small muted mono">{report.target}</p>
    <ul className="check-list">
      {report.checks.map((c) => (
        <li key={c.id} className="check-row" data-testid={`credential-check-${c.id}`} data-status={c.status}>
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
