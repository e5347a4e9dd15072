import type { Transfer, TransferBatch } from '../../../../shared/ipc/transfer-models';
import { dateText, formatDateTime, parseInstant, type DateInput, type DateText } from '../../lib/date-time';

/** Whether `value` is of the same day as `now` where the user is (or in `timeZone`). Pure. */
const sameDay = (value: DateInput, now: Date, timeZone?: string): boolean => {
  const day = (d: DateInput) => formatDateTime(d, timeZone).split(', ')[0];
  return parseInstant(value) !== null && day(value) === day(now);
};

/**
 * When a drop started, in the app's one date format (lib/date-time, as the Assembly view shows dates):
 * the time of day ("14:05:09") for a drop of today, the date and time ("25 Nov 2026, 09:07:00") for
 * another day; local time, the UTC value on hover. Pure: the clock and the time zone come in.
 */
export const dropTime = (iso: string, now: Date = new Date(), timeZone?: string): DateText =>
  dateText(iso, { ...(timeZone ? { timeZone } : {}), timeOnly: sameDay(iso, now, timeZone) });

export interface BatchTitle {
  /** The drop: its folder or first file, when it started, and what it does ("holiday · 14:05:09 · Resize images to 1024 px"). */
  readonly drop: string;
  /** The drop's parts, for the header to show its time as components/DateTime does (the UTC value on hover). */
  readonly dropParts?: { readonly label: string; readonly createdAt: string; readonly timeOnly: boolean; readonly recipe: string | null };
  /** The Assembly within the drop ("Assembly 2 of 3 · Files 1,001–2,000"). */
  readonly assembly: string;
  /** The batch in a button's name: its drop ("holiday photos"), and which Assembly of it when there are more ("holiday photos · Assembly 2 of 3"). */
  readonly name: string;
}

/**
 * What a batch's header says in Transfers: two drops of the same size no longer look alike, because each
 * batch is named for its drop. Pure (the clock and the time zone come in for the date).
 */
export const batchTitle = (batch: Pick<TransferBatch, 'seq' | 'label'>, transfer: Pick<Transfer, 'label' | 'createdAt' | 'recipe' | 'batchCount'> | undefined, now?: Date, timeZone?: string): BatchTitle => {
  const count = transfer?.batchCount ?? 0;
  const which = count > 1 ? `Assembly ${batch.seq} of ${count}` : `Assembly ${batch.seq}`;
  const own = transfer && batch.label === transfer.label ? '' : ` · ${batch.label}`;
  if (!transfer) return { drop: batch.label, assembly: which, name: batch.label };
  return {
    drop: [transfer.label, dropTime(transfer.createdAt, now, timeZone).text, transfer.recipe].filter((part): part is string => Boolean(part)).join(' · '),
    dropParts: { label: transfer.label, createdAt: transfer.createdAt, timeOnly: sameDay(transfer.createdAt, now ?? new Date(), timeZone), recipe: transfer.recipe || null },
    assembly: `${which}${own}`,
    name: count > 1 ? `${transfer.label} · ${which}` : transfer.label,
  };
};
