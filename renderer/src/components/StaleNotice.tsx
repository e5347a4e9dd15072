import { toAppError } from '../bridge/bridge-error';
import { Button } from './Button';
import { DateTime } from './DateTime';

export interface StaleNoticeProps {
  /** react-query's `dataUpdatedAt` of the data still on screen. */
  readonly updatedAt: number;
  /** The refetch error that made the data stale. */
  readonly error: unknown;
  readonly onRetry?: () => void;
}

/**
 * Shown above data that could not be refreshed: the last answer stays on screen (a user can still read it),
 * marked with when it was fetched and why the refresh failed, instead of being swapped for an error panel.
 * Use it on every account screen: `{query.isError && query.data && <StaleNotice … />}`.
 */
export const StaleNotice = ({ updatedAt, error, onRetry }: StaleNoticeProps) => {
  const { code, message } = toAppError(error);
  const at = <DateTime value={updatedAt} timeOnly />;
  return (
    <div className="stale-notice" role="status" data-testid="stale-notice">
      <span className="status-dot status-stale" aria-hidden="true" />
      <span>
        <strong>Showing data from {at}</strong> — it could not be refreshed: {message} <code>{code}</code>
      </span>
      {onRetry && (
        <Button variant="ghost" size="sm" onClick={onRetry}>
          Retry
        </Button>
      )}
    </div>
  );
};
