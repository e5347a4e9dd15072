import { useEffect, useState } from 'react';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SlotStatsRange } from '../../../../shared/ipc/queue-models';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { StaleNotice } from '../../components/StaleNotice';
import { chartCaption, stepPoints } from './queue-summary';

const RANGES: ReadonlyArray<{ value: SlotStatsRange; label: string }> = [
  { value: 'hour', label: 'Last hour' },
  { value: 'day', label: 'Last day' },
];

const tick = (range: SlotStatsRange) => (at: number) =>
  new Date(at * 1000).toLocaleTimeString(undefined, range === 'hour' ? { hour: '2-digit', minute: '2-digit' } : { hour: '2-digit' });

/** Slot use over the last hour or day (GET /priority_job_slot_stats), average or peak per bucket, with a caption for screen readers and a glance. */
export const SlotChart = ({ inUse }: { inUse: number | undefined }) => {
  const [range, setRange] = useState<SlotStatsRange>('hour');
  const [aggregation, setAggregation] = useState<'avg' | 'max'>('max');
  // The buckets are minutes (or quarter hours): a refresh every 15 s keeps the last one current.
  const stats = useBridgeQuery('queue:slotStats', { range, aggregation }, { refetchInterval: 15_000, placeholderData: (previous) => previous });
  const data = stats.data;
  // A job starting or ending shows in the chart soon, not at the next 15 s refresh: the service writes
  // its samples once a second, so read again just after that.
  const { refetch } = stats;
  useEffect(() => {
    if (inUse === undefined) return;
    const timer = setTimeout(() => void refetch(), 1_200);
    return () => clearTimeout(timer);
  }, [inUse, refetch]);
  return (
    <section className="queue-chart-section" aria-labelledby="queue-chart-title">
      <div className="queue-chart-head">
        <h2 id="queue-chart-title" className="section-title">
          Slot use
        </h2>
        <div className="queue-chart-controls">
          <div className="queue-toggle" role="group" aria-label="Range">
            {RANGES.map((r) => (
              <button key={r.value} type="button" className="queue-toggle-item" aria-pressed={range === r.value} onClick={() => setRange(r.value)}>
                {r.label}
              </button>
            ))}
          </div>
          <select className="input queue-aggregation" aria-label="Per interval" value={aggregation} onChange={(e) => setAggregation(e.currentTarget.value === 'avg' ? 'avg' : 'max')}>
            <option value="max">Peak per interval</option>
            <option value="avg">Average per interval</option>
          </select>
        </div>
      </div>
      {stats.isError && data && <StaleNotice updatedAt={stats.dataUpdatedAt} error={stats.error} onRetry={() => void stats.refetch()} />}
      {stats.isError && !data && <ErrorPanel title="Could not load slot statistics" code={stats.error.code} message={stats.error.message} httpCode={stats.error.httpCode} />}
      {/* The drawing is hidden from screen readers: the caption below says its key figures. */}
      <div className="queue-chart" data-testid="queue-chart">
        {!data && stats.isPending && <Spinner size={24} label="Loading slot statistics" />}
        {data && (
          <ResponsiveContainer width="100%" height="100%">
            <AreaChart data={stepPoints(data)} margin={{ top: 8, right: 12, bottom: 0, left: -12 }} accessibilityLayer={false} aria-hidden="true">
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="at" tickFormatter={tick(range)} stroke="var(--text-muted)" fontSize={11} minTickGap={32} />
              <YAxis allowDecimals={aggregation === 'avg'} domain={[0, data.total ?? 'auto']} stroke="var(--text-muted)" fontSize={11} width={40} />
              <Tooltip
                labelFormatter={(at) => new Date(Number(at) * 1000).toLocaleString()}
                contentStyle={{ background: 'var(--bg-raised)', border: '1px solid var(--border)', borderRadius: 'var(--radius-sm)', color: 'var(--text)' }}
              />
              <Area type="stepAfter" dataKey="inUse" name="Slots in use" stroke="var(--accent)" fill="var(--accent-soft)" strokeWidth={2} isAnimationActive={false} />
              <Area type="stepAfter" dataKey="queued" name="Assemblies waiting" stroke="var(--warning)" fill="var(--warning-soft)" strokeWidth={1.5} isAnimationActive={false} />
            </AreaChart>
          </ResponsiveContainer>
        )}
      </div>
      {data && (
        <p className="small muted" data-testid="queue-chart-caption">
          <span className="queue-legend queue-legend-use" aria-hidden="true" /> Slots in use <span className="queue-legend queue-legend-wait" aria-hidden="true" /> Assemblies waiting
          {' — '}
          {chartCaption(data, range)}
        </p>
      )}
    </section>
  );
};
