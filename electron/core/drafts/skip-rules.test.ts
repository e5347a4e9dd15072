import { describe, expect, it } from 'vitest';
import { DEFAULT_TRANSFER_SETTINGS, type SkipRules } from '../../../shared/ipc/transfer-models';
import { compileSkipRules, isHiddenPath } from './skip-rules';

const rules = (change: Partial<SkipRules>): SkipRules => ({ ...DEFAULT_TRANSFER_SETTINGS.skip, ...change });

describe('skip rules', () => {
  it.each([
    // [relative path, size, rules, expected]
    ['shoot/a.jpg', 10, {}, null],
    ['shoot/.DS_Store', 10, {}, 'hidden'],
    ['shoot/sub/Thumbs.db', 10, {}, 'hidden'],
    ['shoot/DESKTOP.INI', 10, {}, 'hidden'],
    ['shoot/._a.jpg', 10, {}, 'hidden'],
    ['shoot/.git/objects/ab', 10, {}, 'hidden'],
    ['shoot/$RECYCLE.BIN/x.jpg', 10, {}, 'hidden'],
    ['Thumbs.db', 10, {}, 'hidden'],
    // The folder the user dropped is chosen on purpose, even when its name starts with a dot.
    ['.footage/a.mov', 10, {}, null],
    ['shoot/.DS_Store', 10, { skipHidden: false }, null],
    ['shoot/a.JPG', 10, { include: ['*.jpg'] }, null],
    ['shoot/a.png', 10, { include: ['*.jpg'] }, 'pattern'],
    ['shoot/raw/a.cr2', 10, { include: ['raw/**'] }, null],
    ['shoot/raw/a.cr2', 10, { include: ['shoot/raw/**'] }, null],
    ['shoot/edit/a.cr2', 10, { include: ['raw/**'] }, 'pattern'],
    ['shoot/Proxy/a.mov', 10, { exclude: ['proxy/**'] }, 'pattern'],
    ['shoot/deep/proxy/a.mov', 10, { exclude: ['**/proxy/**'] }, 'pattern'],
    ['shoot/a.mov', 10, { exclude: ['*.tmp', '*.part'] }, null],
    ['shoot/Interview: take 2?.mov', 10, { exclude: ['*: take*'] }, 'pattern'],
    ['shoot/back\\slash.jpg', 10, { include: ['*.jpg'] }, null],
    ['shoot/a.jpg', 9, { minBytes: 10 }, 'size'],
    ['shoot/a.jpg', 10, { minBytes: 10, maxBytes: 10 }, null],
    ['shoot/a.jpg', 11, { maxBytes: 10 }, 'size'],
    // Hidden is reported before a pattern, a pattern before size.
    ['shoot/.x.jpg', 1, { include: ['*.png'], minBytes: 5 }, 'hidden'],
    ['shoot/x.jpg', 1, { include: ['*.png'], minBytes: 5 }, 'pattern'],
  ] as const)('%s (%d bytes) with %j → %s', (relativePath, size, change, expected) => {
    const test = compileSkipRules(rules({ ...change, include: [...(('include' in change && change.include) || [])], exclude: [...(('exclude' in change && change.exclude) || [])] }));
    expect(test({ relativePath, size })).toBe(expected);
  });

  it('treats only names below the dropped folder as hidden', () => {
    expect(isHiddenPath('.config')).toBe(true);
    expect(isHiddenPath('.config/app.json')).toBe(false);
    expect(isHiddenPath('home/.config/app.json')).toBe(true);
  });
});
