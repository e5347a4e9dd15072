import type { BrowserWindow as BrowserWindowClass } from 'electron';
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
