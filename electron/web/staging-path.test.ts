import { describe, expect, it } from 'vitest';
import { diskNameFor, MAX_DISK_NAME_BYTES, resolveStagingPath } from './staging-path';

describe('staging names on disk', () => {
  it('keeps ordinary names as they are', () => {
    expect(diskNameFor('über 1.jpg')).toBe('über 1.jpg');
  });
  it('shortens long names (255 bytes, multi-byte) and keeps them apart and recognisable', () => {
    const a = `${'a'.repeat(251)}.jpg`;
    const b = `${'a'.repeat(250)}b.jpg`;
    const euro = '€'.repeat(85);
    for (const name of [a, b, euro]) expect(Buffer.byteLength(diskNameFor(name))).toBeLessThanOrEqual(MAX_DISK_NAME_BYTES);
    expect(diskNameFor(a)).toMatch(/^a+~[0-9a-f]{12}\.jpg$/);
    expect(diskNameFor(a)).not.toBe(diskNameFor(b));
    expect(diskNameFor(euro)).toMatch(/^€+~[0-9a-f]{12}$/);
  });
  it('replaces characters some file systems reserve, keeping the name for the user', () => {
    expect(diskNameFor('Meeting: notes?.txt')).toMatch(/^Meeting_ notes_~[0-9a-f]{12}\.txt$/);
    const target = resolveStagingPath('/s', '/staging/b1/a%3Ab/c%3F.txt');
    expect(target.ok && [target.value.relativePath, target.value.diskRelativePath.split('/')[0]]).toEqual(['a:b/c?.txt', expect.stringMatching(/^a_b~/)]);
  });
});
