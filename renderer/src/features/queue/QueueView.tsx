import type { MouseEvent } from 'react';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { StaleNotice } from '../../components/StaleNotice';
import { useNow } from '../../hooks/use-now';
import { formatCount, formatDuration } from '../../lib/format';
import { formatRoute } from '../../lib/route-url';
import { useNavigation } from '../../state/navigation-store';
import { secondsSince, slotsInUseText } from './queue-summary';
import { SlotChart } from './SlotChart';
import './queue.css';

/** A link to an Assembly's detail (#/assemblies/<id>): a real link, so it can be focused and opened. */
const AssemblyLink = ({ id }: { id: string }) => {
  const navigate = useNavigation((s) => s.navigate);
  const route = { name: 'assembly', assemblyId: id } as const;
  return (
    <a
      className="mono queue-assembly-link"
      href={formatRoute(route)}
      onClick={(e: MouseEvent) => {
        e.preventDefault();
        navigate(route);
      }}
    >
      {id}
    </a>
  );
};

/** Slots in use as filled boxes (up to 32 drawn; the text says the numbers). */
const SlotMeter = ({ inUse, total }: { inUse: number; total: number }) => (
  <span className="queue-meter" aria-hidden="true">
    {Array.from({ length: Math.min(total, 32) }, (_, i) => (
      <span key={i} className={`queue-meter-slot${i < inUse ? ' queue-meter-used' : ''}`} />
    ))}
  </span>
);

/**
 * The workspace's job slots, live: what runs now (each job linked to its Assembly), what waits, and slot
 * use over time. Polls every second while shown (react-query pauses while the window is hidden).
 */
export const QueueView = () => {
  const slots = useBridgeQuery('queue:jobSlots', {}, { refetchInterval: 1_000 });
  const data = slots.data;
  const now = useNow((data?.jobs.length ?? 0) > 0 || (data?.waiting?.length ?? 0) > 0);
  return (
    <div className="queue-view" data-testid="queue-view">
      <div className="section-head">
        <h1 className="page-title">Queue</h1>
      </div>
      <p className="muted">Every robot job (one robot on one file) takes a job slot while it runs; Assemblies beyond the slots wait their turn.</p>
      {slots.isError && data && <StaleNotice updatedAt={slots.dataUpdatedAt} error={slots.error} onRetry={() => void slots.refetch()} />}
      {slots.isError && !data && <ErrorPanel title="Could not read the job slots" code={slots.error.code} message={slots.error.message} httpCode={slots.error.httpCode} />}
      {!data && slots.isPending && <Spinner size={24} label="Loading job slots" />}
      {data && (
        <>
          <p className="queue-summary" data-testid="queue-slots-summary" aria-live="polite">
            {data.total !== null && <SlotMeter inUse={data.inUse} total={data.total} />}
            <strong className="num">{slotsInUseText(data)}</strong>
          </p>
          <section aria-labelledby="queue-jobs-title" className="queue-running">
            <h2 id="queue-jobs-title" className="section-title">
              Running
            </h2>
            {data.jobs.length === 0 ? (
              <EmptyState title="No jobs running">Jobs show here while Assemblies are processed.</EmptyState>
            ) : (
              <table className="asm-table queue-table">
                <thead>
                  <tr>
                    <th scope="col">Assembly</th>
                    <th scope="col">Step</th>
                    <th scope="col">Robot</th>
                    <th scope="col" className="queue-time-col">
                      Running for
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.jobs.map((j) => (
                    <tr key={`${j.assemblyId}/${j.step}/${j.jobId}`} data-testid="queue-job-row">
                      <td>
                        <AssemblyLink id={j.assemblyId} />
                      </td>
                      <td className="mono">{j.step}</td>
                      <td className="mono">{j.robot ?? '—'}</td>
                      <td className="num queue-time-col">{formatDuration(secondsSince(j.startedAt, now))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section aria-labelledby="queue-waiting-title">
            <h2 id="queue-waiting-title" className="section-title">
              Waiting for a slot
            </h2>
            {data.waiting === null && <p className="muted small">This service does not list the Assemblies waiting for a slot.</p>}
            {data.waiting?.length === 0 && (
              <p className="muted small" data-testid="queue-waiting-none">
                No Assembly is waiting.
              </p>
            )}
            {data.waiting && data.waiting.length > 0 && (
              <table className="asm-table queue-table">
                <thead>
                  <tr>
                    <th scope="col">Assembly</th>
                    <th scope="col">Jobs in line</th>
                    <th scope="col" className="queue-time-col">
                      Waiting for
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.waiting.map((w) => (
                    <tr key={w.assemblyId} data-testid="queue-waiting-row">
                      <td>
                        <AssemblyLink id={w.assemblyId} />
                      </td>
                      <td className="num">{formatCount(w.jobs, 'job')}</td>
                      <td className="num queue-time-col">{formatDuration(secondsSince(w.since, now))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
      <SlotChart inUse={data?.inUse} />
    </div>
  );
};
