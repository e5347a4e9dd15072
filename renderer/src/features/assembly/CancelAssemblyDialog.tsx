import { ConfirmDialog } from '../../components/ConfirmDialog';

export interface CancelAssemblyDialogProps {
  readonly open: boolean;
  /** What becomes of the files: for this app's run, its own count of what is up; else in general. */
  readonly uploads: string;
  readonly onCancel: () => void;
  readonly onConfirm: () => void;
}

/** "Cancel this Assembly?" — the same question wherever an Assembly can be canceled (its run, its detail). */
export const CancelAssemblyDialog = ({ open, uploads, onCancel, onConfirm }: CancelAssemblyDialogProps) => (
  <ConfirmDialog open={open} title="Cancel this Assembly?" confirmLabel="Stop the Assembly" tone="danger" onCancel={onCancel} onConfirm={onConfirm}>
    <ul className="dialog-list" data-testid="cancel-consequences">
      <li>{uploads}</li>
      <li>Processing stops: steps that have not finished produce no results, and results so far stay as they are.</li>
      <li>A canceled Assembly cannot be resumed; to run its files again, replay it or start a new upload.</li>
    </ul>
  </ConfirmDialog>
);
