import { useEffect, useState } from 'react';

/**
 * False on the first render, true once that render has been painted: a view mounts its heavy part (a long
 * list that measures itself, forcing a layout) in a task of its own after the rest is on screen, so
 * switching to the view is two short tasks instead of one long one (issue 27: Upload → Transfers).
 * A frame's callback runs before its paint; a timer set there runs after it.
 */
export const useAfterPaint = (): boolean => {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return painted;
};
