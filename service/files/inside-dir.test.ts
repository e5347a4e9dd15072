// The last line of defence: a path that would leave its folder is refused before anything is written.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside, resolveInside, safePathIn, UNSAFE_PATH_CODE, UnsafePathError } from './inside-dir';

const dir = resolve('/data/assemblies/abc/results/0-step');

describe('resolveInside', () => {
  it('resolves names below the folder', () => {
    expect(resolveInside(dir, 'photo.jpg')).toBe(join(dir, 'photo.jpg'));
    expect(resolveInside(dir, 'sub', 'photo.jpg')).toBe(join(dir, 'sub', 'photo.jpg'));
    expect(resolveInside(dir, '..photo')).toBe(join(dir, '..photo'));
  });

  it.each([['../../service.sqlite'], ['..'], ['.'], [''], ['/etc/passwd'], ['sub/../../x'], ['a\0b']])('refuses %j', (name) => {
    expect(() => resolveInside(dir, name)).toThrow(UnsafePathError);
  });

  it('carries an error code for the Assembly', () => {
    try {
      resolveInside(dir, '../x');
      expect.unreachable();
    } catch (e) {
      expect((e as UnsafePathError).code).toBe(UNSAFE_PATH_CODE);
      expect((e as Error).message).toContain('not inside');
    }
  });

  it('tells a sibling folder with the same prefix from a subfolder', () => {
    expect(isInside(dir, `${dir}-evil/x`)).toBe(false);
    expect(isInside(dir, `${dir}/x`)).toBe(true);
  });
});

describe('safePathIn', () => {
  it('turns a hostile name into a safe name inside the folder instead of refusing', () => {
    expect(safePathIn(dir, '../../../../../service.sqlite')).toBe(join(dir, 'service.sqlite'));
    expect(safePathIn(dir, '..')).toBe(join(dir, 'file'));
  });
});
