import { describe, expect, it } from 'vitest';
import { chunk, destinationId, folderMoveProblem, groupByDestination, listPrefix, movedFolderOf, useAsInputSteps } from './asset-plans';

describe('asset plans', () => {
  it('sends a folder prefix with one trailing slash, and the root as no prefix', () => {
    expect(listPrefix('')).toBe('');
    expect(listPrefix('/')).toBe('');
    expect(listPrefix('photos/2026')).toBe('photos/2026/');
    expect(listPrefix('/photos/2026//')).toBe('photos/2026/');
  });

  it('names the root as null on the wire', () => {
    expect(destinationId('')).toBeNull();
    expect(destinationId(null)).toBeNull();
    expect(destinationId('archive/')).toBe('archive');
  });

  it('splits ids into requests of at most 100', () => {
    const ids = Array.from({ length: 250 }, (_, i) => String(i));
    expect(chunk(ids).map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunk([])).toEqual([]);
  });

  it('moves a folder as a file manager does: the folder becomes a subfolder of the destination', () => {
    expect(movedFolderOf('photos/2026/a.jpg', 'photos/2026', 'archive')).toBe('archive/2026');
    expect(movedFolderOf('photos/2026/x/y/a.jpg', 'photos/2026', 'archive')).toBe('archive/2026/x/y');
    expect(movedFolderOf('photos/2026/a.jpg', 'photos/2026', '')).toBe('2026');
    expect(movedFolderOf('photos/a.jpg', 'photos', 'archive/old')).toBe('archive/old/photos');
  });

  it('refuses a folder moved into itself, below itself, or where it already is', () => {
    expect(folderMoveProblem('photos', 'photos/2026')).toMatch(/into itself/);
    expect(folderMoveProblem('photos', 'photos')).toMatch(/into itself/);
    expect(folderMoveProblem('photos/2026', 'photos')).toMatch(/already in photos/);
    expect(folderMoveProblem('photos', '')).toMatch(/already in the root/);
    expect(folderMoveProblem('photos', 'photos-old')).toBeNull();
  });

  it('groups moves by destination, each id once', () => {
    const groups = groupByDestination([
      { assetId: 'a', folder: 'x' },
      { assetId: 'b', folder: 'y' },
      { assetId: 'a', folder: 'x' },
      { assetId: 'c', folder: 'x' },
    ]);
    expect([...groups]).toEqual([
      ['x', ['a', 'c']],
      ['y', ['b']],
    ]);
  });

  it('reads the import where the steps read uploads, in every form of use', () => {
    expect(useAsInputSteps(['id1'], null)).toEqual({ imported: { robot: '/transloadit/import', asset_ids: ['id1'] } });
    const steps = useAsInputSteps(['id1', 'id2'], {
      ':original': { robot: '/upload/handle' },
      resized: { robot: '/image/resize', use: ':original', width: 10 },
      both: { robot: '/file/compress', use: [':original', 'resized'] },
      named: { robot: '/file/compress', use: { steps: [{ name: ':original', as: 'in' }], bundle_steps: true } },
      other: { robot: '/file/hash', use: 'resized' },
    });
    expect(Object.keys(steps)).toEqual(['imported', 'resized', 'both', 'named', 'other']);
    expect(steps.imported).toEqual({ robot: '/transloadit/import', asset_ids: ['id1', 'id2'] });
    expect(steps.resized!.use).toBe('imported');
    expect(steps.both!.use).toEqual(['imported', 'resized']);
    expect(steps.named!.use).toEqual({ steps: [{ name: 'imported', as: 'in' }], bundle_steps: true });
    expect(steps.other!.use).toBe('resized');
  });
});
