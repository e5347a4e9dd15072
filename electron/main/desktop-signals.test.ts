import type { NotificationConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { AppCommand, DesktopNotice } from '../../shared/ipc/desktop-models';
import { createElectronSignals } from './desktop-signals';

// Electron's runtime cannot run here: its Notification, powerSaveBlocker and window are recorded, typed
// against Electron's own declarations (the adapter takes `Pick`s of them).
function setup(focused = false) {
  const raised: Array<{ options: NotificationConstructorOptions; handlers: Map<string, () => void>; shown: boolean }> = [];
  class FakeNotification {
    static isSupported = () => true;
    readonly handlers = new Map<string, () => void>();
    constructor(readonly options: NotificationConstructorOptions) {
      raised.push(this as unknown as (typeof raised)[number]);
    }
    shown = false;
    show() {
      this.shown = true;
    }
    on(event: string, handler: () => void) {
      this.handlers.set(event, handler);
      return this;
    }
  }
  const bars: Array<[number, string | undefined]> = [];
  const window = {
    focused,
    calls: [] as string[],
    isFocused() {
      return this.focused;
    },
    isMinimized: () => true,
    restore() {
      window.calls.push('restore');
    },
    show() {
      window.calls.push('show');
    },
    focus() {
      window.calls.push('focus');
    },
    setProgressBar: (p: number, o?: { mode?: string }) => void bars.push([p, o?.mode]),
    isDestroyed: () => false,
  };
  const blockers = { started: [] as string[], stopped: [] as number[] };
  const powerSaveBlocker = {
    start: (type: 'prevent-app-suspension' | 'prevent-display-sleep') => (blockers.started.push(type), 7),
    stop: (id: number) => (blockers.stopped.push(id), true),
    isStarted: () => true,
  };
  const commands: AppCommand[] = [];
  const signals = createElectronSignals({ Notification: FakeNotification as never, powerSaveBlocker, windows: () => [window as never], command: (c) => commands.push(c) });
  return { signals, raised, window, bars, blockers, commands };
}

const notice: DesktopNotice = { tag: 'transfer-ended-t1', title: '"photos" finished', body: '10 files processed', tone: 'success', route: '#/transfers' };

describe('Electron notifications', () => {
  it('raises an OS notification while the window is not focused; a click brings the window back and opens the route', () => {
    const { signals, raised, window, commands } = setup(false);
    signals.notify(notice);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ options: { title: '"photos" finished', body: '10 files processed', silent: true }, shown: true });
    raised[0]!.handlers.get('click')!();
    expect(window.calls).toEqual(['restore', 'show', 'focus']);
    expect(commands).toEqual([{ command: 'navigate', route: '#/transfers' }]);
  });

  it('raises none while the window has the focus (the page shows a toast), and a failure is not silent', () => {
    const focused = setup(true);
    focused.signals.notify(notice);
    expect(focused.raised).toHaveLength(0);
    const away = setup(false);
    away.signals.notify({ ...notice, tone: 'danger' });
    expect(away.raised[0]!.options.silent).toBe(false);
  });
});

describe('Electron taskbar progress and sleep', () => {
  it('shows the fraction, paused as paused, removes the bar when idle, and holds off sleep only while sending', () => {
    const { signals, bars, blockers } = setup();
    signals.showTransfers({ fraction: 0.25, mode: 'normal', keepAwake: true });
    signals.showTransfers({ fraction: 0.5, mode: 'normal', keepAwake: true });
    signals.showTransfers({ fraction: 0.5, mode: 'paused', keepAwake: false });
    signals.showTransfers({ fraction: null, mode: 'normal', keepAwake: false });
    expect(bars).toEqual([[0.25, 'normal'], [0.5, 'normal'], [0.5, 'paused'], [-1, 'none']]);
    expect(blockers).toEqual({ started: ['prevent-app-suspension'], stopped: [7] });
  });
});
