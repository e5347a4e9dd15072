import { createContext, useContext, useEffect, useRef, type FormHTMLAttributes, type ReactNode } from 'react';
import { useUnsavedChanges } from '../state/navigation-store';
import { Button } from './Button';
import { useDiscardQuestion } from './DiscardQuestion';

export interface InlineFormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onKeyDown'> {
  /** Something changed since the form opened: Escape and Cancel ask before throwing it away. */
  readonly dirty: boolean;
  /** Closes the form without saving (once the user agreed to lose what changed). */
  readonly onCancel: () => void;
  readonly children: ReactNode;
}

const FIRST_FIELD = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])';

/** The enclosing InlineForm's way out: asks first when something changed. */
const CancelContext = createContext<() => void>(() => undefined);

/**
 * A form that opens in place (the right-hand pane of an admin screen). It takes the focus when it opens,
 * and Escape closes it like its Cancel button (`InlineFormCancel`) — at once when nothing changed, after a
 * "Discard your changes?" confirmation when something did (a stray Escape or Cancel must not lose a typed
 * secret or a long form). The screen gives the focus back to the button that opened it (`useReturnFocus`).
 * Leaving the screen while it is changed asks too (the navigation guard, state/navigation-store.ts).
 */
export const InlineForm = ({ dirty, onCancel, children, ...form }: InlineFormProps) => {
  useUnsavedChanges(dirty, form['aria-label'] ? `the form “${form['aria-label']}”` : 'this form');
  const ref = useRef<HTMLFormElement>(null);
  const { ask, question } = useDiscardQuestion(dirty, onCancel);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
  }, []);

  return (
    <>
      <form
        ref={ref}
        {...form}
        onKeyDown={(e) => {
          if (e.key !== 'Escape' || e.defaultPrevented || e.nativeEvent.isComposing) return;
          e.preventDefault();
          ask();
        }}
      >
        <CancelContext.Provider value={ask}>{children}</CancelContext.Provider>
      </form>
      {question}
    </>
  );
};

/** An InlineForm's Cancel button: the same way out as Escape, asking first when something changed. */
export const InlineFormCancel = () => {
  const cancel = useContext(CancelContext);
  return <Button onClick={cancel}>Cancel</Button>;
};
