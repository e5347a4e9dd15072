import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { Stats, StatsBucket } from '../../../../shared/ipc/account-models';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ChartFigure } from '../../components/charts/ChartFigure';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { StaleNotice } from '../../components/StaleNotice';
import { formatBytes, formatDuration } from '../../lib/format';
import { DAY, HOUR, OUTCOMES, bucketLabel, dayOf, rangeOf, type RangeChoice } from './stats-range';
import { useNavigation } from '../../state/navigation-store';
import '../../styles/account.css';
import { ErrorBreakdown, STATS_CHART_HEIGHT, StatsCharts } from './StatsCharts';
import './statistics.css';

const RANGES = [
  { kind: '24h', label: 'Last 24 hours' },
  { kind: '7d', label: 'Last 7 days' },
  { kind: '30d', label: 'Last 30 days' },
  { kind: 'custom', label: 'Custom' },
] as const;

/** Relative ranges move with the clock: asked again every minute (the previous figures stay meanwhile). */
const TICK_MS = 60_000;

const granularityLabel = (g: number): string => (g === HOUR ? 'By the hour' : g === DAY ? 'By the day' : `Every ${formatDuration(g)}`);
const fmt = (n: number): string => n.toLocaleString('en-US');

const Totals = ({ stats }: { stats: Stats | null }) => {
  const sum = (key: (typeof OUTCOMES)[number]['key']): number => (stats ? stats.buckets.reduce((s, b) => s + b[key], 0) : 0);
  const items: ReadonlyArray<{ id: string; label: string; value: string }> = [
    { id: 'assemblies', label: 'Assemblies', value: stats ? fmt(stats.totals.assemblies) : '' },
    ...OUTCOMES.map((o) => ({ id: o.key, label: o.label, value: stats ? fmt(sum(o.key)) : '' })),
    { id: 'files', label: 'Files', value: stats ? fmt(stats.totals.filesProcessed) : '' },
    { id: 'uploaded', label: 'Uploaded', value: stats ? formatBytes(stats.totals.bytesUploaded) : '' },
    { id: 'results', label: 'Results', value: stats ? formatBytes(stats.totals.outputBytes) : '' },
    { id: 'execution', label: 'Execution time', value: stats ? formatDuration(stats.totals.executionS) : '' },
  ];
  return (
    <section className="card stats-totals" aria-label="Totals" aria-busy={stats ? undefined : true} data-testid="stats-totals">
      <dl>
        {items.map((i) => (
          <div key={i.id}>
            <dt>{i.label}</dt>
            <dd className="num" data-testid={`stats-total-${i.id}`}>
              {stats ? i.value : <span className="skeleton-line" />}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
};

/** Statistics: the workspace's Assemblies over time, by outcome, bytes, durations and errors (docs/account.md). */
export const StatisticsView = () => {
  const navigate = useNavigation((s) => s.navigate);
  const [choice, setChoice] = useState<RangeChoice>({ kind: '24h' });
  const [custom, setCustom] = useState(() => ({ from: dayOf(Date.now() - 6 * DAY * 1000), to: dayOf(Date.now()) }));
  const [region, setRegion] = useState<'workspace' | 'all'>('workspace');
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    if (choice.kind === 'custom') return undefined;
    const timer = setInterval(() => setNowMs(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [choice.kind]);

  const range = useMemo(() => rangeOf(choice, nowMs), [choice, nowMs]);
  const request = range.ok ? { ...range.range, region } : null;
  const stats = useBridgeQuery('account:stats', request ?? { since: 0, until: 1, region }, { enabled: request !== null, placeholderData: keepPreviousData });

  // The last figures of this range and region: kept on screen, marked stale, when a later read fails.
  const scope = `${choice.kind === 'custom' ? `${choice.from}/${choice.to}` : choice.kind}|${region}`;
  const [lastGood, setLastGood] = useState<{ scope: string; stats: Stats; at: number } | null>(null);
  useEffect(() => {
    if (stats.data && !stats.isPlaceholderData) setLastGood({ scope, stats: stats.data, at: stats.dataUpdatedAt });
  }, [stats.data, stats.isPlaceholderData, stats.dataUpdatedAt, scope]);
  const kept = lastGood?.scope === scope ? lastGood : null;
  const shown: Stats | null = stats.isError ? (kept?.stats ?? null) : (stats.data ?? null);
  const spansDays = shown ? shown.until - shown.since > DAY : false;
  const label = (b: StatsBucket): string => bucketLabel(b.from, shown?.granularity ?? HOUR, spansDays);

  // A new `until` is a new request; within the same second the same one, read again.
  const refresh = () => {
    const next = rangeOf(choice, Date.now());
    if (next.ok && range.ok && next.range.since === range.range.since && next.range.until === range.range.until) void stats.refetch();
    else setNowMs(Date.now());
  };
  const pick = (kind: RangeChoice['kind']) => {
    setNowMs(Date.now());
    setChoice(kind === 'custom' ? { kind, ...custom } : { kind });
  };
  const setDay = (which: 'from' | 'to', value: string) => {
    const next = { ...custom, [which]: value };
    setCustom(next);
    setNowMs(Date.now());
    setChoice({ kind: 'custom', ...next });
  };
  const loading = !shown && (stats.isPending || stats.isFetching) && request !== null && !stats.isError;

  return (
    <div className="account-view statistics-view">
      <div className="section-head">
        <h1 className="page-title">Statistics</h1>
        <Button size="sm" onClick={refresh} busy={stats.isFetching} disabled={stats.isFetching || request === null}>
          Refresh
        </Button>
      </div>
      <div className="toolbar stats-toolbar">
        <div className="chips" role="group" aria-label="Range">
          {RANGES.map((r) => (
            <button key={r.kind} type="button" className="chip" aria-pressed={choice.kind === r.kind} onClick={() => pick(r.kind)}>
              {r.label}
            </button>
          ))}
        </div>
        {choice.kind === 'custom' && (
          <>
            <label className="toolbar-field small">
              From
              <input className="input" type="date" aria-label="First day" value={custom.from} max={dayOf(Date.now())} onChange={(e) => setDay('from', e.currentTarget.value)} />
            </label>
            <label className="toolbar-field small">
              To
              <input className="input" type="date" aria-label="Last day" value={custom.to} max={dayOf(Date.now())} onChange={(e) => setDay('to', e.currentTarget.value)} aria-invalid={!range.ok} />
            </label>
          </>
        )}
        <label className="toolbar-field small">
          Region
          <select className="input" aria-label="Region" value={region} onChange={(e) => setRegion(e.currentTarget.value === 'all' ? 'all' : 'workspace')}>
            <option value="workspace">This workspace's region</option>
            <option value="all">All regions</option>
          </select>
        </label>
        <span className="small muted stats-resolution" data-testid="stats-resolution">
          {shown ? `${granularityLabel(shown.granularity)} · region ${shown.region}` : range.ok ? granularityLabel(range.range.granularity) : ''}
        </span>
      </div>
      {!range.ok && (
        <p className="field-error small" role="alert" data-testid="stats-range-error">
          {range.reason}
        </p>
      )}
      {stats.isError && kept && <StaleNotice updatedAt={kept.at} error={stats.error} onRetry={() => void stats.refetch()} />}
      {stats.isError && !kept && (
        <ErrorPanel
          title="Could not load statistics"
          code={stats.error.code}
          message={stats.error.message}
          httpCode={stats.error.httpCode}
          facts={stats.error.code === 'INSUFFICIENT_AUTH_SCOPE' ? [{ label: 'Needs scope', value: 'assemblies:read', code: true }] : []}
          data-testid="statistics-error"
          action={
            <span className="button-row">
              <Button onClick={() => void stats.refetch()}>Try again</Button>
              {stats.error.code === 'INSUFFICIENT_AUTH_SCOPE' && <Button onClick={() => navigate({ name: 'workspaces' })}>Open Workspaces</Button>}
            </span>
          }
        />
      )}
      {(shown || loading) && (
        <>
          <Totals stats={shown} />
          {shown && shown.totals.assemblies === 0 && shown.buckets.every((b) => b.assemblies === 0) ? (
            <div className="card">
              <EmptyState title="No Assemblies in this range">Pick a longer range, or run some files first.</EmptyState>
            </div>
          ) : (
            <div className="chart-grid">
              {shown ? (
                <>
                  <StatsCharts stats={shown} label={label} />
                  <ErrorBreakdown errors={shown.errors} />
                </>
              ) : (
                ['Assemblies by outcome', 'Bytes in and out', 'Average durations', 'Errors'].map((t) => <ChartFigure key={t} title={t} caption="" height={STATS_CHART_HEIGHT} loading />)
              )}
            </div>
          )}
        </>
      )}
    </div>
  );
};
