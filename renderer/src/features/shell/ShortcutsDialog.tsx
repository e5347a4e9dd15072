import { useEffect, useId, useRef } from 'react';
import { ACTION_SHORTCUTS, SCREEN_SHORTCUTS, acceleratorLabel } from '../../../../shared/app-shortcuts';
import { Button } from '../../components/Button';

/** Keys that work everywhere in the app, besides the shortcuts of the shared list. */
const EVERYWHERE = [
  { keys: 'Tab / Shift+Tab', what: 'Move between controls; the first Tab offers "Skip to content"' },
  { keys: '↑ ↓ Home End', what: 'Move in the sidebar and in lists' },
  { keys: 'Enter', what: 'Open the selected row' },
  { keys: 'Escape', what: 'Close a pane, a form (asks first when something changed) or a dialog' },
  { keys: '?', what: 'This list' },
];

/** The help overlay of keyboard shortcuts (Ctrl+/ or ?; Help → Keyboard shortcuts in the Electron menu). */
export const ShortcutsDialog = ({ open, mac, onClose }: { open: boolean; mac: boolean; onClose: () => void }) => {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);
  const row = (keys: string, what: string) => (
    <tr key={keys + what}>
      <th scope="row">
        <kbd>{keys}</kbd>
      </th>
      <td>{what}</td>
    </tr>
  );
  return (
    <dialog
      ref={ref}
      className="dialog dialog-wide"
      aria-labelledby={titleId}
      data-testid="shortcuts-dialog"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="dialog-title">
        Keyboard shortcuts
      </h2>
      <div className="dialog-body shortcuts-body">
        <table className="shortcuts-table">
          <caption>Actions</caption>
          <tbody>{ACTION_SHORTCUTS.map((a) => row(acceleratorLabel(a.accelerator, mac), a.label))}</tbody>
        </table>
        <table className="shortcuts-table">
          <caption>Screens</caption>
          <tbody>{SCREEN_SHORTCUTS.map((s) => row(acceleratorLabel(`CmdOrCtrl+${s.digit}`, mac), s.label))}</tbody>
        </table>
        <table className="shortcuts-table">
          <caption>Everywhere</caption>
          <tbody>{EVERYWHERE.map((e) => row(e.keys, e.what))}</tbody>
        </table>
      </div>
      <div className="dialog-actions">
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      </div>
    </dialog>
  );
};
