import type { DesktopNotice, TransferIndicator } from '../../../shared/ipc/desktop-models';
import type { BatchState, TransferBatch, TransferChanges, TransferTotals, Transfer } from '../../../shared/ipc/transfer-models';

/** What the signals remember between two `transfers:changed`: the last state of each transfer and batch. */
export interface SignalState {
  readonly transfers: ReadonlyMap<string, { readonly state: Transfer['state']; readonly label: string; readonly filesTotal: number }>;
  readonly batches: ReadonlyMap<string, { readonly state: BatchState; readonly transferId: string; readonly runId: string | null; readonly assemblyId: string | null; readonly filesTotal: number }>;
  /** Batches of each transfer that failed, for the summary when it ends. */
  readonly failedBatches: ReadonlyMap<string, number>;
}

export const initialSignalState = (): SignalState => ({ transfers: new Map(), batches: new Map(), failedBatches: new Map() });

const ENDED_BATCH: ReadonlySet<BatchState> = new Set(['completed', 'failed', 'canceled']);
const count = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/**
 * Where a notice about one batch opens: its Assembly's view (which says what failed and why), else its run
 * (`#/run/<id>` becomes the Assembly's view once it has one), else the batch in Transfers.
 */
const batchRoute = (b: { id: string; runId: string | null; assemblyId: string | null }): string =>
  b.assemblyId ? `#/assemblies/${encodeURIComponent(b.assemblyId)}` : b.runId ? `#/run/${encodeURIComponent(b.runId)}` : `#/transfers?batch=${encodeURIComponent(b.id)}`;

function batchFailed(b: TransferBatch, label: string): DesktopNotice {
  return {
    tag: `batch-failed-${b.id}`,
    title: `Assembly ${b.seq} of "${label}" failed`,
    body: b.error ? `${b.error.message} (${b.error.code})` : `${count(b.filesTotal, 'file')} in it; open it to see why.`,
    tone: 'danger',
    route: batchRoute(b),
  };
}

function transferEnded(t: Transfer, failedBatches: number, onlyBatch: { id: string; runId: string | null; assemblyId: string | null } | undefined): DesktopNotice {
  const failed = t.filesFailed > 0 || failedBatches > 0;
  const parts = [`${count(t.filesDone, 'file')} processed`];
  if (t.filesFailed > 0) parts.push(`${count(t.filesFailed, 'file')} failed`);
  if (failedBatches > 0) parts.push(`${count(failedBatches, 'Assembly')} failed`);
  return {
    tag: `transfer-ended-${t.id}`,
    title: failed ? `"${t.label}" finished with failures` : `"${t.label}" finished`,
    body: parts.join(' · '),
    tone: failed ? 'warning' : 'success',
    // A drop of one Assembly opens that Assembly; a bigger one opens Transfers.
    route: onlyBatch ? batchRoute(onlyBatch) : '#/transfers',
  };
}

/**
 * One step of the desktop signals (pure): the notices to raise for what just ended, and the indicator.
 * A batch's failure is told when it happens (a big drop runs for hours); the drop's end is told once, with a
 * summary. States seen for the first time (a restart restoring finished transfers) raise nothing.
 */
export function stepSignals(prev: SignalState, changes: Pick<TransferChanges, 'totals' | 'transfers' | 'batches'>): { state: SignalState; notices: DesktopNotice[]; indicator: TransferIndicator } {
  const transfers = new Map(prev.transfers);
  const batches = new Map(prev.batches);
  const failedBatches = new Map(prev.failedBatches);
  const notices: DesktopNotice[] = [];
  const before = new Map(changes.transfers.map((t) => [t.id, transfers.get(t.id)?.state]));
  for (const t of changes.transfers) transfers.set(t.id, { state: t.state, label: t.label, filesTotal: t.filesTotal });

  for (const b of changes.batches) {
    const was = batches.get(b.id);
    batches.set(b.id, { state: b.state, transferId: b.transferId, runId: b.runId, assemblyId: b.assemblyId, filesTotal: b.filesTotal });
    if (!was || ENDED_BATCH.has(was.state) || b.state !== 'failed') continue;
    failedBatches.set(b.transferId, (failedBatches.get(b.transferId) ?? 0) + 1);
    const owner = transfers.get(b.transferId);
    // With a single Assembly, the drop's own end says it (one notice, not two).
    if (b.seq > 1 || (owner?.filesTotal ?? 0) > b.filesTotal) notices.push(batchFailed(b, owner?.label ?? 'the upload'));
  }
  for (const t of changes.transfers) {
    const was = before.get(t.id);
    if (was === undefined || was === 'done' || was === 'canceled' || t.state !== 'done') continue;
    const own = [...batches].filter(([, b]) => b.transferId === t.id);
    const only = own.length === 1 && own[0]![1].filesTotal === t.filesTotal ? { id: own[0]![0], runId: own[0]![1].runId, assemblyId: own[0]![1].assemblyId } : undefined;
    notices.push(transferEnded(t, failedBatches.get(t.id) ?? 0, only));
    failedBatches.delete(t.id);
  }
  return { state: { transfers, batches, failedBatches }, notices, indicator: indicatorOf(changes.totals) };
}

/** The taskbar/dock progress: bytes of what is still queued or sending; nothing once the queue is idle. */
export function indicatorOf(totals: TransferTotals): TransferIndicator {
  const pending = totals.filesQueued + totals.filesActive;
  if (pending === 0) return { fraction: null, mode: 'normal', keepAwake: false };
  const paused = totals.paused || totals.waitingUntil !== null;
  // Of the work under way: finished drops of earlier would start the bar part-way before a byte left.
  const { bytesSent, bytesTotal } = totals.current;
  const fraction = bytesTotal > 0 ? Math.min(1, bytesSent / bytesTotal) : 0;
  return { fraction, mode: paused ? 'paused' : 'normal', keepAwake: !totals.paused };
}
