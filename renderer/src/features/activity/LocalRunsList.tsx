import { useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { formatBytes, formatCount } from '../../lib/format';
import { DateTime } from '../../components/DateTime';
import { describeRunState } from '../../lib/run-state';
import { useNavigation } from '../../state/navigation-store';

/** The runs this app started (kept by core), newest first: what Activity shows when the service's list cannot be read. */
export const LocalRunsList = () => {
  const runs = useBridgeQuery('runs:list', {});
  const navigate = useNavigation((s) => s.navigate);

  return (
    <section className="asm-local-runs" aria-labelledby="local-runs-title">
      <h2 id="local-runs-title" className="section-title">
        Started from this app
      </h2>
      {runs.isPending && <Spinner size={18} label="Loading runs" />}
      {runs.isError && <ErrorPanel title="Could not load the runs of this app" code={runs.error.code} message={runs.error.message} />}
      {runs.data && runs.data.length === 0 && <p className="muted">None yet.</p>}
      {runs.data && runs.data.length > 0 && (
        <ul className="boxed-list run-list" aria-label="Runs of this app">
          {runs.data.map((run) => {
            const view = describeRunState(run);
            return (
              <li key={run.runId}>
                <button type="button" className="run-list-item" onClick={() => navigate(run.assemblyId ? { name: 'assembly', assemblyId: run.assemblyId } : { name: 'run', runId: run.runId })}>
                  <Badge tone={view.tone}>{view.label}</Badge>
                  <span className="run-list-main">
                    <span className="mono run-list-id">{run.assemblyId ?? run.runId}</span>
                    <DateTime className="muted small" value={run.createdAt} />
                  </span>
                  <span className="num run-list-totals">
                    {formatCount(run.totals.filesTotal, 'file')} · {formatBytes(run.totals.bytesTotal)}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
};
