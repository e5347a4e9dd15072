import type { WebContents } from 'electron';

type Modifier = 'control' | 'meta' | 'shift' | 'alt';

/** `CmdOrCtrl+Shift+O` → the key and modifiers Electron's `sendInputEvent` takes, for this platform. */
export function acceleratorInput(accelerator: string, platform: NodeJS.Platform): { keyCode: string; modifiers: Modifier[] } {
  const parts = accelerator.split('+');
  const keyCode = parts[parts.length - 1]!;
  const modifiers = parts.slice(0, -1).map((p): Modifier => (p === 'CmdOrCtrl' ? (platform === 'darwin' ? 'meta' : 'control') : p === 'Shift' ? 'shift' : p === 'Alt' ? 'alt' : 'control'));
  return { keyCode, modifiers };
}

/**
 * A menu item "presses" its shortcut in the page: the page handles every shortcut itself, and a real key
 * event gives the page the user activation that opening a file chooser requires.
 */
export function pressAccelerator(contents: Pick<WebContents, 'sendInputEvent' | 'focus'>, accelerator: string, platform: NodeJS.Platform): void {
  const { keyCode, modifiers } = acceleratorInput(accelerator, platform);
  contents.focus();
  contents.sendInputEvent({ type: 'keyDown', keyCode, modifiers });
  contents.sendInputEvent({ type: 'keyUp', keyCode, modifiers });
}
