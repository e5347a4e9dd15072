import type { Clipboard, NativeImage, Shell, WebContents } from 'electron';
import type { DesktopPort } from '../core/ports/desktop';

/** What a native drag of a result needs: the page the drag started in, and the image under the pointer. */
export interface ElectronDrag {
  /** The focused window's page (the user is holding the mouse on it), or undefined when none is left. */
  readonly contents: () => Pick<WebContents, 'startDrag' | 'isDestroyed'> | undefined;
  /** Never empty: macOS refuses a drag without an image. */
  readonly icon: () => NativeImage;
}

/** Core's DesktopPort over Electron's shell and clipboard; failures become rejections core turns into errors. */
export function createElectronDesktop(
  shell: Pick<Shell, 'openPath' | 'showItemInFolder' | 'openExternal'>,
  clipboard: Pick<Clipboard, 'writeText' | 'readText'>,
  drag?: ElectronDrag,
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
    ...(drag
      ? {
          startDrag(file: string) {
            const contents = drag.contents();
            if (!contents || contents.isDestroyed()) throw new Error('The window the drag started in is gone.');
            contents.startDrag({ file, icon: drag.icon() });
          },
        }
      : {}),
  };
}
