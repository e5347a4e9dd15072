import { dateText, type DateInput, type DateOptions } from '../lib/date-time';

export interface DateTimeProps extends DateOptions {
  readonly value: DateInput;
  readonly className?: string;
  readonly 'data-testid'?: string;
}

/**
 * A date as the whole app shows it (lib/date-time.ts): local time, 24-hour, with seconds; the UTC value on
 * hover; a `<time dateTime>` so assistive technology and tests read the instant.
 */
export const DateTime = ({ value, className, 'data-testid': testId, ...options }: DateTimeProps) => {
  const d = dateText(value, options);
  if (!d.iso) {
    return (
      <span className={className} title={d.title} data-testid={testId}>
        {d.text}
      </span>
    );
  }
  return (
    <time className={className} dateTime={d.iso} title={d.title} data-testid={testId}>
      {d.text}
    </time>
  );
};
