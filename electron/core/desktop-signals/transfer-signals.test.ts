import { describe, expect, it } from 'vitest';
import { currentFromTotals, type Transfer, type TransferBatch, type TransferTotals } from '../../../shared/ipc/transfer-models';
import { indicatorOf, initialSignalState, stepSignals, type SignalState } from './transfer-signals';

const totals = (over: Partial<TransferTotals> = {}): TransferTotals => {
  const t = {
  filesTotal: 10, filesQueued: 0, filesActive: 0, filesDone: 10, filesFailed: 0, filesCanceled: 0, filesSkipped: 0,
  bytesTotal: 1000, bytesSent: 1000, speedBps: 0, etaSeconds: null, paused: false, waitingUntil: null, effectiveConcurrency: 4, ...over,
  };
  return { ...t, current: over.current ?? currentFromTotals(t) };
};
const transfer = (state: Transfer['state'], over: Partial<Transfer> = {}): Transfer => ({
  id: 't1', workspaceId: 'local', createdAt: '2026-11-25T10:00:00Z', label: 'photos', scanning: false, state, recipe: null, batchCount: 1,
  filesTotal: 10, filesDone: state === 'done' ? 10 : 4, filesFailed: 0, bytesTotal: 1000, bytesSent: 400, ...over,
});
const batch = (seq: number, state: TransferBatch['state'], over: Partial<TransferBatch> = {}): TransferBatch => ({
  id: `b${seq}`, transferId: 't1', label: 'photos', seq, state, runId: `run-${seq}`, assemblyId: `a${seq}`,
  filesTotal: 5, filesDone: 0, filesFailed: 0, bytesTotal: 500, bytesSent: 0, error: null, note: null, ...over,
});
const run = (steps: Array<{ transfers?: Transfer[]; batches?: TransferBatch[]; totals?: TransferTotals }>) => {
  let state: SignalState = initialSignalState();
  const all = [];
  for (const s of steps) {
    const out = stepSignals(state, { totals: s.totals ?? totals(), transfers: s.transfers ?? [], batches: s.batches ?? [] });
    state = out.state;
    all.push(...out.notices);
  }
  return all;
};

describe('desktop notices for transfers', () => {
  it('tells once when a drop of two Assemblies has ended, and opens Transfers', () => {
    const notices = run([
      { transfers: [transfer('active')], batches: [batch(1, 'uploading'), batch(2, 'queued')] },
      { batches: [batch(1, 'completed')] },
      { transfers: [transfer('done')], batches: [batch(2, 'completed')] },
      // Later changes of an ended drop (a row refreshed) say nothing again.
      { transfers: [transfer('done')] },
    ]);
    expect(notices).toEqual([{ tag: 'transfer-ended-t1', title: '"photos" finished', body: '10 files processed', tone: 'success', route: '#/transfers' }]);
  });

  it("tells a failed Assembly of a big drop when it fails, with the service's code, and sums up at the end", () => {
    const notices = run([
      { transfers: [transfer('active')], batches: [batch(1, 'processing'), batch(2, 'uploading')] },
      { batches: [batch(2, 'failed', { error: { code: 'FILE_FILTER_DECLINED_FILE', message: 'One file was declined.' } })] },
      { transfers: [transfer('done', { filesFailed: 1, filesDone: 9 })], batches: [batch(1, 'completed')] },
    ]);
    expect(notices.map((n) => [n.title, n.body, n.tone, n.route])).toEqual([
      ['Assembly 2 of "photos" failed', 'One file was declined. (FILE_FILTER_DECLINED_FILE)', 'danger', '#/assemblies/a2'],
      ['"photos" finished with failures', '9 files processed · 1 file failed · 1 Assembly failed', 'warning', '#/transfers'],
    ]);
  });

  it('a drop of one Assembly gets one notice, which opens that Assembly (its run before the Assembly exists)', () => {
    const notices = run([
      { transfers: [transfer('active', { filesTotal: 5 })], batches: [batch(1, 'processing')] },
      { transfers: [transfer('done', { filesTotal: 5, filesDone: 5 })], batches: [batch(1, 'failed', { error: { code: 'INTERNAL', message: 'x' } })] },
    ]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ title: '"photos" finished with failures', route: '#/assemblies/a1', tone: 'warning' });
    const uncreated = run([
      { transfers: [transfer('active', { filesTotal: 5 })], batches: [batch(1, 'creating', { assemblyId: null })] },
      { transfers: [transfer('done', { filesTotal: 5, filesDone: 0 })], batches: [batch(1, 'failed', { assemblyId: null, error: { code: 'INTERNAL', message: 'x' } })] },
    ]);
    expect(uncreated[0]).toMatchObject({ route: '#/run/run-1' });
  });

  it('what was already finished before (restored after a restart) raises nothing', () => {
    expect(run([{ transfers: [transfer('done')], batches: [batch(1, 'failed'), batch(2, 'completed')] }])).toEqual([]);
  });
});

describe('the taskbar indicator', () => {
  it('shows the bytes of what is queued or sending, paused when paused or told to wait, and nothing when idle', () => {
    expect(indicatorOf(totals())).toEqual({ fraction: null, mode: 'normal', keepAwake: false });
    expect(indicatorOf(totals({ filesActive: 2, bytesSent: 250 }))).toEqual({ fraction: 0.25, mode: 'normal', keepAwake: true });
    expect(indicatorOf(totals({ filesQueued: 2, bytesSent: 250, paused: true }))).toEqual({ fraction: 0.25, mode: 'paused', keepAwake: false });
    // Rate-limited: shown as waiting, but the machine stays awake to go on by itself.
    expect(indicatorOf(totals({ filesQueued: 2, bytesSent: 250, waitingUntil: '2026-11-25T10:00:30Z' }))).toEqual({ fraction: 0.25, mode: 'paused', keepAwake: true });
  });
});
