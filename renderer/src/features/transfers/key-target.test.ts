import { describe, expect, it } from 'vitest';
import type { TransferBatch, TransferRow } from '../../../../shared/ipc/transfer-models';
import { cancelQuestion, keyTarget, scopeOf, shortcutFor, targetName } from './key-target';

const batch = (over: Partial<TransferBatch>) => ({ id: 'b1', seq: 2, label: 'Files 11–20', state: 'uploading', filesFailed: 0, ...over }) as TransferBatch;
const row = (over: Partial<TransferRow>) => ({ id: 'f1', relativePath: 'shoot/a.jpg', state: 'queued', ...over }) as TransferRow;

describe('what the Transfers keys act on', () => {
  it('the selection first, then the focused batch, then the focused file', () => {
    expect(keyTarget(['f1', 'f2'], { batch: batch({}) })?.kind).toBe('selection');
    expect(scopeOf(keyTarget([], { batch: batch({}) })!)).toEqual({ kind: 'batch', id: 'b1' });
    expect(scopeOf(keyTarget([], { row: row({}) })!)).toEqual({ kind: 'files', ids: ['f1'] });
    expect(keyTarget([], {})).toBeNull();
  });

  it('names the target as the bar and the cancel question say it', () => {
    expect(targetName(keyTarget(['f1'], {})!)).toBe('1 selected file');
    expect(targetName(keyTarget([], { batch: batch({}) })!)).toBe('Assembly 2 · Files 11–20');
    expect(targetName(keyTarget([], { row: row({}) })!)).toBe('shoot/a.jpg');
  });

  it('asks one question before any cancel, naming what it cancels and acting on that scope only', () => {
    const ofBatch = cancelQuestion(keyTarget([], { batch: batch({}) })!);
    expect(ofBatch).toMatchObject({ title: 'Cancel the batch Assembly 2 · Files 11–20?', confirmLabel: 'Cancel batch', scope: { kind: 'batch', id: 'b1' } });
    expect(ofBatch.body).toContain('its Assembly is canceled');
    expect(cancelQuestion(keyTarget([], { row: row({}) })!)).toMatchObject({ title: 'Cancel shoot/a.jpg?', confirmLabel: 'Cancel file', scope: { kind: 'files', ids: ['f1'] } });
    expect(cancelQuestion(keyTarget(['f1', 'f2'], {})!)).toMatchObject({ title: 'Cancel 2 selected files?', confirmLabel: 'Cancel files', scope: { kind: 'files', ids: ['f1', 'f2'] } });
    const all = cancelQuestion({ kind: 'all' });
    expect(all).toMatchObject({ title: 'Cancel every transfer?', confirmLabel: 'Cancel all', scope: { kind: 'all' } });
    // Every question says what is kept: nothing already done is lost.
    for (const q of [ofBatch, all]) expect(q.body).toContain('Files already done are kept.');
  });

  it('P pauses, R resumes or retries, Delete and Backspace cancel — only where that applies', () => {
    const running = keyTarget([], { batch: batch({ state: 'uploading' }) })!.actions;
    expect(shortcutFor('p', running)).toBe('pause');
    expect(shortcutFor('P', running)).toBe('pause');
    expect(shortcutFor('Delete', running)).toBe('cancel');
    expect(shortcutFor('r', running)).toBeNull();
    const paused = keyTarget([], { row: row({ state: 'paused' }) })!.actions;
    expect(shortcutFor('r', paused)).toBe('resume');
    expect(shortcutFor('p', paused)).toBeNull();
    const failed = keyTarget([], { batch: batch({ state: 'failed' }) })!.actions;
    expect(shortcutFor('r', failed)).toBe('retry');
    expect(shortcutFor('Backspace', failed)).toBeNull();
    const done = keyTarget([], { row: row({ state: 'verified' }) })!.actions;
    expect(['p', 'r', 'Delete'].map((k) => shortcutFor(k, done))).toEqual([null, null, null]);
    expect(shortcutFor('x', running)).toBeNull();
  });
});
