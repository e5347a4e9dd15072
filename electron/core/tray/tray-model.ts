import type { TransferTotals } from '../../../shared/ipc/transfer-models';

/** Which drawing the tray shows (tray-icon.ts): nothing to do, sending, paused by the user, files failed. */
export type TrayIconVariant = 'idle' | 'active' | 'paused' | 'error';

export type TrayActionId = 'show' | 'pause-all' | 'resume-all' | 'quit';

/** One line of the tray menu, independent of Electron (electron/main/tray.ts turns it into a MenuItem). */
export type TrayItem =
  | { readonly kind: 'action'; readonly id: TrayActionId; readonly label: string; readonly enabled: boolean }
  | { readonly kind: 'info'; readonly label: string }
  | { readonly kind: 'separator' };

export interface TrayView {
  readonly tooltip: string;
  readonly icon: TrayIconVariant;
  readonly items: readonly TrayItem[];
}

const count = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;
const num = (n: number) => n.toLocaleString('en-US');

/** Files of the queue that are still to be sent (queued or sending). */
export const pendingFiles = (t: Pick<TransferTotals, 'filesQueued' | 'filesActive'>): number => t.filesQueued + t.filesActive;

/** 0–100 of the bytes sent, floored (a tooltip never says 100 % before the last byte). */
export function percentSent(t: Pick<TransferTotals, 'bytesSent' | 'bytesTotal'>): number {
  if (t.bytesTotal <= 0) return 0;
  return Math.min(100, Math.floor((t.bytesSent / t.bytesTotal) * 100));
}

/**
 * The tray at a glance (pure): its tooltip, icon and menu for the transfer queue's totals. "3 of 10" counts
 * the files that will be sent (canceled and skipped ones are not), the percentage is of bytes.
 */
export function trayViewOf(t: TransferTotals, appName = 'Assemblyline'): TrayView {
  const pending = pendingFiles(t);
  // Of the work under way (drops finished before it are not counted).
  const cur = t.current;
  const wanted = Math.max(0, cur.filesTotal - cur.filesCanceled - cur.filesSkipped);
  const finished = cur.filesDone + cur.filesFailed;
  const progress = `${num(finished)} of ${num(wanted)} — ${percentSent(cur)}%`;
  const failed = t.filesFailed > 0 ? ` · ${count(t.filesFailed, 'file')} failed` : '';

  let icon: TrayIconVariant;
  let status: string;
  if (pending > 0 && t.paused) {
    icon = 'paused';
    status = `Paused ${progress}`;
  } else if (pending > 0 && t.waitingUntil !== null) {
    // The service asked to wait (rate limit): the queue is not the user's to resume, it goes on by itself.
    icon = 'paused';
    status = `Waiting for the service — ${progress}`;
  } else if (pending > 0) {
    icon = 'active';
    status = `Uploading ${progress}`;
  } else if (t.filesFailed > 0) {
    icon = 'error';
    status = `${count(t.filesFailed, 'file')} failed`;
  } else {
    icon = 'idle';
    status = 'No transfers running';
  }
  const tooltip = `${appName} — ${status}${icon === 'error' ? '' : failed}`;

  const items: TrayItem[] = [
    { kind: 'action', id: 'show', label: `Show ${appName}`, enabled: true },
    { kind: 'separator' },
    { kind: 'info', label: status },
  ];
  if (pending > 0) items.push({ kind: 'info', label: `${count(pending, 'file')} to send` });
  if (t.filesFailed > 0 && icon !== 'error') items.push({ kind: 'info', label: `${count(t.filesFailed, 'file')} failed` });
  // Pause all while something runs; Resume all once paused (greyed out while there is nothing to pause).
  items.push(
    t.paused
      ? { kind: 'action', id: 'resume-all', label: 'Resume all', enabled: true }
      : { kind: 'action', id: 'pause-all', label: 'Pause all', enabled: pending > 0 },
    { kind: 'separator' },
    { kind: 'action', id: 'quit', label: `Quit ${appName}`, enabled: true },
  );
  return { tooltip, icon, items };
}

export interface QuitQuestion {
  readonly message: string;
  readonly detail: string;
  /** [quit, stay]: the dialog's default is to stay. */
  readonly buttons: readonly [string, string];
}

/** What to ask before quitting while files are still to be sent; null when quitting loses nothing. */
export function quitQuestionOf(t: TransferTotals): QuitQuestion | null {
  const pending = pendingFiles(t);
  if (pending === 0) return null;
  return {
    message: t.paused ? 'Transfers are paused, not finished.' : 'Transfers are still running.',
    detail: `${count(pending, 'file')} not sent yet. They continue from where they stopped the next time you open the app.`,
    buttons: ['Quit', 'Keep running'],
  };
}
