import type { Bill } from '../../../../shared/ipc/account-models';
import { Badge } from '../../components/Badge';
import { allowanceOf, formatGb, formatMoney } from './bill-figures';

/** Plan, used GB against what the plan includes (a bar, warning past 80 %), additional GB and fee, total. */
export const BillSummary = ({ bill }: { bill: Bill }) => {
  const allowance = allowanceOf(bill);
  const pct = Math.round(allowance.fraction * 100);
  return (
    <section className="card bill-summary" aria-label="Bill" data-testid="bill-summary">
      <div className="bill-head">
        {bill.invoiceId === null ? (
          <Badge tone="info" data-testid="bill-state">
            Current month — not invoiced yet
          </Badge>
        ) : (
          <Badge tone="neutral" data-testid="bill-state">
            Invoice {bill.invoiceId}
          </Badge>
        )}
      </div>
      <dl className="bill-facts">
        <div>
          <dt>Plan</dt>
          <dd data-testid="bill-plan">
            {bill.plan ? (
              <>
                {bill.plan.name ?? 'Plan'} · {formatMoney(bill.plan.pricePerMonth, bill.currency)} a month · {formatGb(bill.plan.gbIncluded)} included
                {bill.plan.pricePerGb > 0 ? ` · ${formatMoney(bill.plan.pricePerGb, bill.currency)} per further GB` : ''}
              </>
            ) : (
              'Not stated'
            )}
          </dd>
        </div>
        <div className="bill-used">
          <dt>Used</dt>
          <dd>
            <span data-testid="bill-used-gb" data-gb={bill.usedGb}>{formatGb(bill.usedGb)}</span>
            {allowance.ofGb !== null && (
              <span className="muted">
                {' '}
                of {formatGb(allowance.ofGb)} {allowance.label} ({pct} %)
              </span>
            )}
            {allowance.ofGb !== null && (
              <span
                className={`allowance-bar allowance-${allowance.tone}`}
                role="meter"
                aria-label={`Used of ${allowance.label}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.min(100, pct)}
                aria-valuetext={`${pct} % of ${allowance.label}`}
                data-testid="allowance-bar"
                data-tone={allowance.tone}
              >
                <span className="allowance-fill" style={{ width: `${Math.min(100, pct)}%` }} />
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Additional</dt>
          <dd data-testid="bill-additional">
            {formatGb(bill.additionalGb)} · {formatMoney(bill.additionalGbFee, bill.currency)}
          </dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>
            <span className="bill-total" data-testid="bill-total">
              {formatMoney(bill.total, bill.currency)}
            </span>
            {/* What makes the total differ from the plan + additional GB: VAT, discounts, credit. */}
            {bill.total !== bill.subTotal && (
              <span className="small muted bill-breakdown" data-testid="bill-breakdown">
                Subtotal {formatMoney(bill.subTotal, bill.currency)}
                {bill.vat > 0 ? ` · VAT ${formatMoney(bill.vat, bill.currency)}` : ''}
              </span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
};
