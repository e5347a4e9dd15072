import { describe, expect, it } from 'vitest';
import { afterSuccessLabel, parseFieldLines, recipeLabel, settleMsOf, watchStateBadge } from './watch-view';

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

  it('takes settle times between 0.2 s and 10 min', () => {
    expect(settleMsOf('2')).toBe(2000);
    expect(settleMsOf('0.5')).toBe(500);
    expect(settleMsOf('0.1')).toBeNull();
    expect(settleMsOf('abc')).toBeNull();
  });
});
