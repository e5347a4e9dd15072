import type { BrowserWindow, Dialog } from 'electron';
import type { TransferTotals } from '../../shared/ipc/transfer-models';
import { quitQuestionOf, type QuitQuestion } from '../core/tray/tray-model';

/**
 * What closing the window does: with "Keep running in the background" on, it hides (core, the queue and the
 * tray go on) unless the app is quitting; otherwise it closes as always.
 */
export function windowCloseAction(keepInBackground: boolean, quitting: boolean): 'hide' | 'close' {
  return keepInBackground && !quitting ? 'hide' : 'close';
}

/** Asks the user (a native message box, on the window when there is one): true = quit. Stay is the default. */
export async function askToQuit(dialog: Pick<Dialog, 'showMessageBox'>, window: BrowserWindow | null, question: QuitQuestion): Promise<boolean> {
  const options = { type: 'question' as const, buttons: [...question.buttons], defaultId: 1, cancelId: 1, message: question.message, detail: question.detail, noLink: true };
  const answer = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
  return answer.response === 0;
}

export interface QuitGuardDeps {
  /** The queue's totals now (null before core is up: nothing to lose). */
  readonly totals: () => TransferTotals | null;
  readonly ask: (question: QuitQuestion) => Promise<boolean>;
  /** Closes core (uploads paused at a known offset, database flushed). */
  readonly closeCore: () => Promise<void>;
  /** app.quit(): called again once core is closed; the guard then lets it through. */
  readonly quit: () => void;
  /** The user chose to keep running (bring a window back if none is left). */
  readonly stayed: () => void;
}

export interface QuitGuard {
  /** For app's 'before-quit': holds the quit, asks if files are still to be sent, closes core, quits. */
  beforeQuit(event: { preventDefault(): void }): void;
  /** The app is on its way out: a window's close must not hide it. */
  readonly quitting: boolean;
}

/** Every way of quitting (tray, menu, Cmd+Q, last window closed) passes here once. */
export function createQuitGuard(deps: QuitGuardDeps): QuitGuard {
  let phase: 'running' | 'asking' | 'closing' | 'closed' = 'running';
  return {
    get quitting() {
      return phase === 'closing' || phase === 'closed';
    },
    beforeQuit(event) {
      if (phase === 'closed') return;
      event.preventDefault();
      if (phase !== 'running') return;
      phase = 'asking';
      void (async () => {
        const totals = deps.totals();
        const question = totals ? quitQuestionOf(totals) : null;
        const go = question ? await deps.ask(question).catch(() => false) : true;
        if (!go) {
          phase = 'running';
          deps.stayed();
          return;
        }
        phase = 'closing';
        await deps.closeCore().catch(() => undefined);
        phase = 'closed';
        deps.quit();
      })();
    },
  };
}
