import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Stats, StatsBucket } from '../../../../shared/ipc/account-models';
import { ChartFigure } from '../../components/charts/ChartFigure';
import { axisTick, chartColors, tooltipStyles } from '../../components/charts/chart-theme';
import { formatBytes, formatDuration } from '../../lib/format';
import { OUTCOMES, statsCaptions } from './stats-range';

export const STATS_CHART_HEIGHT = 220;

const legendStyle = { fontSize: 12, color: 'var(--text)' } as const;
const fmt = (n: number): string => n.toLocaleString('en-US');

interface ChartsProps {
  readonly stats: Stats;
  readonly label: (b: StatsBucket) => string;
}

/** Assemblies per bucket, stacked by outcome; bytes in and out; average durations. */
export const StatsCharts = ({ stats, label }: ChartsProps) => {
  const captions = statsCaptions(stats, label);
  const data = stats.buckets.map((b) => ({ ...b, label: label(b) }));
  const axis = (
    <>
      <CartesianGrid vertical={false} stroke={chartColors.grid} />
      <XAxis dataKey="label" tick={axisTick} stroke={chartColors.grid} interval="preserveStartEnd" minTickGap={16} />
    </>
  );
  return (
    <>
      <ChartFigure
        title="Assemblies by outcome"
        caption={captions.assemblies}
        height={STATS_CHART_HEIGHT}
        data-testid="stats-assemblies-chart"
        table={{
          label: 'Assemblies by outcome',
          columns: ['Period', 'Assemblies', ...OUTCOMES.map((o) => o.label)],
          rows: stats.buckets.map((b) => [label(b), fmt(b.assemblies), ...OUTCOMES.map((o) => fmt(b[o.key]))]),
        }}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer title="Assemblies by outcome" desc={captions.assemblies}>
            {axis}
            <YAxis tick={axisTick} stroke={chartColors.grid} width={40} allowDecimals={false} />
            <Tooltip {...tooltipStyles} />
            <Legend wrapperStyle={legendStyle} itemSorter={null} />
            {OUTCOMES.map((o) => (
              <Bar key={o.key} dataKey={o.key} name={o.label} stackId="outcome" fill={chartColors[o.key]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </ChartFigure>
      <ChartFigure
        title="Bytes in and out"
        caption={captions.bytes}
        height={STATS_CHART_HEIGHT}
        data-testid="stats-bytes-chart"
        table={{ label: 'Bytes in and out', columns: ['Period', 'Uploaded', 'Results'], rows: stats.buckets.map((b) => [label(b), formatBytes(b.bytesIn), formatBytes(b.bytesOut)]) }}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer title="Bytes in and out" desc={captions.bytes}>
            {axis}
            <YAxis tick={axisTick} stroke={chartColors.grid} width={64} tickFormatter={(v: number) => formatBytes(v)} />
            <Tooltip {...tooltipStyles} formatter={(v, name) => [formatBytes(Number(v)), name]} />
            <Legend wrapperStyle={legendStyle} itemSorter={null} />
            <Bar dataKey="bytesIn" name="Uploaded" fill={chartColors.primary} isAnimationActive={false} />
            <Bar dataKey="bytesOut" name="Results" fill={chartColors.secondary} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartFigure>
      <ChartFigure
        title="Average durations"
        caption={captions.durations}
        height={STATS_CHART_HEIGHT}
        data-testid="stats-durations-chart"
        table={{
          label: 'Average durations',
          columns: ['Period', 'Upload', 'Queue', 'Execution'],
          rows: stats.buckets.map((b) => [label(b), formatDuration(b.avgUploadS), formatDuration(b.avgQueueS), formatDuration(b.avgExecutionS)]),
        }}
      >
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer title="Average durations" desc={captions.durations}>
            {axis}
            <YAxis tick={axisTick} stroke={chartColors.grid} width={52} tickFormatter={(v: number) => `${Number(v.toPrecision(2))} s`} />
            <Tooltip {...tooltipStyles} cursor={{ stroke: 'var(--border-strong)' }} formatter={(v, name) => [formatDuration(Number(v)), name]} />
            <Legend wrapperStyle={legendStyle} itemSorter={null} />
            <Line type="monotone" dataKey="avgUploadS" name="Upload" stroke={chartColors.primary} dot={false} strokeWidth={2} isAnimationActive={false} />
            <Line type="monotone" dataKey="avgQueueS" name="Queue" stroke={chartColors.tertiary} dot={false} strokeWidth={2} isAnimationActive={false} />
            <Line type="monotone" dataKey="avgExecutionS" name="Execution" stroke={chartColors.secondary} dot={false} strokeWidth={2} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </ChartFigure>
    </>
  );
};

/** errorStatsTotals as a list of bars, most frequent first: plain HTML, readable as it is. */
export const ErrorBreakdown = ({ errors }: { errors: Stats['errors'] }) => {
  const max = errors[0]?.count ?? 0;
  return (
    <section className="card chart-figure" aria-label="Errors" data-testid="stats-errors">
      <div className="chart-head">
        <h2 className="section-title">Errors</h2>
      </div>
      {errors.length === 0 ? (
        <p className="muted small">No errors in this range.</p>
      ) : (
        <ol className="error-bars">
          {errors.map((e) => (
            <li key={e.error} data-testid="stats-error-row" data-error={e.error}>
              <code className="error-bar-code">{e.error}</code>
              <span className="error-bar-track" aria-hidden="true">
                <span className="error-bar-fill" style={{ width: `${max > 0 ? (e.count / max) * 100 : 0}%` }} />
              </span>
              <span className="num error-bar-count">{fmt(e.count)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
};
