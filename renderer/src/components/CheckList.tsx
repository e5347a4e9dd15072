import { Badge } from './Badge';

/** One check of a test report (connection test, credential test): what was checked and what to fix. */
export interface CheckItem {
  readonly id: string;
  readonly label: string;
  readonly status: 'ok' | 'fail' | 'warn' | 'skipped';
  readonly message: string;
  readonly code?: string | null;
}

const TONE = { ok: 'success', fail: 'danger', warn: 'warning', skipped: 'neutral' } as const;
const WORD = { ok: 'OK', fail: 'Failed', warn: 'Warning', skipped: 'Skipped' } as const;

/** A report's checks, one row each with its verdict, message and the service's code. */
export const CheckList = ({ checks, testIdPrefix }: { checks: readonly CheckItem[]; testIdPrefix: string }) => (
  <ul className="check-list">
    {checks.map((c) => (
      <li key={c.id} className="check-row" data-testid={`${testIdPrefix}${c.id}`} data-status={c.status}>
        <Badge tone={TONE[c.status]}>{WORD[c.status]}</Badge>
        <span className="check-text">
          <strong>{c.label}</strong>
          <span>{c.message}</span>
          {c.code && <code className="error-code">{c.code}</code>}
        </span>
      </li>
    ))}
  </ul>
);
