import type { TransferAction, TransferBatch, TransferRow, TransferScope } from '../../../../shared/ipc/transfer-models';
import { rowAt } from '../../lib/row-pages';
import { lineAt } from './transfer-layout';
import { batchActions, rowActions } from './TransferLines';
import type { TransferStoreState } from './transfer-store';

/**
 * What the keyboard acts on in the Transfers grid (one Tab stop; the lines' buttons are mouse-only):
 * the selected files, else the line with the focus — a batch header (the whole batch) or one file.
 */
export type KeyTarget =
  | { readonly kind: 'selection'; readonly ids: readonly string[]; readonly actions: readonly TransferAction[] }
  | { readonly kind: 'batch'; readonly batch: TransferBatch; readonly actions: readonly TransferAction[] }
  | { readonly kind: 'file'; readonly row: TransferRow; readonly actions: readonly TransferAction[] };

/** A selection mixes states: every action is offered, and core skips files it does not apply to. */
const SELECTION_ACTIONS: readonly TransferAction[] = ['pause', 'resume', 'retry', 'cancel'];

/** The batch or the file shown on a line of the list (a header of files not in a batch yet has none). */
export const itemsAt = (state: Pick<TransferStoreState, 'layout' | 'cache' | 'batches'>, line: number | null): { batch?: TransferBatch; row?: TransferRow } => {
  if (line === null || line >= state.layout.count) return {};
  const at = lineAt(state.layout, line);
  if (at.kind === 'header') {
    const batch = at.group.batchId ? state.batches.get(at.group.batchId) : undefined;
    return batch ? { batch } : {};
  }
  const row = rowAt(state.cache, at.offset);
  return row ? { row } : {};
};

export const keyTarget = (selectedIds: readonly string[], focused: { batch?: TransferBatch | undefined; row?: TransferRow | undefined }): KeyTarget | null => {
  if (selectedIds.length > 0) return { kind: 'selection', ids: selectedIds, actions: SELECTION_ACTIONS };
  if (focused.batch) return { kind: 'batch', batch: focused.batch, actions: batchActions(focused.batch) };
  if (focused.row) return { kind: 'file', row: focused.row, actions: rowActions(focused.row.state) };
  return null;
};

export const scopeOf = (target: KeyTarget): TransferScope =>
  target.kind === 'selection' ? { kind: 'files', ids: [...target.ids] } : target.kind === 'batch' ? { kind: 'batch', id: target.batch.id } : { kind: 'files', ids: [target.row.id] };

/** How the target is named in the bar and in the cancel question. */
export const targetName = (target: KeyTarget): string =>
  target.kind === 'selection'
    ? `${target.ids.length.toLocaleString('en-US')} selected file${target.ids.length === 1 ? '' : 's'}`
    : target.kind === 'batch'
      ? `Assembly ${target.batch.seq} · ${target.batch.label}`
      : target.row.relativePath;

/** What a cancel is asked about: a key target, or every transfer (the toolbar's Cancel all). */
export type CancelTarget = KeyTarget | { readonly kind: 'all' };

export interface CancelQuestion {
  readonly title: string;
  readonly confirmLabel: string;
  readonly body: string;
  readonly scope: TransferScope;
}

/** The one question before a cancel (Delete, the bar's Cancel, Cancel all): what it cancels and what is kept. */
export const cancelQuestion = (target: CancelTarget): CancelQuestion => {
  if (target.kind === 'all') {
    return { title: 'Cancel every transfer?', confirmLabel: 'Cancel all', body: 'Files not yet sent stay on your disk; their Assemblies are canceled. Files already done are kept.', scope: { kind: 'all' } };
  }
  const kept = 'Files already done are kept. Retry brings canceled files back.';
  return target.kind === 'batch'
    ? { title: `Cancel the batch ${targetName(target)}?`, confirmLabel: 'Cancel batch', body: `Its files not yet sent stay on your disk and its Assembly is canceled. ${kept}`, scope: scopeOf(target) }
    : { title: `Cancel ${targetName(target)}?`, confirmLabel: target.kind === 'file' ? 'Cancel file' : 'Cancel files', body: `Files not yet sent stay on your disk. ${kept}`, scope: scopeOf(target) };
};

/**
 * The action a key asks for: P pauses, R resumes (or retries what failed or was canceled), Delete or
 * Backspace cancels (after a confirmation). Null when the key is no shortcut or the action does not apply
 * to the target (P on a finished batch does nothing).
 */
export const shortcutFor = (key: string, actions: readonly TransferAction[]): TransferAction | null => {
  const k = key.length === 1 ? key.toLowerCase() : key;
  const pick = (...wanted: TransferAction[]) => wanted.find((a) => actions.includes(a)) ?? null;
  switch (k) {
    case 'p':
      return pick('pause');
    case 'r':
      return pick('resume', 'retry');
    case 'Delete':
    case 'Backspace':
      return pick('cancel');
    default:
      return null;
  }
};
