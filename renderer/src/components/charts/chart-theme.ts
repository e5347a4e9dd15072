/**
 * Chart colours are the app's CSS variables (styles/app.css, light and dark values through light-dark()),
 * passed to recharts as `var(--…)`: SVG fills and strokes resolve them, so charts follow the theme live.
 */
export const chartColors = {
  successful: 'var(--success)',
  canceled: 'var(--neutral)',
  erroneous: 'var(--danger)',
  requestAborted: 'var(--warning)',
  primary: 'var(--accent)',
  secondary: 'var(--success)',
  tertiary: 'var(--warning)',
  grid: 'var(--border)',
  axis: 'var(--text-muted)',
} as const;

/** Axis ticks and tooltip styles shared by every chart. */
export const axisTick = { fill: chartColors.axis, fontSize: 11 } as const;
export const tooltipStyles = {
  contentStyle: { background: 'var(--bg-raised)', border: '1px solid var(--border)', borderRadius: 6, color: 'var(--text)', fontSize: 12 },
  labelStyle: { color: 'var(--text)', fontWeight: 600 },
  itemStyle: { color: 'var(--text)' },
  cursor: { fill: 'var(--bg-hover)' },
} as const;
