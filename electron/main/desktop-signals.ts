import type { BrowserWindow, Notification, NotificationConstructorOptions, PowerSaveBlocker } from 'electron';
import type { AppCommand, DesktopNotice, TransferIndicator } from '../../shared/ipc/desktop-models';
import type { DesktopPort } from '../core/ports/desktop';

type AppWindow = Pick<BrowserWindow, 'isFocused' | 'isMinimized' | 'restore' | 'show' | 'focus' | 'setProgressBar' | 'isDestroyed'>;

export interface ElectronSignalDeps {
  /** Electron's Notification class (a constructor: `new Notification(options)`). */
  readonly Notification: { new (options: NotificationConstructorOptions): Pick<Notification, 'show' | 'on'>; isSupported(): boolean };
  readonly powerSaveBlocker: Pick<PowerSaveBlocker, 'start' | 'stop' | 'isStarted'>;
  readonly windows: () => AppWindow[];
  /** Sends a command to the pages (the typed event channel): a click opens the notice's route. */
  readonly command: (command: AppCommand) => void;
}

/**
 * The Electron host's notifications, taskbar/dock progress and sleep blocker. A notice is raised only when
 * no window has the focus (a focused window shows it as a toast); clicking it brings the window back and
 * opens what it is about. Notifications are kept referenced until closed: one that is garbage-collected
 * loses its click handler.
 */
export function createElectronSignals(deps: ElectronSignalDeps): Required<Pick<DesktopPort, 'notify' | 'showTransfers'>> {
  const shown = new Set<Pick<Notification, 'show' | 'on'>>();
  let blocker: number | null = null;
  const live = () => deps.windows().filter((w) => !w.isDestroyed());

  return {
    notify(notice: DesktopNotice) {
      if (!deps.Notification.isSupported() || live().some((w) => w.isFocused())) return;
      const n = new deps.Notification({ title: notice.title, body: notice.body, silent: notice.tone === 'success' });
      shown.add(n);
      n.on('click', () => {
        const [window] = live();
        if (window) {
          if (window.isMinimized()) window.restore();
          window.show();
          window.focus();
        }
        deps.command({ command: 'navigate', route: notice.route });
        shown.delete(n);
      });
      n.on('close', () => shown.delete(n));
      n.show();
    },
    showTransfers(indicator: TransferIndicator) {
      for (const w of live()) {
        // -1 removes the bar; 'paused' is yellow on Windows and shown as paused elsewhere where supported.
        w.setProgressBar(indicator.fraction ?? -1, { mode: indicator.fraction === null ? 'none' : indicator.mode });
      }
      if (indicator.keepAwake && blocker === null) blocker = deps.powerSaveBlocker.start('prevent-app-suspension');
      if (!indicator.keepAwake && blocker !== null) {
        if (deps.powerSaveBlocker.isStarted(blocker)) deps.powerSaveBlocker.stop(blocker);
        blocker = null;
      }
    },
  };
}
