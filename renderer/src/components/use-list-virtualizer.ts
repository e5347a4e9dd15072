import { elementScroll, observeElementOffset, Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';
import { useLayoutEffect, useReducer, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

type ListOptions = Omit<VirtualizerOptions<HTMLDivElement, Element>, 'onChange' | 'scrollToFn' | 'observeElementOffset'>;

interface Shown {
  /** The rendered rows and whether it is scrolling: what a render of the list shows. */
  readonly key: string;
  readonly first: number;
  readonly last: number;
}

const shown = (v: Virtualizer<HTMLDivElement, Element>): Shown => {
  const indexes = v.getVirtualIndexes();
  const first = indexes[0] ?? -1;
  const last = indexes.at(-1) ?? -1;
  return { key: `${String(first)}:${String(last)}:${String(indexes.length)}:${String(v.isScrolling)}`, first, last };
};

/**
 * @tanstack/react-virtual's `useVirtualizer`, but it re-renders only when the rows to render (or
 * `isScrolling`) change. The library re-renders — synchronously, inside the scroll event — whenever the
 * first or last row in view changes, i.e. once per row scrolled; with rows rendered in whole chunks that
 * render changes nothing, and it was most of a scroll frame's JavaScript (bench:activity-scale).
 * `onScrolled` hears every change of what is in view (for paging) without a render.
 */
export function useListVirtualizer(options: ListOptions, onScrolled?: (v: Virtualizer<HTMLDivElement, Element>) => void): Virtualizer<HTMLDivElement, Element> {
  const rerender = useReducer((x: number) => x + 1, 0)[1];
  const rendered = useRef<Shown>({ key: '', first: -1, last: -1 });
  const heard = useRef(onScrolled);
  heard.current = onScrolled;
  const attached = useRef<Element | null>(null);
  const resolved: VirtualizerOptions<HTMLDivElement, Element> = {
    ...options,
    scrollToFn: (offset, how, instance) => {
      const first = attached.current !== instance.scrollElement;
      attached.current = instance.scrollElement;
      // On attaching to its element the library writes the initial offset, 0: a new element is at 0 already,
      // and the write would force a layout of the page inside React's commit (issue 27: the list's mount).
      if (first && offset === 0 && !how.adjustments && how.behavior !== 'smooth') return;
      elementScroll(offset, how, instance);
    },
    observeElementOffset,
    onChange: (instance, sync) => {
      const before = rendered.current;
      if (shown(instance).key !== before.key) {
        // While the rows already rendered still cover the view (a chunk's slack, the overscan), React renders
        // in a task of its own: a frame that adds a chunk is then two short tasks, not one long one. When they
        // do not (a jump: a dragged scrollbar, a key), it renders in the scroll event, as the library does, so
        // the frame that shows the new place shows its rows.
        const range = instance.range;
        const covered = range !== null && before.first <= range.startIndex && before.last >= range.endIndex;
        if (sync && !covered) flushSync(rerender);
        else rerender();
      }
      heard.current?.(instance);
    },
  };
  const [instance] = useState(() => new Virtualizer(resolved));
  instance.setOptions(resolved);
  useLayoutEffect(() => instance._didMount(), [instance]);
  // What this render showed, before _willUpdate may notify a change against it.
  useLayoutEffect(() => {
    rendered.current = shown(instance);
  });
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}
