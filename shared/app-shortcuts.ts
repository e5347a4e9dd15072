/**
 * The app's keyboard shortcuts, in one list: the renderer handles the keys (both hosts), the Electron
 * menu shows the same accelerators, and the help overlay (`?`) lists them. `Mod` is ⌘ on macOS, Ctrl
 * elsewhere (Electron's `CmdOrCtrl`).
 */
export interface ScreenShortcut {
  readonly label: string;
  readonly route: `#/${string}`;
  /** The digit after Mod. */
  readonly digit: number;
}

/** Screens by Mod+digit, in the sidebar's order (nine digits: the first nine; Credentials, Auth Keys, CDN URLs and Workspaces have none — Settings… on macOS opens Workspaces). */
export const SCREEN_SHORTCUTS: readonly ScreenShortcut[] = [
  { label: 'Upload', route: '#/upload', digit: 1 },
  { label: 'Transfers', route: '#/transfers', digit: 2 },
  { label: 'Activity', route: '#/activity', digit: 3 },
  { label: 'Assets', route: '#/assets', digit: 4 },
  { label: 'Watch folders', route: '#/watch-folders', digit: 5 },
  { label: 'Usage', route: '#/usage', digit: 6 },
  { label: 'Statistics', route: '#/statistics', digit: 7 },
  { label: 'Queue', route: '#/queue', digit: 8 },
  { label: 'Templates', route: '#/templates', digit: 9 },
];

export type ActionShortcutId = 'open-files' | 'open-folder' | 'new-upload' | 'find' | 'shortcuts';

export interface ActionShortcut {
  readonly id: ActionShortcutId;
  readonly label: string;
  /** Electron accelerator syntax. */
  readonly accelerator: string;
}

export const ACTION_SHORTCUTS: readonly ActionShortcut[] = [
  { id: 'open-files', label: 'Add files…', accelerator: 'CmdOrCtrl+O' },
  { id: 'open-folder', label: 'Add folder…', accelerator: 'CmdOrCtrl+Shift+O' },
  { id: 'new-upload', label: 'New upload', accelerator: 'CmdOrCtrl+N' },
  { id: 'find', label: 'Find in this screen', accelerator: 'CmdOrCtrl+F' },
  { id: 'shortcuts', label: 'Keyboard shortcuts', accelerator: 'CmdOrCtrl+/' },
];

/** How an accelerator reads on this platform (`⌘⇧O` on macOS, `Ctrl+Shift+O` elsewhere). */
export function acceleratorLabel(accelerator: string, mac: boolean): string {
  const parts = accelerator.split('+');
  if (!mac) return parts.map((p) => (p === 'CmdOrCtrl' ? 'Ctrl' : p)).join('+');
  const symbols: Record<string, string> = { CmdOrCtrl: '⌘', Shift: '⇧', Alt: '⌥' };
  return parts.map((p) => symbols[p] ?? p).join('');
}
