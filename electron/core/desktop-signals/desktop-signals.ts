import type { EventPayload } from '../../../shared/ipc/contract';
import type { CoreEvents } from '../events';
import type { DesktopPort } from '../ports/desktop';
import { initialSignalState, stepSignals } from './transfer-signals';

/**
 * Feeds the transfer queue's changes to the desktop: notices (to the page, and to the OS through the port
 * where the host has one) and the taskbar/dock indicator. Returns the unsubscribe.
 */
export function startDesktopSignals(
  events: CoreEvents,
  desktop: Pick<DesktopPort, 'notify' | 'showTransfers'>,
  /** Transfers someone else announces (a watch folder's files: the watch says when their results are on disk). */
  quiet: (transferId: string) => boolean = () => false,
): () => void {
  let state = initialSignalState();
  let lastIndicator = '';
  return events.on((name, payload) => {
    if (name !== 'transfers:changed') return;
    const changes = payload as EventPayload<'transfers:changed'>;
    const step = stepSignals(state, { totals: changes.totals, transfers: changes.transfers.filter((t) => !quiet(t.id)), batches: changes.batches.filter((b) => !quiet(b.transferId)) });
    state = step.state;
    for (const notice of step.notices) {
      // The page shows it in the app when its window has the focus, and in the browser host raises a Web
      // Notification when it has not; the Electron host's OS notification is main's (only when unfocused).
      events.emit('app:notification', notice);
      desktop.notify?.(notice);
    }
    // Only a changed indicator goes to the OS (the queue reports a few times a second).
    const key = JSON.stringify({ ...step.indicator, fraction: step.indicator.fraction === null ? null : Math.round(step.indicator.fraction * 200) });
    if (desktop.showTransfers && key !== lastIndicator) {
      lastIndicator = key;
      desktop.showTransfers(step.indicator);
    }
  });
}
