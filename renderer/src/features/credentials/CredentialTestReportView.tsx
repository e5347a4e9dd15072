import type { CredentialTestReport } from '../../../../shared/ipc/template-models';
import { CheckList } from '../../components/CheckList';

const title = (r: CredentialTestReport): string => (!r.tested ? 'Cannot be tested from here' : r.ok ? 'Credentials work' : 'Credentials have problems');

/** "Test credential" as a checklist, like the workspace connection test: each check says what to fix. */
export const CredentialTestReportView = ({ report }: { report: CredentialTestReport }) => (
  <section className="connection-report" aria-label="Credential test" data-testid="credential-test-report" data-ok={report.ok} aria-live="polite">
    <h3 className="section-title">{title(report)}</h3>
    <p className="small muted mono">{report.target}</p>
    <CheckList checks={report.checks} testIdPrefix="credential-check-" />
  </section>
);
