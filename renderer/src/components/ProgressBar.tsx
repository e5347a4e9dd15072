export interface ProgressBarProps {
  /** 0–100; null draws an indeterminate bar. */
  readonly value: number | null;
  readonly label: string;
  readonly valueText?: string;
  readonly tone?: 'info' | 'success' | 'danger' | 'neutral';
  readonly size?: 'sm' | 'md';
}

/** A fixed-height bar; the fill moves with transform so nothing around it reflows. Its value is read to a tenth (a slow step's progress moves in tenths). */
export const ProgressBar = ({ value, label, valueText, tone = 'info', size = 'md' }: ProgressBarProps) => {
  const clamped = value === null ? null : Math.max(0, Math.min(100, value));
  return (
    <div
      className={`progress progress-${size} progress-${tone}${clamped === null ? ' progress-indeterminate' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped === null ? undefined : Math.round(clamped * 10) / 10}
      aria-valuetext={valueText}
    >
      <div className="progress-fill" style={clamped === null ? undefined : { transform: `scaleX(${clamped / 100})` }} />
    </div>
  );
};
