import { elementScroll, observeElementOffset, Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';
import { useLayoutEffect, useReducer, useRef, useState } from 'react';

type ListOptions = Omit<VirtualizerOptions<HTMLDivElement, Element>, 'onChange' | 'scrollToFn' | 'observeElementOffset'>;

/** What a render of the list shows: the rendered rows and whether it is scrolling. */
const renderedKey = (v: Virtualizer<HTMLDivElement, Element>): string => {
  const indexes = v.getVirtualIndexes();
  return `${String(indexes[0] ?? -1)}:${String(indexes.at(-1) ?? -1)}:${String(indexes.length)}:${String(v.isScrolling)}`;
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
  const rendered = useRef('');
  const heard = useRef(onScrolled);
  heard.current = onScrolled;
  const resolved: VirtualizerOptions<HTMLDivElement, Element> = {
    ...options,
    scrollToFn: elementScroll,
    observeElementOffset,
    onChange: (instance) => {
      // Not flushSync in the scroll event (as the library does): React renders in a task of its own, so a
      // frame that adds a chunk of rows is two short tasks rather than one long one. The chunk's slack and
      // the overscan keep rows ahead of the viewport until then.
      if (renderedKey(instance) !== rendered.current) rerender();
      heard.current?.(instance);
    },
  };
  const [instance] = useState(() => new Virtualizer(resolved));
  instance.setOptions(resolved);
  useLayoutEffect(() => instance._didMount(), [instance]);
  // What this render showed, before _willUpdate may notify a change against it.
  useLayoutEffect(() => {
    rendered.current = renderedKey(instance);
  });
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}
