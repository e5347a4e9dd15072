import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BillDay } from '../../../../shared/ipc/account-models';
import { ChartFigure } from '../../components/charts/ChartFigure';
import { axisTick, chartColors, tooltipStyles } from '../../components/charts/chart-theme';
import { chartUnit, daysCaption, formatGb } from './bill-figures';

export const USAGE_CHART_HEIGHT = 220;

/** GB used per day of the month (the service's `days`), with the figures as a caption and a table. */
export const UsageDaysChart = ({ days, loading = false }: { days: readonly BillDay[]; loading?: boolean }) => {
  // The axis in the unit that reads best (a local month is often a few MB); the caption and tooltip say GB.
  const unit = chartUnit(Math.max(0, ...days.map((d) => d.gb)));
  const caption = loading ? '' : daysCaption([...days]);
  const data = days.map((d) => ({ ...d, day: String(Number(d.date.slice(8, 10))), value: d.gb * unit.perGb }));
  return (
    <ChartFigure
      title={`Usage per day (${unit.label})`}
      caption={caption}
      height={USAGE_CHART_HEIGHT}
      loading={loading}
      data-testid="usage-days-chart"
      table={{ label: 'Usage per day', columns: ['Day', 'GB', 'Assemblies'], rows: days.map((d) => [d.date, formatGb(d.gb), d.assemblies.toLocaleString('en-US')]) }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer title="Usage per day" desc={caption}>
          <CartesianGrid vertical={false} stroke={chartColors.grid} />
          <XAxis dataKey="day" tick={axisTick} stroke={chartColors.grid} interval="preserveStartEnd" />
          <YAxis tick={axisTick} stroke={chartColors.grid} width={48} tickFormatter={(v: number) => String(Number(v.toPrecision(3)))} />
          <Tooltip {...tooltipStyles} formatter={(v) => [formatGb(Number(v) / unit.perGb), 'Used']} labelFormatter={(_, p) => String(p[0]?.payload?.date ?? '')} />
          <Bar dataKey="value" name={unit.label} fill={chartColors.primary} radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
};
