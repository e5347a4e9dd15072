import { describe, expect, it } from 'vitest';
import type { WatchFolder } from '../../../../shared/ipc/watch-folder-models';
import { afterSuccessLabel, conflictLabel, initialForm, inputOf, itemConflictNote, parseFieldLines, recipeLabel, settleMsOf, updateOf, watchStateBadge } from './watch-view';

const watch: WatchFolder = {
  id: 'wf_1',
  folder: '/in',
  output: '/out',
  recipe: { kind: 'template', templateId: 'tpl1', fields: { size: '512', note: 'a=b' } },
  reprocessStale: false,
  afterSuccess: { kind: 'move', folder: '/done' },
  conflict: 'keep-both',
  settleMs: 1500,
  paused: false,
  state: 'watching',
  error: null,
  lastActivityAt: null,
  counts: { done: 3, failed: 0, queued: 0, skipped: 0 },
  latestErrors: [],
};

describe('watch folder view helpers', () => {
  it('reads fields typed as name=value lines and says which line is wrong', () => {
    expect(parseFieldLines('size=1024\n\n prefix = a=b ')).toEqual({ fields: { size: '1024', prefix: 'a=b' } });
    expect(parseFieldLines('size=1\nnonsense')).toEqual({ error: 'Line 2: write fields as name=value.' });
    expect(parseFieldLines('=x')).toEqual({ error: 'Line 1: write fields as name=value.' });
  });

  it('names what a watch does in words', () => {
    expect(recipeLabel({ kind: 'preset', presetId: 'resize-1024' })).toBe('Resize images to 1024 px');
    expect(recipeLabel({ kind: 'template', templateId: 'tpl1', fields: { a: '1' } })).toBe('Template tpl1 (1 field)');
    expect(afterSuccessLabel({ afterSuccess: { kind: 'move', folder: '/done' } })).toBe('Originals moved to /done');
    expect(watchStateBadge({ state: 'catching-up' })).toEqual({ label: 'Catching up', tone: 'info' });
    expect(watchStateBadge({ state: 'error' }).tone).toBe('danger');
  });

  it('says what the conflict policy did to a file\'s results, and names a policy other than replace on the card', () => {
    expect(itemConflictNote({ keptBeside: [], skippedResults: [] })).toBeNull();
    expect(itemConflictNote({ keptBeside: ['resized/a (2).jpg', 'thumbs/a (2).png'], skippedResults: [] })).toBe('2 results kept beside earlier ones');
    expect(itemConflictNote({ keptBeside: [], skippedResults: ['resized/a.jpg'] })).toBe('skipped: result already there');
    expect(itemConflictNote({ keptBeside: ['resized/a (2).jpg'], skippedResults: ['thumbs/a.png', 'gifs/a.gif'] })).toBe('1 result kept beside an earlier one · skipped: 2 results already there');
    expect(conflictLabel({ conflict: 'overwrite' })).toBeNull();
    expect(conflictLabel({ conflict: 'keep-both' })).toBe('new results kept beside earlier ones');
    expect(conflictLabel({ conflict: 'skip' })).toBe('results already there left as they are');
  });

  it('takes settle times between 0.2 s and 10 min', () => {
    expect(settleMsOf('2')).toBe(2000);
    expect(settleMsOf('0.5')).toBe(500);
    expect(settleMsOf('0.1')).toBeNull();
    expect(settleMsOf('abc')).toBeNull();
  });

  it('fills the edit form with the watch as it is, and sends back only the folders that changed', () => {
    const form = initialForm(watch);
    expect(form).toEqual({ folder: { path: '/in' }, output: { path: '/out' }, recipe: 'template:tpl1', fieldText: 'size=512\nnote=a=b', reprocessStale: false, after: 'move', moveTo: { path: '/done' }, conflict: 'keep-both', settle: '1.5' });
    // Saved untouched: the same settings, no folder re-sent (the Electron host could not name them).
    expect(updateOf(watch, form)).toEqual({ update: { id: 'wf_1', recipe: watch.recipe, reprocessStale: false, conflict: 'keep-both', settleMs: 1500 } });
    // A new output folder (picked: a handle) and originals deleted instead of moved.
    expect(updateOf(watch, { ...form, output: { handle: 'h1' }, after: 'delete', recipe: 'preset:resize-1024', conflict: 'skip', settle: '3' })).toEqual({
      update: { id: 'wf_1', recipe: { kind: 'preset', presetId: 'resize-1024' }, reprocessStale: false, conflict: 'skip', settleMs: 3000, output: { handle: 'h1' }, afterSuccess: { kind: 'delete' } },
    });
    expect(updateOf(watch, { ...form, moveTo: { path: '/done2' } })).toMatchObject({ update: { afterSuccess: { kind: 'move', folder: { path: '/done2' } } } });
  });

  it('names the field of a problem in the form', () => {
    const form = initialForm(watch);
    expect(updateOf(watch, { ...form, output: null })).toEqual({ problem: { field: 'output', message: 'Choose the output folder.' } });
    expect(updateOf(watch, { ...form, settle: '0' })).toEqual({ problem: { field: 'settleMs', message: 'The settle time is between 0.2 and 600 seconds.' } });
    expect(updateOf(watch, { ...form, moveTo: null })).toEqual({ problem: { field: 'afterSuccess', message: 'Choose where to move the originals.' } });
    expect(updateOf(watch, { ...form, fieldText: 'oops' })).toEqual({ problem: { field: 'recipe', message: 'Line 1: write fields as name=value.' } });
    expect(inputOf(initialForm())).toEqual({ problem: { field: null, message: 'Choose the folder to watch and the output folder.' } });
    expect(inputOf({ ...initialForm(), folder: { path: '/a' }, output: { path: '/b' } })).toEqual({
      input: { folder: { path: '/a' }, output: { path: '/b' }, recipe: { kind: 'preset', presetId: 'resize-1024' }, reprocessStale: false, afterSuccess: { kind: 'keep' }, conflict: 'overwrite', settleMs: 2000 },
    });
  });
});
