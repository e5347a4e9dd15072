import type { DesktopPort } from './desktop';

export interface ClipboardGuard {
  /** Puts a secret on the clipboard; it is cleared after `clearMs` unless something else was copied since. */
  copySecret(secret: string): Promise<{ clearsInSeconds: number }>;
  /** Clears a secret still on the clipboard now (the app is quitting). */
  flush(): Promise<void>;
}

/** Secrets never linger on the clipboard: cleared after a while, and at the latest when the app quits. */
export function createClipboardGuard(desktop: DesktopPort, clearMs: number): ClipboardGuard {
  let pending: { secret: string; timer: ReturnType<typeof setTimeout> } | null = null;
  const clearIfStill = async (secret: string) => {
    try {
      if ((await desktop.readClipboard()) === secret) await desktop.writeClipboard('');
    } catch {
      // The clipboard went away (display closed): nothing left to clear.
    }
  };
  return {
    async copySecret(secret) {
      if (pending) clearTimeout(pending.timer);
      await desktop.writeClipboard(secret);
      const timer = setTimeout(() => {
        pending = null;
        void clearIfStill(secret);
      }, clearMs);
      timer.unref?.();
      pending = { secret, timer };
      return { clearsInSeconds: Math.round(clearMs / 1000) };
    },
    async flush() {
      if (!pending) return;
      clearTimeout(pending.timer);
      const { secret } = pending;
      pending = null;
      await clearIfStill(secret);
    },
  };
}
