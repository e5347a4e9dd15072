import { useState } from 'react';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { StaleNotice } from '../../components/StaleNotice';
import { isCurrentMonth, monthLabel, monthOf } from './bill-month';
import { isEmptyBill } from './bill-figures';
import { useNavigation } from '../../state/navigation-store';
import '../../styles/account.css';
import { BillSummary } from './BillSummary';
import { MonthPicker } from './MonthPicker';
import { RobotTable } from './RobotTable';
import { UsageDaysChart } from './UsageDaysChart';
import './usage.css';

/** The current month is re-read every half minute (usage grows); past months only on Refresh. */
const LIVE_MS = 30_000;

const BillSkeleton = () => (
  <>
    <section className="card bill-summary" aria-label="Bill" aria-busy="true" data-testid="bill-skeleton">
      <div className="bill-head">
        <span className="skeleton-line" style={{ width: 180 }} />
      </div>
      <dl className="bill-facts">
        {['Plan', 'Used', 'Additional', 'Total'].map((label) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <span className="skeleton-line" />
            </dd>
          </div>
        ))}
      </dl>
    </section>
    <UsageDaysChart days={[]} loading />
  </>
);

/** Usage: the workspace account's bill for a month — plan, used GB, per robot, per day (docs/account.md). */
export const UsageView = () => {
  const [nowMs] = useState(() => Date.now());
  const [month, setMonth] = useState(() => monthOf(nowMs));
  const live = isCurrentMonth(month, Date.now());
  const bill = useBridgeQuery('account:bill', { month }, { refetchInterval: live ? LIVE_MS : false });
  const data = bill.data;
  const navigate = useNavigation((s) => s.navigate);

  return (
    <div className="account-view usage-view">
      <div className="section-head">
        <h1 className="page-title">Usage</h1>
        <div className="account-controls">
          <MonthPicker month={month} nowMs={nowMs} onChange={setMonth} />
          <Button size="sm" onClick={() => void bill.refetch()} busy={bill.isFetching} disabled={bill.isFetching}>
            Refresh
          </Button>
        </div>
      </div>
      {bill.isError && data && <StaleNotice updatedAt={bill.dataUpdatedAt} error={bill.error} onRetry={() => void bill.refetch()} />}
      {bill.isError && !data && (
        <ErrorPanel
          title={`Could not load the bill for ${monthLabel(month)}`}
          code={bill.error.code}
          message={bill.error.message}
          httpCode={bill.error.httpCode}
          facts={bill.error.code === 'INSUFFICIENT_AUTH_SCOPE' ? [{ label: 'Needs scope', value: 'billing:read', code: true }] : []}
          data-testid="usage-error"
          action={
            <span className="button-row">
              <Button onClick={() => void bill.refetch()}>Try again</Button>
              {bill.error.code === 'INSUFFICIENT_AUTH_SCOPE' && <Button onClick={() => navigate({ name: 'workspaces' })}>Open Workspaces</Button>}
            </span>
          }
        />
      )}
      {bill.isPending && <BillSkeleton />}
      {data && (
        <>
          <BillSummary bill={data} />
          {isEmptyBill(data) ? (
            <div className="card">
              <EmptyState title={`No usage in ${monthLabel(data.month)}`}>Nothing was uploaded or processed this month.</EmptyState>
            </div>
          ) : (
            <>
              {data.days && <UsageDaysChart days={data.days} />}
              <RobotTable robots={data.robots} />
            </>
          )}
        </>
      )}
    </div>
  );
};
