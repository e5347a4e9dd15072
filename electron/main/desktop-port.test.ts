import type { Item, NativeImage } from 'electron';
import { describe, expect, it } from 'vitest';
import { createElectronDesktop } from './desktop-port';

// Electron's shell, clipboard and webContents are recorded, typed by Electron's declarations.
function setup(openProblem = '') {
  const log: string[] = [];
  const shell = {
    openPath: async (p: string) => (log.push(`open ${p}`), openProblem),
    showItemInFolder: (p: string) => void log.push(`reveal ${p}`),
    openExternal: async (url: string) => void log.push(`external ${url}`),
  };
  let text = '';
  const clipboard = { writeText: (t: string) => void (text = t), readText: () => text };
  const drags: Item[] = [];
  const icon = { isEmpty: () => false } as NativeImage;
  let destroyed = false;
  const contents = { startDrag: (item: Item) => void drags.push(item), isDestroyed: () => destroyed };
  const desktop = createElectronDesktop(shell, clipboard, { contents: () => contents, icon: () => icon });
  return { desktop, log, drags, icon, gone: () => void (destroyed = true) };
}

describe('Electron desktop port', () => {
  it('opens and reveals files, and says why the OS could not open one', async () => {
    const { desktop, log } = setup();
    await desktop.openPath('/d/a.jpg');
    await desktop.revealPath('/d/a.jpg');
    expect(log).toEqual(['open /d/a.jpg', 'reveal /d/a.jpg']);
    await expect(setup('No application is associated with this file').desktop.openPath('/d/x.zzz')).rejects.toThrow('No application is associated');
  });

  it('opens only http(s) addresses in the browser', async () => {
    const { desktop, log } = setup();
    await desktop.openExternal('https://example.com/sign-in');
    await expect(desktop.openExternal('file:///etc/passwd')).rejects.toThrow('Only http and https');
    expect(log).toEqual(['external https://example.com/sign-in']);
  });

  it('writes and reads the clipboard', async () => {
    const { desktop } = setup();
    await desktop.writeClipboard('secret-for-30s');
    expect(await desktop.readClipboard()).toBe('secret-for-30s');
  });

  it('starts a native drag of the file from the page, with an image, and refuses once the window is gone', () => {
    const { desktop, drags, icon, gone } = setup();
    desktop.startDrag!('/data/drag-cache/ab/photo.webp');
    expect(drags).toEqual([{ file: '/data/drag-cache/ab/photo.webp', icon }]);
    gone();
    expect(() => desktop.startDrag!('/data/drag-cache/ab/photo.webp')).toThrow('window the drag started in is gone');
    // Without drag support (no window), the port has no startDrag: core answers DRAG_UNAVAILABLE.
    expect(createElectronDesktop({ openPath: async () => '', showItemInFolder: () => undefined, openExternal: async () => undefined }, { writeText: () => undefined, readText: () => '' }).startDrag).toBeUndefined();
  });
});
