import type { DesktopPort } from './desktop';

export interface RecordingDesktop extends DesktopPort {
  readonly opened: string[];
  readonly revealed: string[];
  readonly external: string[];
  /** Every value written to the clipboard, in order (the current one is `readClipboard()`). */
  readonly clipboardWrites: string[];
}

/**
 * A desktop for tests and headless runs: it records what would be opened and keeps the clipboard in
 * memory. Used where no desktop exists (CI has no display, so no OS clipboard and no browser to open).
 * `onExternal` lets a test play the user in the "system browser".
 */
export function createRecordingDesktop(onExternal?: (url: string) => void | Promise<void>): RecordingDesktop {
  let clipboard = '';
  const desktop: RecordingDesktop = {
    opened: [],
    revealed: [],
    external: [],
    clipboardWrites: [],
    openPath: async (p) => void desktop.opened.push(p),
    revealPath: async (p) => void desktop.revealed.push(p),
    async openExternal(url) {
      desktop.external.push(url);
      await onExternal?.(url);
    },
    async writeClipboard(text) {
      clipboard = text;
      desktop.clipboardWrites.push(text);
    },
    readClipboard: async () => clipboard,
  };
  return desktop;
}
