import { useEffect, useRef, useState, type FormHTMLAttributes, type ReactNode } from 'react';
import { useUnsavedChanges } from '../state/navigation-store';
import { ConfirmDialog } from './ConfirmDialog';

export interface InlineFormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onKeyDown'> {
  /** Something changed since the form opened: Escape asks before throwing it away. */
  readonly dirty: boolean;
  /** Closes the form without saving (what its Cancel button does). */
  readonly onCancel: () => void;
  readonly children: ReactNode;
}

const FIRST_FIELD = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])';

/**
 * A form that opens in place (the right-hand pane of an admin screen). It takes the focus when it opens,
 * and Escape closes it like its Cancel button — at once when nothing changed, after a "Discard your
 * changes?" confirmation when something did (a stray Escape must not lose a typed secret or a long
 * form). The screen gives the focus back to the button that opened it (`useReturnFocus`). Leaving the
 * screen while it is changed asks too (the navigation guard, state/navigation-store.ts).
 */
export const InlineForm = ({ dirty, onCancel, children, ...form }: InlineFormProps) => {
  useUnsavedChanges(dirty, form['aria-label'] ? `the form “${form['aria-label']}”` : 'this form');
  const ref = useRef<HTMLFormElement>(null);
  const [asking, setAsking] = useState(false);
  // Where the focus was when Escape asked: "keep editing" returns there.
  const editing = useRef<HTMLElement | null>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
  }, []);
  // "Discard changes" closes the form only once the question is closed: closing a modal <dialog> gives
  // the focus back to the field it came from, which would undo the screen giving it to the opener.
  const discarding = useRef(false);
  useEffect(() => {
    if (asking || !discarding.current) return;
    discarding.current = false;
    onCancel();
  }, [asking, onCancel]);

  return (
    <>
      <form
        ref={ref}
        {...form}
        onKeyDown={(e) => {
          if (e.key !== 'Escape' || e.defaultPrevented || e.nativeEvent.isComposing) return;
          e.preventDefault();
          if (!dirty) return onCancel();
          editing.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          setAsking(true);
        }}
      >
        {children}
      </form>
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
        What you changed in this form is not saved. Cancel keeps the form open as it is.
      </ConfirmDialog>
    </>
  );
};
