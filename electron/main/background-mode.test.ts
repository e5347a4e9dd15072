import type { BrowserWindow, MessageBoxOptions, MessageBoxReturnValue } from 'electron';
import { describe, expect, it } from 'vitest';
import { currentFromTotals, type TransferTotals } from '../../shared/ipc/transfer-models';
import type { QuitQuestion } from '../core/tray/tray-model';
import { askToQuit, createQuitGuard, windowCloseAction } from './background-mode';

const totals = (over: Partial<TransferTotals> = {}): TransferTotals => {
  const t = {
  filesTotal: 0, filesQueued: 0, filesActive: 0, filesDone: 0, filesFailed: 0, filesCanceled: 0, filesSkipped: 0,
  bytesTotal: 0, bytesSent: 0, speedBps: 0, etaSeconds: null, paused: false, waitingUntil: null, effectiveConcurrency: 4, ...over,
  };
  return { ...t, current: over.current ?? currentFromTotals(t) };
};
const settle = () => new Promise((r) => setTimeout(r, 0));

function guard(queue: TransferTotals, answer: boolean) {
  const log: string[] = [];
  const g = createQuitGuard({
    totals: () => queue,
    ask: async (q) => (log.push(`ask: ${q.message}`), answer),
    closeCore: async () => void log.push('close core'),
    quit: () => log.push('quit'),
    stayed: () => log.push('stayed'),
  });
  const event = () => {
    let prevented = false;
    return { preventDefault: () => void (prevented = true), get prevented() { return prevented; } };
  };
  return { g, log, event };
}

describe('background mode', () => {
  it('hides the window on close while keeping running in the background, unless quitting', () => {
    expect(windowCloseAction(true, false)).toBe('hide');
    expect(windowCloseAction(true, true)).toBe('close');
    expect(windowCloseAction(false, false)).toBe('close');
  });

  it('quits at once (after closing core) when nothing is left to send', async () => {
    const { g, log, event } = guard(totals({ filesTotal: 2, filesDone: 2 }), false);
    const first = event();
    g.beforeQuit(first);
    expect(first.prevented).toBe(true);
    await settle();
    expect(log).toEqual(['close core', 'quit']);
    expect(g.quitting).toBe(true);
    // The second app.quit() goes through.
    const second = event();
    g.beforeQuit(second);
    expect(second.prevented).toBe(false);
  });

  it('asks while files are still to be sent: "Keep running" stays, "Quit" quits', async () => {
    const running = totals({ filesTotal: 5, filesQueued: 4, filesDone: 1 });
    const stay = guard(running, false);
    stay.g.beforeQuit(stay.event());
    // A second quit while the question is open does not ask twice.
    stay.g.beforeQuit(stay.event());
    await settle();
    expect(stay.log).toEqual(['ask: Transfers are still running.', 'stayed']);
    expect(stay.g.quitting).toBe(false);
    const go = guard(running, true);
    go.g.beforeQuit(go.event());
    await settle();
    expect(go.log).toEqual(['ask: Transfers are still running.', 'close core', 'quit']);
  });

  it("asks with Electron's message box, on the window, staying by default", async () => {
    const seen: Array<{ window: unknown; options: MessageBoxOptions }> = [];
    const dialog = {
      showMessageBox: (async (a: unknown, b?: MessageBoxOptions) => {
        seen.push(b ? { window: a, options: b } : { window: null, options: a as MessageBoxOptions });
        return { response: 0, checkboxChecked: false } satisfies MessageBoxReturnValue;
      }) as never,
    };
    const question: QuitQuestion = { message: 'Transfers are still running.', detail: '3 files not sent yet.', buttons: ['Quit', 'Keep running'] };
    const window = {} as BrowserWindow;
    expect(await askToQuit(dialog, window, question)).toBe(true);
    expect(seen[0]).toMatchObject({ window, options: { buttons: ['Quit', 'Keep running'], defaultId: 1, cancelId: 1, message: 'Transfers are still running.' } });
    await askToQuit(dialog, null, question);
    expect(seen[1]!.window).toBeNull();
  });
});
