import type { TransferAction, TransferBatch } from '../../../../shared/ipc/transfer-models';
import { Button } from '../../components/Button';
import { formatCount } from '../../lib/format';
import type { ListSelection } from '../../lib/list-selection';
import { itemsAt, keyTarget, scopeOf, targetName, type KeyTarget } from './key-target';
import type { Control } from './TransferLines';
import { useTransfers } from './transfer-store';
import './transfers-keys.css';

const WORD: Record<TransferAction, string> = { pause: 'Pause', resume: 'Resume', retry: 'Retry', cancel: 'Cancel' };

export interface SelectionBarProps {
  readonly selection: ListSelection;
  readonly onControl: Control;
  /** Cancel on a batch or one file asks first (the caller shows the question). */
  readonly onAskCancel: (target: KeyTarget) => void;
  readonly onClear: () => void;
  readonly onOpenRun: (runId: string) => void;
  /** "Save results to folder…" / "Export manifest…" of a batch whose Assembly ended (TransfersView shows the dialogs). */
  readonly onResults?: (batch: TransferBatch, what: 'save' | 'manifest') => void;
}

/** The keys of the list, shown under the bar and read with the grid (`aria-describedby`). */
export const TRANSFER_KEYS_ID = 'transfer-keys';
export const TRANSFER_SHORTCUTS = 'P R Delete Backspace Enter';

/**
 * What the keyboard can act on, above the list: the selected files, else the batch or the file whose line
 * has the focus, with its actions as real buttons (Shift+Tab from the list reaches them). The lines' own
 * buttons are for the mouse; this bar and the keys listed under it are the keyboard's way to them.
 */
export const SelectionBar = ({ selection, onControl, onAskCancel, onClear, onOpenRun, onResults }: SelectionBarProps) => {
  // Two selectors returning store objects: the bar renders again only when the focused line's item changes.
  const batch = useTransfers((s) => itemsAt(s, selection.focus).batch);
  const row = useTransfers((s) => itemsAt(s, selection.focus).row);
  const target = keyTarget([...selection.selected], { batch, row });
  const act = (t: KeyTarget, action: TransferAction) => (action === 'cancel' && t.kind !== 'selection' ? onAskCancel(t) : onControl(action, scopeOf(t)));

  return (
    <div className="tx-selection" data-testid="transfer-target">
      <span className="num" aria-live="polite">
        {target?.kind === 'selection' ? `${formatCount(target.ids.length, 'file')} selected` : ''}
      </span>
      {target?.kind === 'selection' && (
        <>
          {target.actions.map((action) => (
            <Button key={action} size="sm" variant={action === 'cancel' ? 'danger' : 'secondary'} onClick={() => act(target, action)}>
              {WORD[action]}
            </Button>
          ))}
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
        </>
      )}
      {target && target.kind !== 'selection' && (
        <>
          <span className="tx-target-name" title={targetName(target)}>
            {targetName(target)}
          </span>
          {target.actions.map((action) => (
            <Button key={action} size="sm" variant={action === 'cancel' ? 'danger' : 'secondary'} onClick={() => act(target, action)}>
              {`${WORD[action]} ${target.kind === 'batch' ? 'batch' : 'file'}${action === 'cancel' ? '…' : ''}`}
            </Button>
          ))}
          {target.kind === 'batch' && target.batch.runId && (
            <Button size="sm" variant="ghost" onClick={() => onOpenRun(target.batch.runId as string)}>
              Open the Assembly
            </Button>
          )}
          {target.kind === 'batch' && target.batch.runId && onResults && ['completed', 'failed'].includes(target.batch.state) && (
            <>
              <Button size="sm" onClick={() => onResults(target.batch, 'save')}>
                Save results to folder…
              </Button>
              <Button size="sm" onClick={() => onResults(target.batch, 'manifest')}>
                Export manifest…
              </Button>
            </>
          )}
        </>
      )}
      {!target && <span className="muted small">Click, Shift-click or use the arrow keys and Space to select files.</span>}
      <span className="muted small tx-keys" id={TRANSFER_KEYS_ID}>
        Keys: <kbd>P</kbd> pause · <kbd>R</kbd> resume or retry · <kbd>Delete</kbd> cancel · <kbd>Enter</kbd> open the Assembly
      </span>
    </div>
  );
};
