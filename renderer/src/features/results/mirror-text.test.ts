import { describe, expect, it } from 'vitest';
import type { MirrorProgress } from '../../../../shared/ipc/mirror-models';
import { mirrorOutcome, mirrorProgressText, mirrorSummaryText } from './mirror-text';

const p = (over: Partial<MirrorProgress>): MirrorProgress => ({
  mirrorId: 'm',
  folder: '/out',
  state: 'done',
  filesTotal: 6,
  filesDone: 6,
  bytesTotal: 2048,
  bytesDone: 2048,
  written: 5,
  skipped: 1,
  verified: 5,
  failed: 0,
  errors: [],
  ...over,
});

describe('mirror text', () => {
  it('counts files and bytes while running', () => {
    expect(mirrorProgressText(p({ state: 'running', filesDone: 2, bytesDone: 1024 }))).toBe('2 of 6 files · 1.0 KB of 2.0 KB');
  });
  it('sums up what was written, skipped, verified and failed', () => {
    expect(mirrorSummaryText(p({}))).toBe('5 written · 1 skipped · 5 verified · 0 failed');
  });
  it('says plainly how it ended', () => {
    expect(mirrorOutcome(p({}))).toEqual({ text: 'Every result is in the folder.', tone: 'success' });
    expect(mirrorOutcome(p({ failed: 2 }))).toEqual({ text: '2 files could not be saved.', tone: 'danger' });
    expect(mirrorOutcome(p({ state: 'canceled' })).tone).toBe('neutral');
    expect(mirrorOutcome(p({ filesTotal: 0 })).text).toBe('There were no results to save.');
  });
});
