import type { ConnectionReport } from '../../../../shared/ipc/workspace-models';
import { CheckList } from '../../components/CheckList';

/** "Test connection" as a checklist: each check says what is wrong, with the service's code. */
export const ConnectionReportView = ({ report }: { report: ConnectionReport }) => (
  <section className="connection-report" aria-label="Connection test" data-testid="connection-report">
    <h3 className="section-title">{report.ok ? 'Connection works' : 'Connection has problems'}</h3>
    <CheckList checks={report.checks} testIdPrefix="check-" />
  </section>
);
