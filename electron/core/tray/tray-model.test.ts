import { describe, expect, it } from 'vitest';
import { currentFromTotals, type TransferTotals } from '../../../shared/ipc/transfer-models';
import { quitQuestionOf, trayViewOf, type TrayItem } from './tray-model';

const totals = (over: Partial<TransferTotals> = {}): TransferTotals => {
  const t = {
  filesTotal: 0,
  filesQueued: 0,
  filesActive: 0,
  filesDone: 0,
  filesFailed: 0,
  filesCanceled: 0,
  filesSkipped: 0,
  bytesTotal: 0,
  bytesSent: 0,
  speedBps: 0,
  etaSeconds: null,
  paused: false,
  waitingUntil: null,
  effectiveConcurrency: 4,
  ...over,
  };
  return { ...t, current: over.current ?? currentFromTotals(t) };
};
const sending = totals({ filesTotal: 10, filesQueued: 5, filesActive: 2, filesDone: 3, bytesTotal: 1_000, bytesSent: 459 });
const actions = (items: readonly TrayItem[]) => items.flatMap((i) => (i.kind === 'action' ? [`${i.label}${i.enabled ? '' : ' (disabled)'}`] : []));
const infos = (items: readonly TrayItem[]) => items.flatMap((i) => (i.kind === 'info' ? [i.label] : []));

describe('tray view', () => {
  it('says how far the queue is while sending, and offers Pause all', () => {
    const view = trayViewOf(sending);
    expect(view.tooltip).toBe('Assemblyline — Uploading 3 of 10 — 45%');
    expect(view.icon).toBe('active');
    expect(infos(view.items)).toEqual(['Uploading 3 of 10 — 45%', '7 files to send']);
    expect(actions(view.items)).toEqual(['Show Assemblyline', 'Pause all', 'Quit Assemblyline']);
  });

  it('shows paused with Resume all, and a rate-limit wait as paused without offering resume', () => {
    const paused = trayViewOf({ ...sending, paused: true });
    expect(paused.icon).toBe('paused');
    expect(paused.tooltip).toBe('Assemblyline — Paused 3 of 10 — 45%');
    expect(actions(paused.items)).toContain('Resume all');
    const waiting = trayViewOf({ ...sending, waitingUntil: '2026-01-01T00:00:00Z' });
    expect(waiting.icon).toBe('paused');
    expect(waiting.tooltip).toContain('Waiting for the service');
    expect(actions(waiting.items)).toContain('Pause all');
  });

  it('is idle with nothing to pause when the queue is empty, and red once files failed', () => {
    const idle = trayViewOf(totals());
    expect(idle).toMatchObject({ icon: 'idle', tooltip: 'Assemblyline — No transfers running' });
    expect(actions(idle.items)).toEqual(['Show Assemblyline', 'Pause all (disabled)', 'Quit Assemblyline']);
    const failed = trayViewOf(totals({ filesTotal: 4, filesDone: 3, filesFailed: 1, bytesTotal: 10, bytesSent: 10 }));
    expect(failed).toMatchObject({ icon: 'error', tooltip: 'Assemblyline — 1 file failed' });
    // Still sending with failures: the icon says sending, the text says what failed.
    const { current: _whole, ...rest } = sending;
    const both = trayViewOf(totals({ ...rest, filesFailed: 2, filesTotal: 12 }));
    expect(both.icon).toBe('active');
    expect(both.tooltip).toBe('Assemblyline — Uploading 5 of 12 — 45% · 2 files failed');
  });

  it('counts the work under way, not the drops that finished before it', () => {
    // 1,000 files of an earlier drop are done; the new drop of 10 has not sent a byte.
    const view = trayViewOf(
      totals({
        filesTotal: 1_010, filesDone: 1_000, filesQueued: 10, bytesTotal: 2_000, bytesSent: 1_000,
        current: { transfers: 1, filesTotal: 10, filesDone: 0, filesFailed: 0, filesCanceled: 0, filesSkipped: 0, filesSent: 0, filesLeft: 10, bytesTotal: 1_000, bytesSent: 0 },
      }),
    );
    expect(view.tooltip).toBe('Assemblyline — Uploading 0 of 10 — 0%');
  });

  it('counts neither canceled nor skipped files as ones to send, and never says 100% early', () => {
    const view = trayViewOf(totals({ filesTotal: 10, filesCanceled: 2, filesSkipped: 3, filesActive: 1, filesDone: 4, bytesTotal: 1_000, bytesSent: 999 }));
    expect(view.tooltip).toBe('Assemblyline — Uploading 4 of 5 — 99%');
  });
});

describe('quit question', () => {
  it('asks only while files are still to be sent, and says they resume', () => {
    expect(quitQuestionOf(totals({ filesTotal: 3, filesDone: 3 }))).toBeNull();
    const q = quitQuestionOf(sending)!;
    expect(q.message).toBe('Transfers are still running.');
    expect(q.detail).toContain('7 files not sent yet');
    expect(q.buttons).toEqual(['Quit', 'Keep running']);
    expect(quitQuestionOf({ ...sending, paused: true })!.message).toBe('Transfers are paused, not finished.');
  });
});
