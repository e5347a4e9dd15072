import { ACTION_SHORTCUTS, SCREEN_SHORTCUTS, type ActionShortcutId } from '../../../../shared/app-shortcuts';

export type ShortcutAction = { readonly type: 'navigate'; readonly route: string } | { readonly type: ActionShortcutId };

export interface KeyLike {
  readonly key: string;
  readonly code?: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  /** Typing in a field: single-key shortcuts (`?`) must not fire there. */
  readonly editable: boolean;
}

/** `CmdOrCtrl+Shift+O` → does this key event press it (⌘ on macOS, Ctrl elsewhere)? */
export function pressesAccelerator(e: KeyLike, accelerator: string, mac: boolean): boolean {
  const parts = accelerator.split('+');
  const key = parts[parts.length - 1]!;
  const wantShift = parts.includes('Shift');
  const mod = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  if (!mod || e.altKey || e.shiftKey !== wantShift) return false;
  // By code where it exists, so Shift or a keyboard layout does not change which key it is.
  if (/^[A-Z]$/.test(key)) return e.code === `Key${key}` || e.key.toUpperCase() === key;
  if (/^\d$/.test(key)) return e.code === `Digit${key}` || e.key === key;
  return e.key === key || (key === '/' && e.code === 'Slash');
}

/** The app shortcut a key event presses, if any (pure, so both hosts and the menu agree). */
export function matchShortcut(e: KeyLike, mac: boolean): ShortcutAction | null {
  for (const s of SCREEN_SHORTCUTS) if (pressesAccelerator(e, `CmdOrCtrl+${s.digit}`, mac)) return { type: 'navigate', route: s.route };
  for (const a of ACTION_SHORTCUTS) if (pressesAccelerator(e, a.accelerator, mac)) return a.id === 'new-upload' ? { type: 'navigate', route: '#/upload' } : { type: a.id };
  if (e.key === '?' && !e.editable && !e.ctrlKey && !e.metaKey && !e.altKey) return { type: 'shortcuts' };
  return null;
}

export const isMacPlatform = (platform: string): boolean => /mac|iphone|ipad/i.test(platform);
