/**
 * Multi-select in a long list, as in a file manager: click selects one, Ctrl/Cmd toggles, Shift extends
 * from the anchor; arrows move the focus (Shift+arrows extend), Space toggles the focused row. Indexes
 * are positions in the list; `idAt` names the row there (undefined for a header or a row not loaded).
 */

export interface ListSelection {
  readonly selected: ReadonlySet<string>;
  readonly anchor: number | null;
  readonly focus: number | null;
}

export const emptySelection: ListSelection = { selected: new Set(), anchor: null, focus: null };

export type SelectionAction =
  | { readonly type: 'click'; readonly index: number; readonly shift: boolean; readonly toggle: boolean }
  | { readonly type: 'move'; readonly delta: number; readonly shift: boolean }
  | { readonly type: 'home' | 'end'; readonly shift: boolean }
  | { readonly type: 'space' }
  | { readonly type: 'clear' };

const rangeIds = (from: number, to: number, idAt: (i: number) => string | undefined): Set<string> => {
  const ids = new Set<string>();
  const [a, b] = from <= to ? [from, to] : [to, from];
  for (let i = a; i <= b; i += 1) {
    const id = idAt(i);
    if (id !== undefined) ids.add(id);
  }
  return ids;
};

/** Largest range Shift can select row by row (beyond it, use a filter and the bulk actions). */
export const MAX_RANGE = 5_000;

const extend = (state: ListSelection, to: number, idAt: (i: number) => string | undefined): ListSelection => {
  const anchor = state.anchor ?? to;
  const from = Math.abs(to - anchor) > MAX_RANGE ? to - Math.sign(to - anchor) * MAX_RANGE : anchor;
  return { selected: rangeIds(from, to, idAt), anchor, focus: to };
};

export const reduceSelection = (state: ListSelection, action: SelectionAction, count: number, idAt: (i: number) => string | undefined): ListSelection => {
  if (count === 0) return emptySelection;
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  switch (action.type) {
    case 'clear':
      return emptySelection;
    case 'click': {
      const index = clamp(action.index);
      const id = idAt(index);
      if (action.shift && state.anchor !== null) return extend(state, index, idAt);
      if (action.toggle) {
        const selected = new Set(state.selected);
        if (id !== undefined) {
          if (selected.has(id)) selected.delete(id);
          else selected.add(id);
        }
        return { selected, anchor: index, focus: index };
      }
      return { selected: id === undefined ? new Set() : new Set([id]), anchor: index, focus: index };
    }
    case 'move':
    case 'home':
    case 'end': {
      let to: number;
      if (action.type === 'home') to = 0;
      else if (action.type === 'end') to = count - 1;
      else {
        const delta = 'delta' in action ? action.delta : 0;
        to = state.focus === null ? (delta > 0 ? 0 : count - 1) : clamp(state.focus + delta);
      }
      if (action.shift) return extend(state, to, idAt);
      return { selected: state.selected, anchor: to, focus: to };
    }
    case 'space': {
      if (state.focus === null) return state;
      const id = idAt(state.focus);
      if (id === undefined) return state;
      const selected = new Set(state.selected);
      if (selected.has(id)) selected.delete(id);
      else selected.add(id);
      return { ...state, selected, anchor: state.focus };
    }
  }
};

/** Map a key press to an action; null when the list does not handle the key. */
export const keyToAction = (key: string, shift: boolean, pageRows: number): SelectionAction | null => {
  switch (key) {
    case 'ArrowDown':
      return { type: 'move', delta: 1, shift };
    case 'ArrowUp':
      return { type: 'move', delta: -1, shift };
    case 'PageDown':
      return { type: 'move', delta: pageRows, shift };
    case 'PageUp':
      return { type: 'move', delta: -pageRows, shift };
    case 'Home':
      return { type: 'home', shift };
    case 'End':
      return { type: 'end', shift };
    case ' ':
      return { type: 'space' };
    case 'Escape':
      return { type: 'clear' };
    default:
      return null;
  }
};
