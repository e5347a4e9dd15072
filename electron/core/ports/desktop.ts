import type { DesktopNotice, TransferIndicator } from '../../../shared/ipc/desktop-models';

/** Side effects on the user's desktop, behind a port so core runs (and tests) without Electron. */
export interface DesktopPort {
  openPath(path: string): Promise<void>;
  revealPath(path: string): Promise<void>;
  /** Open an http(s) URL in the system browser (sign-in, signed CDN URLs). */
  openExternal(url: string): Promise<void>;
  /** The system clipboard: core writes secrets here itself, so the renderer never holds them. */
  writeClipboard(text: string): Promise<void>;
  readClipboard(): Promise<string>;
  /**
   * An OS notification (Electron's Notification, raised only while no window has the focus; a click opens
   * `route`). Absent in the browser host, whose page raises a Web Notification from `app:notification`.
   */
  notify?(notice: DesktopNotice): void;
  /** The transfer queue on the taskbar/dock, and sleep held off while it runs. Absent in the browser host. */
  showTransfers?(indicator: TransferIndicator): void;
  /**
   * The host's folder dialog (the output folder of "Save results to folder…"): the chosen folder, or null
   * when the user canceled. Absent where the host has none (core then says so).
   */
  chooseFolder?(options: DialogOptions): Promise<string | null>;
  /** The host's save dialog (a manifest export): the chosen file, or null when canceled. Absent where there is none. */
  chooseSaveFile?(options: DialogOptions & { defaultName: string; filters: Array<{ name: string; extensions: string[] }> }): Promise<string | null>;
  /**
   * Start a native drag of this file from the app's window (Electron's `webContents.startDrag`); called
   * while the user holds the mouse on a result. Absent in the browser host, whose page drags the URL.
   */
  startDrag?(file: string): void;
}

export interface DialogOptions {
  title: string;
  /** The folder the dialog opens in (the last choice). */
  defaultDir?: string;
}

/** Where no clipboard exists (a browser host on a machine with no display or clipboard tool). */
export const CLIPBOARD_UNAVAILABLE = 'CLIPBOARD_UNAVAILABLE';

/** Thrown by `writeClipboard` when there is no clipboard at all: the page then offers Reveal instead. */
export class ClipboardUnavailableError extends Error {
  readonly code = CLIPBOARD_UNAVAILABLE;
}
