import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './Button';

export interface ConfirmDialogProps {
  readonly open: boolean;
  readonly title: string;
  readonly children: ReactNode;
  readonly confirmLabel: string;
  /** The button that dismisses (default "Cancel"; a dialog about canceling says "Keep sending"). */
  readonly cancelLabel?: string;
  readonly tone?: 'primary' | 'danger';
  readonly busy?: boolean;
  readonly wide?: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/**
 * A modal <dialog>: the browser traps focus and closes it on Escape. Cancel has focus first, so Enter
 * never confirms a destructive action by accident.
 */
export const ConfirmDialog = ({ open, title, children, confirmLabel, cancelLabel = 'Cancel', tone = 'primary', busy = false, wide = false, onConfirm, onCancel }: ConfirmDialogProps) => {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // A screen keeps several closed dialogs in the DOM: each title needs its own id.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog${wide ? ' dialog-wide' : ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="dialog-title">
        {title}
      </h2>
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        <Button ref={cancelRef} onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button variant={tone} busy={busy} disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
};
