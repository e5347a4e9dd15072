import { describe, expect, it } from 'vitest';
import { matchShortcut } from './shortcuts';

const key = (over: Partial<Parameters<typeof matchShortcut>[0]>) => ({ key: '', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, editable: false, ...over });

describe('app shortcuts', () => {
  it('Ctrl+digit opens a screen on Linux and Windows, ⌘+digit on macOS — never the other modifier', () => {
    expect(matchShortcut(key({ key: '3', code: 'Digit3', ctrlKey: true }), false)).toEqual({ type: 'navigate', route: '#/activity' });
    expect(matchShortcut(key({ key: '3', code: 'Digit3', metaKey: true }), true)).toEqual({ type: 'navigate', route: '#/activity' });
    expect(matchShortcut(key({ key: '3', code: 'Digit3', metaKey: true }), false)).toBeNull();
    expect(matchShortcut(key({ key: '3', code: 'Digit3', ctrlKey: true }), true)).toBeNull();
  });

  it('Ctrl+O adds files, Ctrl+Shift+O a folder, Ctrl+N a new upload, Ctrl+F finds, Ctrl+/ lists the shortcuts', () => {
    expect(matchShortcut(key({ key: 'o', code: 'KeyO', ctrlKey: true }), false)).toEqual({ type: 'open-files' });
    expect(matchShortcut(key({ key: 'O', code: 'KeyO', ctrlKey: true, shiftKey: true }), false)).toEqual({ type: 'open-folder' });
    expect(matchShortcut(key({ key: 'n', code: 'KeyN', ctrlKey: true }), false)).toEqual({ type: 'navigate', route: '#/upload' });
    expect(matchShortcut(key({ key: 'f', code: 'KeyF', ctrlKey: true }), false)).toEqual({ type: 'find' });
    expect(matchShortcut(key({ key: '/', code: 'Slash', ctrlKey: true }), false)).toEqual({ type: 'shortcuts' });
    // Ctrl+Alt+O (an AltGr character on some layouts) is not a shortcut.
    expect(matchShortcut(key({ key: 'ø', code: 'KeyO', ctrlKey: true, altKey: true }), false)).toBeNull();
  });

  it('"?" lists the shortcuts, but not while typing in a field', () => {
    expect(matchShortcut(key({ key: '?', shiftKey: true }), false)).toEqual({ type: 'shortcuts' });
    expect(matchShortcut(key({ key: '?', shiftKey: true, editable: true }), false)).toBeNull();
  });
});
