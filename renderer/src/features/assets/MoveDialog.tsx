import { useEffect, useId, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useDiscardQuestion } from '../../components/DiscardQuestion';
import { useUnsavedChanges } from '../../state/navigation-store';
import { normalizeFolderInput } from './asset-rows';

interface Props {
  readonly open: boolean;
  /** "3 assets and 1 folder". */
  readonly what: string;
  /** The folder shown now: where the path starts. */
  readonly current: string;
  /** Folders the page knows (suggestions). */
  readonly known: readonly string[];
  readonly busy: boolean;
  readonly onMove: (destination: string) => void;
  readonly onCancel: () => void;
}

/**
 * "Move to…": a folder path typed (with the known folders as suggestions); empty = the root. A path typed
 * and not moved to is asked about before Cancel, Escape or leaving the screen throws it away.
 */
export const MoveDialog = ({ open, what, current, known, busy, onMove, onCancel }: Props) => {
  const [value, setValue] = useState(current);
  const listId = useId();
  useEffect(() => {
    if (open) setValue(current);
  }, [open, current]);
  const destination = normalizeFolderInput(value);
  const typed = open && value !== current;
  useUnsavedChanges(typed, 'the destination folder typed for the move');
  const { ask, question } = useDiscardQuestion(typed, onCancel);
  return (
    <>
      <ConfirmDialog
        open={open}
        title={`Move ${what}`}
        confirmLabel="Move"
        busy={busy}
        onConfirm={() => destination !== null && onMove(destination)}
        onCancel={ask}
      >
        <label className="form-field">
          <span className="field-label">Destination folder</span>
          <input
            className="input mono"
            value={value}
            list={listId}
            placeholder="photos/2026 (empty: the top level)"
            aria-label="Destination folder"
            aria-invalid={destination === null}
            onChange={(e) => setValue(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && destination !== null) {
                e.preventDefault();
                onMove(destination);
              }
            }}
          />
          <datalist id={listId}>
            {known.map((f) => (
              <option key={f} value={f} />
            ))}
          </datalist>
        </label>
        {destination === null ? (
          <p className="field-error small" role="alert">
            A folder path cannot contain . or .. parts.
          </p>
        ) : (
          <p className="muted small" data-testid="move-destination">
            To {destination === '' ? 'the top level' : destination}. Folders move with everything in them; names already taken there are refused.
          </p>
        )}
      </ConfirmDialog>
      {question}
    </>
  );
};
