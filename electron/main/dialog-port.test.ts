import type { BrowserWindow, Dialog, OpenDialogOptions, SaveDialogOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { createElectronDialogs } from './dialog-port';

// Electron's dialog cannot run here: it is recorded, typed against Electron's own declarations.
function setup(answers: { open?: Awaited<ReturnType<Dialog['showOpenDialog']>>; save?: Awaited<ReturnType<Dialog['showSaveDialog']>> }, window: BrowserWindow | null) {
  const calls: Array<{ kind: 'open' | 'save'; parent: boolean; options: OpenDialogOptions | SaveDialogOptions }> = [];
  const record = (kind: 'open' | 'save', a: unknown, b: unknown) => {
    calls.push({ kind, parent: b !== undefined, options: (b ?? a) as OpenDialogOptions });
  };
  const dialog = {
    showOpenDialog: async (a: unknown, b?: unknown) => (record('open', a, b), answers.open ?? { canceled: true, filePaths: [] }),
    showSaveDialog: async (a: unknown, b?: unknown) => (record('save', a, b), answers.save ?? { canceled: true, filePath: '' }),
  } as unknown as Pick<Dialog, 'showOpenDialog' | 'showSaveDialog'>;
  return { calls, dialogs: createElectronDialogs(dialog, () => window) };
}

describe('Electron dialogs for core', () => {
  it('picks one folder (a new one may be made), modal to the focused window, opening at the last choice', async () => {
    const { calls, dialogs } = setup({ open: { canceled: false, filePaths: ['/home/me/Results'] } }, {} as BrowserWindow);
    expect(await dialogs.chooseFolder({ title: 'Save results to folder', defaultDir: '/home/me/Old' })).toBe('/home/me/Results');
    expect(calls).toEqual([{ kind: 'open', parent: true, options: { title: 'Save results to folder', defaultPath: '/home/me/Old', properties: ['openDirectory', 'createDirectory'] } }]);
  });

  it('answers null when the user cancels, with or without a window', async () => {
    const { calls, dialogs } = setup({}, null);
    expect(await dialogs.chooseFolder({ title: 'Save results to folder' })).toBeNull();
    expect(await dialogs.chooseSaveFile({ title: 'Export manifest', defaultName: 'm.csv', filters: [] })).toBeNull();
    expect(calls.map((c) => c.parent)).toEqual([false, false]);
  });

  it('saves under the suggested name in the suggested folder, with the format filter', async () => {
    const { calls, dialogs } = setup({ save: { canceled: false, filePath: '/home/me/m.json' } }, {} as BrowserWindow);
    expect(await dialogs.chooseSaveFile({ title: 'Export manifest', defaultDir: '/home/me', defaultName: 'manifest-run.json', filters: [{ name: 'JSON', extensions: ['json'] }] })).toBe('/home/me/m.json');
    expect(calls[0]!.options).toEqual({ title: 'Export manifest', defaultPath: '/home/me/manifest-run.json', filters: [{ name: 'JSON', extensions: ['json'] }] });
  });
});
