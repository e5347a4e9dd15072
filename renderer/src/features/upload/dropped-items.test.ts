import { describe, expect, it } from 'vitest';
import { pickedFromInput, walkEntries } from './dropped-items';

/** A folder tree shaped like the File System Entry API, whose readers hand out at most 100 entries per call like Chromium's. */
type Tree = { [name: string]: Tree | string };

const entryFor = (name: string, node: Tree | string, parent: string): FileSystemEntry => {
  const fullPath = `${parent}/${name}`;
  if (typeof node === 'string') {
    const file = new File([node], name);
    return { name, fullPath, isFile: true, isDirectory: false, file: (ok: (f: File) => void) => ok(file) } as unknown as FileSystemEntry;
  }
  return {
    name,
    fullPath,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      const children = Object.entries(node).map(([n, child]) => entryFor(n, child, fullPath));
      let offset = 0;
      return {
        readEntries: (ok: (batch: FileSystemEntry[]) => void) => {
          const batch = children.slice(offset, offset + 100);
          offset += batch.length;
          setTimeout(() => ok(batch), 0);
        },
      };
    },
  } as unknown as FileSystemEntry;
};

describe('walkEntries', () => {
  it('finds every file in nested folders, past the 100-entries-per-read limit, with relative paths', async () => {
    const many: Tree = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`img-${i}.jpg`, 'x']));
    const tree: Tree = { ...many, sub: { deeper: { 'a.png': 'yy' } }, empty: {} };
    const picked = await walkEntries([entryFor('photos', tree, ''), entryFor('loose.txt', 'hello', '')]);
    expect(picked).toHaveLength(252);
    const paths = picked.map((p) => p.relativePath);
    expect(paths).toContain('photos/img-249.jpg');
    expect(paths).toContain('photos/sub/deeper/a.png');
    expect(paths).toContain('loose.txt');
    expect(picked.find((p) => p.relativePath === 'photos/sub/deeper/a.png')?.file.size).toBe(2);
  });
});

describe('pickedFromInput', () => {
  it('uses webkitRelativePath from a folder picker and the bare name otherwise', () => {
    const inFolder = new File(['1'], 'a.jpg');
    Object.defineProperty(inFolder, 'webkitRelativePath', { value: 'trip/day1/a.jpg' });
    const loose = new File(['2'], 'b.jpg');
    expect(pickedFromInput([inFolder, loose]).map((p) => p.relativePath)).toEqual(['trip/day1/a.jpg', 'b.jpg']);
  });
});
