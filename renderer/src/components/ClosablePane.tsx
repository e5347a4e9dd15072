import { useEffect, useRef, type ReactNode } from 'react';

export interface ClosablePaneProps {
  /** Closes the pane (what its Close button does); the screen returns the focus to the opener. */
  readonly onClose: () => void;
  /** Names the pane for screen readers (its heading's text). */
  readonly label: string;
  readonly children: ReactNode;
  readonly 'data-testid'?: string;
}

/**
 * A right-hand pane that shows something rather than edits it (a connection test, a report). It takes the
 * focus when it opens, so a keyboard user lands in it, and Escape closes it at once — there is nothing
 * typed to lose (forms use InlineForm, which asks first).
 */
export const ClosablePane = ({ onClose, label, children, ...rest }: ClosablePaneProps) => {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div
      ref={ref}
      className="template-detail closable-pane"
      role="region"
      aria-label={label}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || e.defaultPrevented || e.nativeEvent.isComposing) return;
        e.preventDefault();
        onClose();
      }}
      {...rest}
    >
      {children}
    </div>
  );
};
