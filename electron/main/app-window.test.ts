import { describe, expect, it } from 'vitest';
import { askBeforeUnload, type UnloadingWindow } from './app-window';

/** A window whose page held an unload, and a dialog that answers with the given button. */
const holdUnload = (answer: number) => {
  let listener: ((event: { preventDefault(): void }) => void) | null = null;
  const window: UnloadingWindow = { webContents: { on: (_event, l) => (listener = l) } };
  const asked: string[] = [];
  askBeforeUnload(window, { showMessageBoxSync: ((options: { message: string; buttons: string[] }) => (asked.push(`${options.message} [${options.buttons.join('|')}]`), answer)) as never });
  let goes = false;
  listener!({ preventDefault: () => (goes = true) });
  return { asked, goes };
};

describe('closing or reloading the window over unsaved input', () => {
  it('asks, and Leave lets the window go', () => {
    expect(holdUnload(0)).toEqual({ asked: ['Leave without saving? [Leave|Stay]'], goes: true });
  });
  it('Stay (the default, and Escape) keeps the window and the input', () => {
    expect(holdUnload(1).goes).toBe(false);
  });
});
