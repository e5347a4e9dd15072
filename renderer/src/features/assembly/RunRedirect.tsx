import { useEffect } from 'react';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { runErrorOf } from '../../lib/run-state';
import { useNavigation } from '../../state/navigation-store';

/**
 * `#/run/<runId>` (older links, a run opened before its Assembly existed): once the run has its Assembly,
 * its one view (`#/assemblies/<id>`) replaces this entry. Until then it says the Assembly is being
 * created; a run whose Assembly was never created says why.
 */
export const RunRedirect = ({ runId }: { runId: string }) => {
  const navigate = useNavigation((s) => s.navigate);
  // Run events keep the query fresh (its Assembly id arrives with the service's first answer).
  const query = useBridgeQuery('runs:get', { runId });
  const assemblyId = query.data?.assemblyId ?? null;
  useEffect(() => {
    if (assemblyId) navigate({ name: 'assembly', assemblyId }, { replace: true });
  }, [assemblyId, navigate]);

  if (query.isError) {
    return (
      <div className="asm-view">
        <ErrorPanel title="Could not load this Assembly" code={query.error.code} message={query.error.message} action={<Button onClick={() => navigate({ name: 'activity' })}>Back to Activity</Button>} />
      </div>
    );
  }
  const failure = query.data && !assemblyId ? runErrorOf(query.data) : null;
  if (failure) {
    return (
      <div className="asm-view">
        <h1 className="page-title">Assembly</h1>
        <ErrorPanel
          data-testid="assembly-error"
          title="The service did not create the Assembly"
          code={failure.code}
          message={failure.message}
          httpCode={failure.httpCode}
          action={<Button onClick={() => navigate({ name: 'upload' })}>Back to Upload</Button>}
        />
      </div>
    );
  }
  return (
    <div className="center-pane">
      <Spinner size={24} label={query.data ? 'Creating the Assembly' : 'Loading the Assembly'} />
    </div>
  );
};
