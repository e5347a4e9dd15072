import { describe, expect, it } from 'vitest';
import type { TransferBatch, TransferRow } from '../../../../shared/ipc/transfer-models';
import { keyTarget, scopeOf, shortcutFor, targetName } from './key-target';

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
