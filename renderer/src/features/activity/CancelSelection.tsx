import { useState } from 'react';
import type { CancelManyResult } from '../../../../shared/ipc/assembly-models';
import { toAppError, unwrap } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CloseIcon } from '../../components/Icons';
import { formatCount } from '../../lib/format';
import { useToasts } from '../../state/toast-store';

/** What a bulk cancel did, in one sentence, and whether anything was refused. Pure. */
export const cancelManySummary = ({ canceled, alreadyEnded, failed }: CancelManyResult): { text: string; refused: boolean } => {
  const parts = [`Canceled ${formatCount(canceled.length, 'Assembly', 'Assemblies')}`];
  if (alreadyEnded.length > 0) parts.push(`${alreadyEnded.length.toLocaleString('en-US')} had already ended and ${alreadyEnded.length === 1 ? 'was' : 'were'} left as ${alreadyEnded.length === 1 ? 'it was' : 'they were'}`);
  if (failed.length > 0) parts.push(`${failed.length.toLocaleString('en-US')} refused: ${failed[0]!.code} — ${failed[0]!.message}`);
  const text = parts.join('; ');
  return { text: /[.!?]$/.test(text) ? text : `${text}.`, refused: failed.length > 0 };
};

/**
 * "Cancel…" for Activity's selection: asks first, then core cancels each selected Assembly that still runs
 * (`assemblies:cancelMany`); ended ones are left as they are. `onDone` clears the selection.
 */
export const CancelSelection = ({ assemblyIds, onDone }: { assemblyIds: readonly string[]; onDone: () => void }) => {
  const bridge = useBridge();
  const toast = useToasts((s) => s.show);
  const [asking, setAsking] = useState(false);
  const [canceling, setCanceling] = useState(false);
  const n = assemblyIds.length;

  const cancel = async () => {
    setCanceling(true);
    try {
      const summary = cancelManySummary(unwrap(await bridge.invoke('assemblies:cancelMany', { assemblyIds: [...assemblyIds] })));
      toast(summary.text, summary.refused ? 'danger' : 'success');
      setAsking(false);
      onDone();
    } catch (error) {
      const e = toAppError(error);
      toast(`Could not cancel: ${e.code} — ${e.message}`, 'danger');
    } finally {
      setCanceling(false);
    }
  };

  return (
    <>
      <Button size="sm" variant="danger" icon={<CloseIcon />} onClick={() => setAsking(true)}>
        Cancel {n.toLocaleString('en-US')}…
      </Button>
      <ConfirmDialog
        open={asking}
        title={`Cancel ${formatCount(n, 'Assembly', 'Assemblies')}?`}
        confirmLabel="Stop the running ones"
        tone="danger"
        busy={canceling}
        onConfirm={() => void cancel()}
        onCancel={() => setAsking(false)}
      >
        <ul className="dialog-list" data-testid="cancel-selection-consequences">
          <li>Each selected Assembly that is still running stops: steps that have not finished produce no results, and files still on their way are refused.</li>
          <li>Those that have already ended are left as they are.</li>
          <li>A canceled Assembly cannot be resumed; to run its files again, replay it.</li>
        </ul>
      </ConfirmDialog>
    </>
  );
};
