// The pure rules of stored-asset paths: filenames, folders, prefix ranges, "name (1).ext", cursors, ids.
import { describe, expect, it } from 'vitest';
import { importRequest } from '../robots/transloadit-import';
import { storePath } from '../robots/transloadit-store';
import { ancestorFolders, ASSET_ID, decodeCursor, encodeCursor, filenameProblem, folderPrefix, newAssetId, pathProblem, prefixEnd, renamedPath, splitPath } from './asset-paths';
import { parseAssetIds, parseListParams } from './asset-params';

describe('asset paths', () => {
  it('makes ids of the spec pattern: 16 random bytes end in A, Q, g or w', () => {
    const ends = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const id = newAssetId();
      expect(id).toMatch(ASSET_ID);
      ends.add(id.at(-1)!);
    }
    expect([...ends].sort()).toEqual(['A', 'Q', 'g', 'w']);
  });

  it('applies the filename rule of the addendum', () => {
    for (const ok of ['a.jpg', 'x'.repeat(255), '名前.png', '.hidden', 'a b']) expect(filenameProblem(ok), ok).toBeNull();
    for (const bad of ['', 'x'.repeat(256), 'a/b', 'a\\b', '.', '..', ' a', 'a ', 'a\u0000b', 'a\nb', 'a\u007fb']) expect(filenameProblem(bad), JSON.stringify(bad)).not.toBeNull();
    expect(pathProblem('a/b/c.jpg')).toBeNull();
    for (const bad of ['a//b', '/a', 'a/', 'a/../b', 'a/./b']) expect(pathProblem(bad), bad).not.toBeNull();
  });

  it('turns folder ids into prefixes and paths into folders', () => {
    expect(folderPrefix(null)).toEqual({ prefix: '' });
    expect(folderPrefix('photos/2026')).toEqual({ prefix: 'photos/2026/' });
    expect(folderPrefix('photos/2026/')).toEqual({ prefix: 'photos/2026/' });
    for (const bad of ['', '..', 'a/../b', 3, undefined]) expect(folderPrefix(bad)).toHaveProperty('problem');
    expect(splitPath('a/b/c.jpg')).toEqual({ folder: 'a/b/', filename: 'c.jpg' });
    expect(splitPath('c.jpg')).toEqual({ folder: '', filename: 'c.jpg' });
    expect(ancestorFolders('a/b/c.jpg')).toEqual(['a/', 'a/b/']);
    expect(ancestorFolders('c.jpg')).toEqual([]);
  });

  it('bounds a prefix range so every path under it, and only those, falls inside', () => {
    expect(prefixEnd('photos/')).toBe('photos0');
    expect(prefixEnd('')).toBeNull();
    expect(prefixEnd('a\u{10ffff}')).toBe('b');
    expect(prefixEnd('a\ud7ff')).toBe('a\ue000');
    const end = prefixEnd('ph')!;
    for (const inside of ['ph', 'photos', 'ph\u{10ffff}x']) expect(inside >= 'ph' && inside < end, inside).toBe(true);
    for (const outside of ['pi', 'pg', 'p']) expect(outside >= 'ph' && outside < end, outside).toBe(false);
  });

  it('renames beside a taken path, keeping the extension', () => {
    expect(renamedPath('a/photo.jpg', 1)).toBe('a/photo (1).jpg');
    expect(renamedPath('README', 2)).toBe('README (2)');
    expect(renamedPath('.env', 1)).toBe('.env (1)');
  });

  it('round-trips cursors and refuses ones it did not make', () => {
    expect(decodeCursor(encodeCursor('a/b (1).jpg'))).toBe('a/b (1).jpg');
    expect(decodeCursor('%%%')).toBeNull();
    expect(decodeCursor(Buffer.from('{"q":1}').toString('base64url'))).toBeNull();
  });

  it('checks list params and bulk ids', () => {
    expect(parseListParams({})).toEqual({ ok: true, value: { prefix: '', after: '', limit: 100, delimiter: false } });
    expect(parseListParams({ limit: '250', delimiter: '/' })).toMatchObject({ ok: true, value: { limit: 250, delimiter: true } });
    expect(parseAssetIds([newAssetId(), newAssetId()])).toMatchObject({ ok: true });
    expect(parseAssetIds(Array.from({ length: 100 }, newAssetId))).toMatchObject({ ok: true });
    expect(parseAssetIds(Array.from({ length: 101 }, newAssetId))).toMatchObject({ ok: false, code: 'DAM_INVALID_ASSET_IDS' });
  });

  it('reads what store and import steps ask for', () => {
    expect(storePath({}, 'a.jpg')).toBe('a.jpg');
    expect(storePath({ path: '/x/y.jpg' }, 'a.jpg')).toBe('x/y.jpg');
    expect(importRequest({ asset_ids: 'A', version_id: 'V' })).toEqual({ assetIds: [{ assetId: 'A', versionId: 'V' }], paths: [] });
    expect(importRequest({ asset_ids: ['A', 'B'], version_ids: ['', 'W'], paths: '/p.jpg' })).toEqual({
      assetIds: [{ assetId: 'A', versionId: null }, { assetId: 'B', versionId: 'W' }],
      paths: ['p.jpg'],
    });
  });
});
