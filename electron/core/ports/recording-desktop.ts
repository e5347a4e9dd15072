import { ClipboardUnavailableError, type DesktopPort } from './desktop';

export interface RecordingDesktop extends DesktopPort {
  readonly opened: string[];
  readonly revealed: string[];
  readonly external: string[];
  /** Every value written to the clipboard, in order (the current one is `readClipboard()`). */
  readonly clipboardWrites: string[];
  /**
   * What the user answers in the folder and save dialogs, first in first out (a path, or null: canceled);
   * an empty queue answers null. `dialogs` records each dialog's title as it is shown.
   */
  readonly dialogAnswers: Array<string | null>;
  readonly dialogs: string[];
}

/**
 * A desktop for tests and headless runs: it records what would be opened and keeps the clipboard in
 * memory. Used where no desktop exists (CI has no display, so no OS clipboard and no browser to open).
 * `onExternal` lets a test play the user in the "system browser".
 */
export function createRecordingDesktop(onExternal?: (url: string) => void | Promise<void>, options: { clipboard?: boolean } = {}): RecordingDesktop {
  // `clipboard: false` plays a machine with no clipboard at all (the browser host with no xclip).
  const noClipboard = () => {
    throw new ClipboardUnavailableError('No clipboard is available here (install wl-clipboard or xclip on Linux, or run the desktop app).');
  };
  let clipboard = '';
  const answer = (title: string): string | null => {
    desktop.dialogs.push(title);
    return desktop.dialogAnswers.shift() ?? null;
  };
  const desktop: RecordingDesktop = {
    opened: [],
    revealed: [],
    external: [],
    clipboardWrites: [],
    dialogAnswers: [],
    dialogs: [],
    openPath: async (p) => void desktop.opened.push(p),
    revealPath: async (p) => void desktop.revealed.push(p),
    async openExternal(url) {
      desktop.external.push(url);
      await onExternal?.(url);
    },
    async writeClipboard(text) {
      if (options.clipboard === false) noClipboard();
      clipboard = text;
      desktop.clipboardWrites.push(text);
    },
    readClipboard: async () => (options.clipboard === false ? noClipboard() : clipboard),
    chooseFolder: async ({ title }) => answer(title),
    chooseSaveFile: async ({ title }) => answer(title),
  };
  return desktop;
}
