import type { Clipboard, Shell } from 'electron';
import type { DesktopPort } from '../core/ports/desktop';

/** Core's DesktopPort over Electron's shell and clipboard; failures become rejections core turns into errors. */
export function createElectronDesktop(
  shell: Pick<Shell, 'openPath' | 'showItemInFolder' | 'openExternal'>,
  clipboard: Pick<Clipboard, 'writeText' | 'readText'>,
): DesktopPort {
  return {
    async openPath(path) {
      const problem = await shell.openPath(path);
      if (problem) throw new Error(problem);
    },
    async revealPath(path) {
      shell.showItemInFolder(path);
    },
    async openExternal(url) {
      if (!/^https?:\/\//i.test(url)) throw new Error('Only http and https addresses open in the browser.');
      await shell.openExternal(url);
    },
    async writeClipboard(text) {
      clipboard.writeText(text);
    },
    readClipboard: async () => clipboard.readText(),
  };
}
