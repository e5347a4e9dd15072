import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssemblyFile } from './assembly-status';
import { pairUploads } from './upload-pairing';

const name = fc.stringMatching(/^[a-zA-Z0-9 ._-]{1,12}$/);
const relPath = fc.tuple(fc.array(name, { maxLength: 2 }), name).map(([dirs, file]) => [...dirs, file].join('/'));

describe('pairUploads', () => {
  it('pairs each sent file with the upload that carried its path, in any order, and never one upload twice (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ relativePath: relPath, size: fc.nat(5000) }), { selector: (f) => f.relativePath, maxLength: 20 }), fc.integer(), (files, seed) => {
        // The service lists uploads in its own order; tus uploads carry relative_path when the file sat in a folder.
        const uploads: AssemblyFile[] = files.map((f, i) => ({ id: `u${i}`, name: f.relativePath.split('/').pop()!, size: f.size, ...(f.relativePath.includes('/') ? { user_meta: { relative_path: f.relativePath } } : {}) }));
        const shuffled = [...uploads].sort((a, b) => ((Number(a.id!.slice(1)) * 7919 + seed) % 101) - ((Number(b.id!.slice(1)) * 7919 + seed) % 101));
        const pairs = pairUploads(files, shuffled);
        const taken = pairs.filter((p) => p !== null);
        expect(new Set(taken).size).toBe(taken.length);
        // Names may repeat across folders; a folder path names one upload exactly.
        files.forEach((f, i) => {
          if (f.relativePath.includes('/')) expect(shuffled[pairs[i]!]!.id).toBe(`u${i}`);
          else expect(pairs[i]).not.toBeNull();
        });
      }),
    );
  });

  it('leaves a file that has not arrived unpaired, and a same-named file of another size apart', () => {
    expect(pairUploads([{ relativePath: 'a.jpg', size: 10 }, { relativePath: 'b.jpg', size: 5 }], [{ id: 'x', name: 'a.jpg', size: 11 }, { id: 'y', name: 'b.jpg', size: 5 }])).toEqual([null, 1]);
    expect(pairUploads([{ relativePath: 'a.jpg', size: 10 }], [])).toEqual([null]);
  });
});
