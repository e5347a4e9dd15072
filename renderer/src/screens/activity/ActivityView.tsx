import { useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { ActivityIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { formatBytes, formatCount, formatDateTime } from '../../lib/format';
import { describeRunState } from '../../lib/run-state';
import { useNavigation } from '../../state/navigation-store';

/** Recent runs, newest first; each row opens its run view. */
export const ActivityView = () => {
  const runs = useBridgeQuery('runs:list', {});
  const navigate = useNavigation((s) => s.navigate);

  return (
    <div className="activity-view">
      <div className="section-head">
        <h1 className="page-title">Activity</h1>
        <Button size="sm" variant="ghost" onClick={() => void runs.refetch()} busy={runs.isFetching && !runs.isPending}>
          Refresh
        </Button>
      </div>
      {runs.isPending && (
        <div className="center-pane">
          <Spinner size={24} label="Loading recent Assemblies" />
        </div>
      )}
      {runs.isError && <ErrorPanel title="Could not load recent Assemblies" code={runs.error.code} message={runs.error.message} />}
      {runs.data && runs.data.length === 0 && (
        <EmptyState icon={<ActivityIcon />} title="No Assemblies yet" action={<Button variant="primary" onClick={() => navigate({ name: 'upload' })}>Upload files</Button>}>
          Assemblies you start appear here, with their progress and results.
        </EmptyState>
      )}
      {runs.data && runs.data.length > 0 && (
        <ul className="run-list" aria-label="Recent Assemblies">
          {runs.data.map((run) => {
            const view = describeRunState(run);
            return (
              <li key={run.runId}>
                <button type="button" className="run-list-item" onClick={() => navigate({ name: 'run', runId: run.runId })}>
                  <Badge tone={view.tone}>{view.label}</Badge>
                  <span className="run-list-main">
                    <span className="mono run-list-id">{run.assemblyId ?? run.runId}</span>
                    <span className="muted small">{formatDateTime(run.createdAt)}</span>
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
    </div>
  );
};
