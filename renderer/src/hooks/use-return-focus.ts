import { useMemo, useRef } from 'react';

/**
 * Remembers the button that opened a pane and gives it the focus back when the pane closes, so a
 * keyboard user continues from where they were instead of from the top of the page.
 */
export const useReturnFocus = (): { readonly from: (target: EventTarget | null) => void; readonly restore: () => void } => {
  const opener = useRef<HTMLElement | null>(null);
  return useMemo(
    () => ({
      from: (target) => {
        opener.current = target instanceof HTMLElement ? target : null;
      },
      restore: () => {
        const el = opener.current;
        opener.current = null;
        if (el?.isConnected) el.focus();
      },
    }),
    [],
  );
};
