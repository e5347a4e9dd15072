import { useEffect, useState } from 'react';
import type { AppCommand, DesktopNotice } from '../../../../shared/ipc/desktop-models';
import { useBridge } from '../../bridge/BridgeProvider';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { parseRoute } from '../../lib/route-url';
import { isMacPlatform, matchShortcut, type ShortcutAction } from './shortcuts';
import { useNavigation } from '../../state/navigation-store';
import { usePickRequest } from '../../state/pick-request-store';
import { useToasts } from '../../state/toast-store';
import { useTransfers } from '../transfers/transfer-store';

const editable = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/** Whether the window has the focus, kept from focus/blur events (a notice goes to the OS only when not). */
let windowFocused = typeof document === 'undefined' ? true : document.hasFocus();

function raiseWebNotification(notice: DesktopNotice, open: (route: string) => void): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const n = new Notification(notice.title, { body: notice.body, tag: notice.tag });
  n.onclick = () => {
    window.focus();
    open(notice.route);
    n.close();
  };
}

/** Ask once, from a user's act (Start), so the browser host can tell when a long drop ends. */
export function askNotificationPermission(): void {
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission().catch(() => undefined);
}

/**
 * The desktop around the screens: keyboard shortcuts (the Electron menu presses the same keys), commands
 * from the host (a notification click), notices when a drop ends (a toast while the window has the focus;
 * otherwise the OS notification — main's in Electron, a Web Notification in the browser host), and the
 * transfer queue's progress in the window title.
 */
export function useDesktop(): { readonly shortcutsOpen: boolean; readonly closeShortcuts: () => void; readonly mac: boolean } {
  const bridge = useBridge();
  const navigate = useNavigation((s) => s.navigate);
  const ask = usePickRequest((s) => s.ask);
  const toast = useToasts((s) => s.show);
  const host = useBridgeQuery('app:info', {}, { staleTime: Infinity }).data?.host;
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const mac = isMacPlatform(typeof navigator === 'undefined' ? '' : navigator.platform);

  useEffect(() => {
    const open = (route: string) => navigate(parseRoute(route));
    const act = (action: ShortcutAction | AppCommand): boolean => {
      const type = 'type' in action ? action.type : action.command;
      if (type === 'navigate') open('route' in action ? action.route : '#/upload');
      else if (type === 'open-files' || type === 'open-folder') {
        open('#/upload');
        ask(type === 'open-files' ? 'files' : 'folder');
      } else if (type === 'shortcuts') setShortcutsOpen(true);
      else if (type === 'find') {
        const field = document.querySelector<HTMLInputElement>('main input[type="search"]');
        if (!field) return false;
        field.focus();
        field.select();
      }
      return true;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const action = matchShortcut({ key: event.key, code: event.code, ctrlKey: event.ctrlKey, metaKey: event.metaKey, shiftKey: event.shiftKey, altKey: event.altKey, editable: editable(event.target) }, mac);
      if (action && act(action)) event.preventDefault();
    };
    const onFocus = () => void (windowFocused = true);
    const onBlur = () => void (windowFocused = false);
    window.addEventListener('keydown', onKey);
    window.addEventListener('focus', onFocus);
    window.addEventListener('blur', onBlur);
    const offCommand = bridge.on('app:command', (command) => void act(command));
    const offNotice = bridge.on('app:notification', (notice) => {
      if (windowFocused) toast(`${notice.title} — ${notice.body}`, notice.tone === 'success' ? 'success' : notice.tone === 'danger' ? 'danger' : 'info', notice.tag);
      else if (host === 'browser') raiseWebNotification(notice, open);
    });
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('blur', onBlur);
      offCommand();
      offNotice();
    };
  }, [bridge, navigate, ask, toast, host, mac]);

  // "42 % · Assemblyline" while files are queued or sending: readable from the taskbar in both hosts.
  const title = useTransfers((s) => {
    const t = s.totals;
    if (!t || t.filesQueued + t.filesActive === 0) return 'Assemblyline';
    const pct = t.bytesTotal > 0 ? Math.floor((t.bytesSent / t.bytesTotal) * 100) : 0;
    return `${pct} %${t.paused ? ' (paused)' : ''} · Assemblyline`;
  });
  useEffect(() => {
    document.title = title;
  }, [title]);

  return { shortcutsOpen, closeShortcuts: () => setShortcutsOpen(false), mac };
}
