/** Pure check of who sent an IPC message (Electron checklist #17): only our app:// page's main frame. */

export const APP_SCHEME = 'app';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export interface SenderFrameInfo {
  /** `event.senderFrame.url`; null when the frame is gone. */
  readonly url: string | null;
  /** True when `senderFrame.parent === null` (an iframe must never reach core). */
  readonly isMainFrame: boolean;
}

export function isTrustedSender(frame: SenderFrameInfo | null): boolean {
  if (!frame || !frame.url || !frame.isMainFrame) return false;
  let url: URL;
  try {
    url = new URL(frame.url);
  } catch {
    return false;
  }
  // Parse, never startsWith: `app://app.evil.com` must not pass.
  return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
}
