import { describe, expect, it } from 'vitest';
import { DraftList } from './draft-list';

const root = { handle: 'fh_test', base: '/media' };

describe('the draft list', () => {
  for (const [name, hash] of [
    ['a real hash', undefined],
    ['every path colliding', () => 7],
  ] as const) {
    it(`counts a file dropped twice once, and forgets it when removed (${name})`, () => {
      const list = new DraftList(hash);
      for (const p of ['card/a.jpg', 'card/b.jpg', 'card/a.jpg', 'card/c.jpg', 'card/b.jpg']) list.add(root, p, p, 10, 0);
      expect([list.length, list.duplicates, list.bytes]).toEqual([3, 2, 30]);
      // The same file through another root (the folder above) is the same file.
      list.add({ handle: 'fh_other', base: '/' }, 'media/card/c.jpg', 'media/card/c.jpg', 10, 0);
      expect(list.duplicates).toBe(3);
      const ids = new Set([list.at(0).id, list.at(2).id]);
      expect(list.remove(ids)).toBe(2);
      expect([list.length, list.bytes, list.at(0).relativePath]).toEqual([1, 10, 'card/b.jpg']);
      // Removed files can be added again; the one left is still a duplicate.
      for (const p of ['card/a.jpg', 'card/b.jpg', 'card/c.jpg']) list.add(root, p, p, 10, 0);
      expect([list.length, list.duplicates]).toEqual([3, 4]);
      expect(Array.from({ length: list.length }, (_, i) => list.at(i).relativePath)).toEqual(['card/b.jpg', 'card/a.jpg', 'card/c.jpg']);
    });
  }

  it('keeps names that differ only in case (or fold alike) as separate files: a duplicate is the same path, byte for byte', () => {
    // Uppy's file ids lower-case the name, so it refuses the second of these at the same size and date
    // (docs/local-service.md); the app sends every one.
    const list = new DraftList();
    const names = ['card/Photo.JPG', 'card/photo.jpg', 'card/PHOTO.JPG', 'card/\u212A.txt', 'card/k.txt', 'Card/photo.jpg', 'card/caf\u00e9.txt', 'card/cafe\u0301.txt'];
    for (const p of names) list.add(root, p, p, 10, 0);
    expect([list.length, list.duplicates]).toEqual([names.length, 0]);
  });

  it('keeps the name the user knows beside the one on disk', () => {
    const list = new DraftList();
    list.add(root, 'card/Interview_ take 2~0123abcd.jpg', 'card/Interview: take 2.jpg', 5, 1);
    const seen: string[] = [];
    list.forEach((p) => seen.push(p));
    expect(seen).toEqual(['card/Interview: take 2.jpg']);
    expect(list.pathOf(list.at(0))).toBe('/media/card/Interview_ take 2~0123abcd.jpg');
  });
});
