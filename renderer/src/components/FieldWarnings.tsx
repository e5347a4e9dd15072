import type { PlanWarning } from '../../../shared/ipc/transfer-models';

/**
 * The pre-flight plan's warnings about one field, shown at that field (the batch-size input, the
 * Template picker…), with the service's code the upload would otherwise have ended in.
 */
export const FieldWarnings = ({ warnings, field }: { warnings: readonly PlanWarning[]; field: string | null }) => {
  const mine = warnings.filter((w) => w.field === field);
  if (mine.length === 0) return null;
  return (
    <ul className="field-warnings" role="note" aria-label={field ? `Warnings about ${field}` : 'Warnings'} data-testid="field-warning" data-field={field ?? ''}>
      {mine.map((w, i) => (
        <li key={`${w.code}-${i}`}>
          {w.message} <code className="code-chip">{w.code}</code>
        </li>
      ))}
    </ul>
  );
};
