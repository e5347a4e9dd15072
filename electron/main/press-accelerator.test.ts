import type { InputEvent, KeyboardInputEvent, MouseInputEvent, MouseWheelInputEvent } from 'electron';
import { describe, expect, it } from 'vitest';
import { pressAccelerator } from './press-accelerator';

describe('a menu item presses its shortcut in the page', () => {
  it('sends key down and up with ⌘ on macOS and Ctrl elsewhere, after focusing the page', () => {
    const sent: Array<string | KeyboardInputEvent | MouseInputEvent | MouseWheelInputEvent | InputEvent> = [];
    const contents = { focus: () => void sent.push('focus'), sendInputEvent: (e: KeyboardInputEvent | MouseInputEvent | MouseWheelInputEvent | InputEvent) => void sent.push(e) };
    pressAccelerator(contents, 'CmdOrCtrl+Shift+O', 'darwin');
    pressAccelerator(contents, 'CmdOrCtrl+3', 'win32');
    expect(sent).toEqual([
      'focus',
      { type: 'keyDown', keyCode: 'O', modifiers: ['meta', 'shift'] },
      { type: 'keyUp', keyCode: 'O', modifiers: ['meta', 'shift'] },
      'focus',
      { type: 'keyDown', keyCode: '3', modifiers: ['control'] },
      { type: 'keyUp', keyCode: '3', modifiers: ['control'] },
    ]);
  });
});
