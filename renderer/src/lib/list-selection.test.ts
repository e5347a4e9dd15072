import { describe, expect, it } from 'vitest';
import { emptySelection, keyToAction, reduceSelection, type ListSelection, type SelectionAction } from './list-selection';

// Lines 0 and 5 are batch headers (no id); the rest are rows r1…
const idAt = (i: number) => (i === 0 || i === 5 ? undefined : `r${i}`);
const run = (actions: SelectionAction[], start: ListSelection = emptySelection) => actions.reduce((s, a) => reduceSelection(s, a, 10, idAt), start);
const ids = (s: ListSelection) => [...s.selected].sort();

describe('list selection', () => {
  it('selects one on click, toggles with Ctrl and extends with Shift (skipping headers)', () => {
    const s = run([
      { type: 'click', index: 2, shift: false, toggle: false },
      { type: 'click', index: 7, shift: true, toggle: false },
    ]);
    expect(ids(s)).toEqual(['r2', 'r3', 'r4', 'r6', 'r7']);
    const t = run([{ type: 'click', index: 3, shift: false, toggle: true }], s);
    expect(ids(t)).toEqual(['r2', 'r4', 'r6', 'r7']);
  });

  it('moves the focus with arrows, extends with Shift+arrows and toggles with Space', () => {
    const s = run([
      { type: 'move', delta: 1, shift: false },
      { type: 'move', delta: 1, shift: false },
      { type: 'space' },
      { type: 'move', delta: 1, shift: true },
      { type: 'move', delta: 1, shift: true },
    ]);
    expect(s.focus).toBe(3);
    expect(ids(s)).toEqual(['r1', 'r2', 'r3']);
    const end = run([{ type: 'end', shift: false }, { type: 'move', delta: 5, shift: false }], s);
    expect(end.focus).toBe(9);
    expect(ids(run([{ type: 'clear' }], s))).toEqual([]);
  });

  it('maps keys to actions', () => {
    expect(keyToAction('ArrowDown', true, 10)).toEqual({ type: 'move', delta: 1, shift: true });
    expect(keyToAction('PageUp', false, 10)).toEqual({ type: 'move', delta: -10, shift: false });
    expect(keyToAction(' ', false, 10)).toEqual({ type: 'space' });
    expect(keyToAction('a', false, 10)).toBeNull();
  });
});
