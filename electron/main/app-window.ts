import type { BrowserWindow as BrowserWindowClass, Dialog } from 'electron';
import { APP_ORIGIN } from './ipc/sender-validation';

/** The one window: sandboxed, isolated, no Node; the preload is the only way out of the page. */
export function createAppWindow(BrowserWindow: typeof BrowserWindowClass, preloadPath: string): BrowserWindowClass {
  const window = new BrowserWindow({
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Assemblyline',
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${APP_ORIGIN}/index.html`);
  return window;
}

/** The window's side of the page's navigation guard: what `will-prevent-unload` needs. */
export interface UnloadingWindow {
  readonly webContents: { on(event: 'will-prevent-unload', listener: (event: { preventDefault(): void }) => void): unknown };
}

/**
 * The page holds unsaved input and its `beforeunload` held the close or reload (renderer's navigation
 * guard): Electron shows nothing by itself, so ask here. Leave lets the window go; Stay (the default,
 * and Escape) keeps it and the input.
 */
export function askBeforeUnload(window: UnloadingWindow, dialog: Pick<Dialog, 'showMessageBoxSync'>, parent?: BrowserWindowClass): void {
  window.webContents.on('will-prevent-unload', (event) => {
    const options = { type: 'question' as const, buttons: ['Leave', 'Stay'], defaultId: 1, cancelId: 1, noLink: true, message: 'Leave without saving?', detail: 'What you changed in a form is not saved. Stay keeps it as it is; Leave throws it away.' };
    const choice = parent ? dialog.showMessageBoxSync(parent, options) : dialog.showMessageBoxSync(options);
    // preventDefault here overrides the page's: the unload goes ahead.
    if (choice === 0) event.preventDefault();
  });
}
