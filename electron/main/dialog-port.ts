import type { BrowserWindow, Dialog } from 'electron';
import type { DesktopPort } from '../core/ports/desktop';

/** Core's folder and save dialogs over Electron's `dialog`, attached to the focused window (modal to it). */
export function createElectronDialogs(
  dialog: Pick<Dialog, 'showOpenDialog' | 'showSaveDialog'>,
  focused: () => BrowserWindow | null,
): Required<Pick<DesktopPort, 'chooseFolder' | 'chooseSaveFile'>> {
  return {
    async chooseFolder({ title, defaultDir }) {
      const options = { title, ...(defaultDir ? { defaultPath: defaultDir } : {}), properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> };
      const window = focused();
      const answer = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return answer.canceled ? null : (answer.filePaths[0] ?? null);
    },
    async chooseSaveFile({ title, defaultDir, defaultName, filters }) {
      const options = { title, defaultPath: defaultDir ? `${defaultDir}/${defaultName}` : defaultName, filters };
      const window = focused();
      const answer = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
      return answer.canceled || !answer.filePath ? null : answer.filePath;
    },
  };
}
