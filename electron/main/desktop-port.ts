import type { Shell } from 'electron';
import type { DesktopPort } from '../core/ports/desktop';

/** Core's DesktopPort over Electron's shell; failures become rejections core turns into errors. */
export function createElectronDesktop(shell: Pick<Shell, 'openPath' | 'showItemInFolder'>): DesktopPort {
  return {
    async openPath(path) {
      const problem = await shell.openPath(path);
      if (problem) throw new Error(problem);
    },
    async revealPath(path) {
      shell.showItemInFolder(path);
    },
  };
}
