import { describe, expect, it } from 'vitest';
import type { DesktopNotice } from '../../../shared/ipc/desktop-models';
import { currentFromTotals, type Transfer, type TransferTotals } from '../../../shared/ipc/transfer-models';
import { createCoreEvents } from '../events';
import { startDesktopSignals } from './desktop-signals';

const base = {
  filesTotal: 1, filesQueued: 0, filesActive: 0, filesDone: 1, filesFailed: 0, filesCanceled: 0, filesSkipped: 0,
  bytesTotal: 10, bytesSent: 10, speedBps: 0, etaSeconds: null, paused: false, waitingUntil: null, effectiveConcurrency: 4,
};
const totals: TransferTotals = { ...base, current: currentFromTotals(base) };
const transfer = (id: string, state: Transfer['state']): Transfer => ({ id, workspaceId: 'local', createdAt: '2026-11-25T10:00:00Z', label: id, scanning: false, state, recipe: null, batchCount: 1, filesTotal: 1, filesDone: state === 'done' ? 1 : 0, filesFailed: 0, bytesTotal: 10, bytesSent: 10 });

describe('desktop signals', () => {
  it("stays quiet about transfers another part announces (a watch folder's files), and still tells the rest", () => {
    const events = createCoreEvents();
    const notified: DesktopNotice[] = [];
    const stop = startDesktopSignals(events, { notify: (n) => void notified.push(n) }, (id) => id === 'watched');
    for (const state of ['active', 'done'] as const) events.emit('transfers:changed', { totals, transfers: [transfer('watched', state), transfer('dropped', state)], batches: [], rows: [], rowsTruncated: false });
    stop();
    expect(notified.map((n) => n.title)).toEqual(['"dropped" finished']);
  });
});
