import type { MenuItemConstructorOptions } from 'electron';
import { ACTION_SHORTCUTS, SCREEN_SHORTCUTS, type ActionShortcutId } from '../../shared/app-shortcuts';
import type { AppCommand } from '../../shared/ipc/desktop-models';

export interface AppMenuOptions {
  readonly platform: NodeJS.Platform;
  readonly appName: string;
  /** Reload and developer tools only while developing. */
  readonly developer: boolean;
  /** Presses a shortcut in the focused page (electron/main/press-accelerator.ts). */
  readonly press: (accelerator: string) => void;
  /** A command without a shortcut (Settings…). */
  readonly command: (command: AppCommand) => void;
}

/**
 * The application menu (pure: Electron's template type in, no Electron call). The page handles the keys
 * itself in both hosts, so the menu shows each accelerator without registering it (`registerAccelerator:
 * false`), and a click presses that key in the page: one implementation of every shortcut.
 */
export function appMenuTemplate({ platform, appName, developer, press, command }: AppMenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const action = (id: ActionShortcutId): MenuItemConstructorOptions => {
    const shortcut = ACTION_SHORTCUTS.find((s) => s.id === id)!;
    return { label: shortcut.label, accelerator: shortcut.accelerator, registerAccelerator: false, click: () => press(shortcut.accelerator) };
  };
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: appName,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { label: 'Settings…', accelerator: 'CmdOrCtrl+,', click: () => command({ command: 'navigate', route: '#/workspaces' }) },
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];
  return [
    ...appMenu,
    {
      label: '&File',
      submenu: [action('new-upload'), action('open-files'), action('open-folder'), { type: 'separator' }, mac ? { role: 'close' } : { role: 'quit' }],
    },
    {
      label: '&Edit',
      submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }, { type: 'separator' }, action('find')],
    },
    {
      label: '&View',
      submenu: [
        ...SCREEN_SHORTCUTS.map(
          (s): MenuItemConstructorOptions => ({ label: s.label, accelerator: `CmdOrCtrl+${s.digit}`, registerAccelerator: false, click: () => press(`CmdOrCtrl+${s.digit}`) }),
        ),
        { type: 'separator' },
        ...(developer ? ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[]) : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { label: '&Window', submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }] },
    { label: '&Help', role: 'help', submenu: [action('shortcuts')] },
  ];
}
