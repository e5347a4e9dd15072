import type { Transfer, TransferBatch } from '../../../../shared/ipc/transfer-models';

/** "14:05" today, "Nov 25, 14:05" another day, in the user's time zone. */
export const dropTime = (iso: string, now: Date = new Date()): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const sameDay = at.getFullYear() === now.getFullYear() && at.getMonth() === now.getMonth() && at.getDate() === now.getDate();
  return sameDay ? time : `${at.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}, ${time}`;
};

export interface BatchTitle {
  /** The drop: its folder or first file, when it started, and what it does ("holiday · 14:05 · Resize images to 1024 px"). */
  readonly drop: string;
  /** The Assembly within the drop ("Assembly 2 of 3 · Files 1,001–2,000"). */
  readonly assembly: string;
  /** The batch in a button's name: its drop ("holiday photos"), and which Assembly of it when there are more ("holiday photos · Assembly 2 of 3"). */
  readonly name: string;
}

/**
 * What a batch's header says in Transfers: two drops of the same size no longer look alike, because each
 * batch is named for its drop. Pure (the clock comes in for the date).
 */
export const batchTitle = (batch: Pick<TransferBatch, 'seq' | 'label'>, transfer: Pick<Transfer, 'label' | 'createdAt' | 'recipe' | 'batchCount'> | undefined, now?: Date): BatchTitle => {
  const count = transfer?.batchCount ?? 0;
  const which = count > 1 ? `Assembly ${batch.seq} of ${count}` : `Assembly ${batch.seq}`;
  const own = transfer && batch.label === transfer.label ? '' : ` · ${batch.label}`;
  if (!transfer) return { drop: batch.label, assembly: which, name: batch.label };
  return {
    drop: [transfer.label, dropTime(transfer.createdAt, now), transfer.recipe].filter((part): part is string => Boolean(part)).join(' · '),
    assembly: `${which}${own}`,
    name: count > 1 ? `${transfer.label} · ${which}` : transfer.label,
  };
};
