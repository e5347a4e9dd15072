import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';

export interface DiscardQuestion {
  /** Throws the input away — at once when nothing is typed, after "Discard your changes?" when something is. */
  readonly ask: () => void;
  /** The question: render it beside (not inside) the form's own dialog, so its Escape stays its own. */
  readonly question: ReactNode;
}

/**
 * The one question before input typed in place is thrown away by closing what holds it (a form's Cancel
 * button or Escape, a dialog's Cancel, a settings pane's Close): "Discard your changes?" — Cancel (focused
 * first, and Escape) keeps everything and the focus where it was; "Discard changes" runs `discard`.
 * Leaving the screen instead asks through the navigation guard (`useUnsavedChanges`, features/shell/LeaveGuard).
 */
export const useDiscardQuestion = (dirty: boolean, discard: () => void): DiscardQuestion => {
  const [asking, setAsking] = useState(false);
  // Where the focus was when the question came: "Cancel" returns there.
  const editing = useRef<HTMLElement | null>(null);
  // "Discard changes" runs `discard` only once the question is closed: closing a modal <dialog> gives the
  // focus back to where it came from, which would undo the screen giving it to the opener.
  const discarding = useRef(false);
  useEffect(() => {
    if (asking || !discarding.current) return;
    discarding.current = false;
    discard();
  }, [asking, discard]);
  const ask = () => {
    if (!dirty) return discard();
    editing.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setAsking(true);
  };
  const question = (
    <ConfirmDialog
      open={asking}
      title="Discard your changes?"
      confirmLabel="Discard changes"
      tone="danger"
      onCancel={() => {
        setAsking(false);
        editing.current?.focus();
      }}
      onConfirm={() => {
        discarding.current = true;
        setAsking(false);
      }}
    >
      What you typed here is not saved. Cancel keeps it as it is.
    </ConfirmDialog>
  );
  return { ask, question };
};
