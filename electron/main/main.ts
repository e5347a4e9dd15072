import { join } from 'node:path';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, Notification, powerSaveBlocker, protocol, safeStorage, session, shell, utilityProcess } from 'electron';
import Store from 'electron-store';
import { notifyOptionsFromEnv } from '../../shared/local-service/notify-options';
import { jobSlotsFromEnv } from '../../shared/local-service/job-slots-option';
import { chatOptionsFromEnv } from '../../shared/local-service/chat-option';
import { createCore, type Core } from '../core/create-core';
import { guardProcess } from '../core/process-guard';
import { createAppWindow } from './app-window';
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
let closing = false;

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
    desktop: { ...createElectronDesktop(shell, clipboard), ...signals, ...createElectronDialogs(dialog, () => BrowserWindow.getFocusedWindow()) },
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
  createAppWindow(BrowserWindow, join(appDir, 'dist', 'electron', 'preload.cjs'));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
  app.whenReady().then(start, (cause: unknown) => {
    console.error('Assemblyline failed to start:', cause);
    app.exit(1);
  });
  app.on('activate', () => {
    if (core && BrowserWindow.getAllWindows().length === 0) {
      createAppWindow(BrowserWindow, join(app.getAppPath(), 'dist', 'electron', 'preload.cjs'));
    }
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // Close core (uploads paused at a known offset, database flushed) before the process exits.
  app.on('before-quit', (event) => {
    if (!core || closing) return;
    event.preventDefault();
    closing = true;
    void core.close().finally(() => app.quit());
  });
}
