import type { PlanWarning, TransferPlan } from '../../../../shared/ipc/transfer-models';
import { FieldWarnings } from '../../components/FieldWarnings';
import { Spinner } from '../../components/Spinner';
import { formatBytes, formatCount } from '../../lib/format';

/** Warning fields another part of the Upload view shows at the field itself. */
export const FIELDS_SHOWN_ELSEWHERE = new Set(['batchMode', 'batchMaxFiles', 'batchMaxBytes', 'minBytes', 'maxBytes', 'template', 'steps', 'files']);

const SKIP_LABEL: Record<keyof TransferPlan['skipped'], (n: number) => string> = {
  hidden: (n) => `${formatCount(n, 'hidden or system file')}`,
  pattern: (n) => `${formatCount(n, 'file')} by pattern`,
  size: (n) => `${formatCount(n, 'file')} by size`,
  unchanged: (n) => `${formatCount(n, 'file')} possibly unchanged (compared when their turn comes)`,
  unreadable: (n) => `${formatCount(n, 'unreadable item')}`,
};

/** Lines that say what the skip rules leave out, nonzero ones only. */
export const skippedLines = (skipped: TransferPlan['skipped']): string[] =>
  (Object.keys(SKIP_LABEL) as (keyof TransferPlan['skipped'])[]).filter((k) => skipped[k] > 0).map((k) => SKIP_LABEL[k](skipped[k]));

/** Warnings no field of the view shows: listed in the summary. */
export const generalWarnings = (warnings: readonly PlanWarning[]): PlanWarning[] => warnings.filter((w) => w.field === null || !FIELDS_SHOWN_ELSEWHERE.has(w.field));

/**
 * What Start would do, before a byte is sent: the files and bytes after the skip rules, what they leave
 * out, how many Assemblies it becomes and how the files travel. A fixed block: it updates in place.
 */
export const PreflightSummary = ({ plan, pending }: { plan: TransferPlan | undefined; pending: boolean }) => {
  if (!plan) {
    return (
      <section className="preflight" data-testid="preflight" aria-label="Before you start" aria-busy="true">
        <Spinner size={14} label="Working out the plan" /> <span className="muted">Working out the plan…</span>
      </section>
    );
  }
  const skipped = skippedLines(plan.skipped);
  const general = generalWarnings(plan.warnings);
  const atFields = plan.warnings.length - general.length;
  return (
    <section className="preflight" data-testid="preflight" aria-label="Before you start" aria-busy={pending || undefined}>
      <p className="preflight-head num" data-testid="preflight-files">
        {formatCount(plan.files, 'file')} · {formatBytes(plan.bytes)} → {formatCount(plan.assemblies, 'Assembly', 'Assemblies')}
      </p>
      <ul className="preflight-list">
        {skipped.length > 0 && <li data-testid="preflight-skipped">Left out: {skipped.join(' · ')}</li>}
        <li data-testid="preflight-methods">
          {plan.multipartFiles > 0 && `${formatCount(plan.multipartFiles, 'small file')}, many per request`}
          {plan.multipartFiles > 0 && plan.tusFiles > 0 && ' · '}
          {plan.tusFiles > 0 && `${formatCount(plan.tusFiles, 'file')} by tus (resumable)`}
          {plan.files === 0 && 'Nothing to send with these rules.'}
        </li>
        {plan.batches.slice(0, 4).map((b, i) => (
          <li key={`${b.label}-${i}`} className="muted preflight-batch">
            {b.label}: {formatCount(b.files, 'file')} · {formatBytes(b.bytes)}
          </li>
        ))}
        {plan.assemblies > 4 && <li className="muted">…and {formatCount(plan.assemblies - 4, 'more Assembly', 'more Assemblies')}</li>}
        {(plan.limits.maxNumberOfFiles !== null || plan.limits.maxSize !== null) && (
          <li className="muted">
            Limits of these instructions:
            {plan.limits.maxNumberOfFiles !== null && ` at most ${formatCount(plan.limits.maxNumberOfFiles, 'file')} per Assembly`}
            {plan.limits.maxSize !== null && ` · at most ${formatBytes(plan.limits.maxSize)} per Assembly`}
          </li>
        )}
      </ul>
      {atFields > 0 && (
        <p className="preflight-warn" data-testid="preflight-warnings">
          {formatCount(atFields, 'warning')} at the {atFields === 1 ? 'field it concerns' : 'fields they concern'}: the service would refuse part of this as it is.
        </p>
      )}
      {general.map((w, i) => (
        <FieldWarnings key={i} warnings={[w]} field={w.field} />
      ))}
    </section>
  );
};
