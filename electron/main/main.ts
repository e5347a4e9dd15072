import { join } from 'node:path';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeImage, Notification, powerSaveBlocker, protocol, safeStorage, session, shell, Tray, utilityProcess } from 'electron';
import Store from 'electron-store';
import { notifyOptionsFromEnv } from '../../shared/local-service/notify-options';
import { jobSlotsFromEnv } from '../../shared/local-service/job-slots-option';
import { chatOptionsFromEnv } from '../../shared/local-service/chat-option';
import { createCore, type Core } from '../core/create-core';
import { guardProcess } from '../core/process-guard';
import type { EventPayload } from '../../shared/ipc/contract';
import { trayIconPng } from '../core/tray/tray-icon';
import type { TrayActionId } from '../core/tray/tray-model';
import { askBeforeUnload, createAppWindow } from './app-window';
import { askToQuit, createQuitGuard, windowCloseAction } from './background-mode';
import { createAppTray, type AppTray } from './tray';
import { appMenuTemplate } from './app-menu';
import { createElectronSignals } from './desktop-signals';
import { pressAccelerator } from './press-accelerator';
import { createElectronDesktop } from './desktop-port';
import { createElectronDialogs } from './dialog-port';
import { registerIpc, sendEvent } from './ipc/register-ipc';
import { handleAppProtocol, registerAppScheme } from './protocol/app-protocol';
import { createSafeStorageSecretStore } from './secrets/safe-storage-secret-store';
import { createUtilityServiceProcess } from './utility-service-process';
import { denyPermissions, installWebContentsPolicy } from './security/web-contents-policy';

/** The Electron host's composition root: Electron adapters around the same core the browser host uses. */

registerAppScheme(protocol);
app.enableSandbox();
installWebContentsPolicy(app, shell);

let core: Core | null = null;
// Background mode (Settings → Desktop): closing the window hides it and a tray icon shows the queue.
let keepInBackground = false;
let tray: AppTray | null = null;

const preloadPath = () => join(app.getAppPath(), 'dist', 'electron', 'preload.cjs');

function openWindow(): BrowserWindow {
  const window = createAppWindow(BrowserWindow, preloadPath());
  askBeforeUnload(window, dialog, window);
  window.on('close', (event) => {
    if (windowCloseAction(keepInBackground, quitGuard.quitting) === 'hide') {
      event.preventDefault();
      window.hide();
    }
  });
  return window;
}

function showWindow(): void {
  const [window] = BrowserWindow.getAllWindows();
  if (!window) {
    if (core) openWindow();
    return;
  }
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

// Every way out (tray, menu, Cmd+Q, the last window closed) asks while files are still to be sent, then
// closes core (uploads paused at a known offset, database flushed) before the process exits.
const quitGuard = createQuitGuard({
  totals: () => core?.transfers.overview().totals ?? null,
  ask: (question) => askToQuit(dialog, BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows().find((w) => w.isVisible()) ?? null, question),
  closeCore: async () => {
    tray?.destroy();
    await core?.close();
  },
  quit: () => app.quit(),
  stayed: () => {
    if (BrowserWindow.getAllWindows().length === 0) showWindow();
  },
});

function trayAction(id: TrayActionId): void {
  if (id === 'show') showWindow();
  else if (id === 'quit') app.quit();
  else core?.transfers.control(id === 'pause-all' ? 'pause' : 'resume', { kind: 'all' });
}

/** The tray exists exactly while background mode is on. */
function followBackgroundMode(on: boolean): void {
  keepInBackground = on;
  if (on && !tray && core) {
    tray = createAppTray({ Tray, Menu, nativeImage, platform: process.platform, appName: app.getName(), act: trayAction }, core.transfers.overview().totals);
  } else if (!on && tray) {
    tray.destroy();
    tray = null;
  }
}

// No stray rejection or exception ends the app: logged, shown in the window once core is up, and it goes on.
guardProcess(process, (code, message) => core?.reportError(code, message));

async function start(): Promise<void> {
  let notifications;
  let jobSlots;
  let chat;
  try {
    notifications = notifyOptionsFromEnv(process.env);
    jobSlots = jobSlotsFromEnv(process.env);
    chat = chatOptionsFromEnv(process.env);
  } catch (cause) {
    // A malformed ASSEMBLYLINE_NOTIFY_* is said by name; the app does not run with a value nobody meant.
    console.error(`Assemblyline could not start: ${cause instanceof Error ? cause.message : String(cause)}`);
    return app.exit(1);
  }
  const appDir = app.getAppPath();
  denyPermissions(session.defaultSession);
  handleAppProtocol(protocol, join(appDir, 'dist', 'renderer'));
  // Ciphertexts only; the key stays in the OS keyring behind safeStorage.
  const blobs = new Store<Record<string, string>>({ name: 'secrets' });
  const pages = () => BrowserWindow.getAllWindows().map((w) => w.webContents);
  const signals = createElectronSignals({
    Notification,
    powerSaveBlocker,
    windows: () => BrowserWindow.getAllWindows(),
    command: (command) => pages().forEach((contents) => sendEvent(contents, 'app:command', command)),
  });
  // The menu presses the page's own shortcut keys (a real key event is the user's act a file chooser needs).
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({
        platform: process.platform,
        appName: app.getName(),
        developer: !app.isPackaged,
        press: (accelerator) => {
          const contents = BrowserWindow.getFocusedWindow()?.webContents ?? pages()[0];
          if (contents) pressAccelerator(contents, accelerator, process.platform);
        },
        command: (command) => pages().forEach((contents) => sendEvent(contents, 'app:command', command)),
      }),
    ),
  );
  core = await createCore({
    dataDir: app.getPath('userData'),
    downloadsDir: app.getPath('downloads'),
    secretStore: createSafeStorageSecretStore(safeStorage, blobs, process.platform),
    desktop: {
      ...createElectronDesktop(shell, clipboard, {
        // The user is holding the mouse on a result in this window.
        contents: () => (BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0])?.webContents,
        icon: () => nativeImage.createFromBuffer(trayIconPng('idle', 32, false), { scaleFactor: 2 }),
      }),
      ...signals,
      ...createElectronDialogs(dialog, () => BrowserWindow.getFocusedWindow()),
    },
    host: 'electron',
    version: app.getVersion(),
    // The embedded service in a utilityProcess: a hang or crash there never freezes or ends the app.
    // Its notify options (ASSEMBLYLINE_NOTIFY_*) are read here, at the composition root, never by core.
    localService: { process: createUtilityServiceProcess(utilityProcess, join(appDir, 'dist', 'electron', 'service-child.cjs')), notifications, ...(jobSlots !== undefined ? { jobSlots } : {}), ...(chat ? { chat } : {}) },
  });
  registerIpc(
    ipcMain,
    core,
    pages,
    // The native folder dialog (bridge.pickFolder), attached to the window that asked.
    async (sender) => {
      const options = { properties: ['openDirectory', 'multiSelections'] as ('openDirectory' | 'multiSelections')[] };
      const window = sender ? BrowserWindow.fromWebContents(sender) : null;
      const answer = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return answer.canceled ? null : answer.filePaths;
    },
  );
  const started = core;
  followBackgroundMode(started.preferences.get().keepRunningInBackground);
  started.preferences.onChange((preferences) => followBackgroundMode(preferences.keepRunningInBackground));
  started.onEvent((name, payload) => {
    if (name === 'transfers:changed') tray?.update((payload as EventPayload<'transfers:changed'>).totals);
  });
  openWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // A second launch (also while only the tray is left) brings the window back.
  app.on('second-instance', () => showWindow());
  app.whenReady().then(start, (cause: unknown) => {
    console.error('Assemblyline failed to start:', cause);
    app.exit(1);
  });
  // The dock icon (macOS) brings back the window, hidden in background mode or closed.
  app.on('activate', () => {
    if (core) showWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin' && !keepInBackground) app.quit();
  });
  app.on('before-quit', (event) => quitGuard.beforeQuit(event));
}
