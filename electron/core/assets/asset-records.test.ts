import { describe, expect, it } from 'vitest';
import { filenameProblem } from '../../../shared/ipc/asset-models';
import { dispositionName } from './asset-api';
import { toAsset, toDetail, toFolder, toListPage } from './asset-records';

const ID = 'abcdefghijklmnopqrstuA';
const V1 = 'v1cdefghijklmnopqrstuQ';
const V2 = 'v2cdefghijklmnopqrstug';

describe('asset records', () => {
  it('reads a record leniently: odd fields become null, width/height also from meta', () => {
    const asset = toAsset({ asset_id: ID, version_id: V2, path: 'photos/a.jpg', size: '12', mime: 'image/jpeg', meta: { width: 4, height: 3 }, thumbhash: 'abc' });
    expect(asset).toMatchObject({ assetId: ID, filename: 'a.jpg', size: null, width: 4, height: 3, thumbhash: 'abc', md5hash: null });
    expect(toAsset({ path: 'x' })).toBeNull();
    expect(toAsset('nope')).toBeNull();
  });

  it('makes folders full paths whatever form the service lists them in', () => {
    expect(toFolder('photos/2026/', 'photos/')).toBe('photos/2026');
    expect(toFolder('2026', 'photos/')).toBe('photos/2026');
    expect(toFolder({ path: 'photos/2026/' }, 'photos/')).toBe('photos/2026');
    expect(toFolder('top/', '')).toBe('top');
    expect(toFolder('', '')).toBeNull();
  });

  it('keeps the readable records of a page and the cursor', () => {
    const page = toListPage({ assets: [{ asset_id: ID, path: 'a.jpg' }, { bad: true }], folders: ['x/', 'x/'], next_cursor: 'c1', workspace: 'w' }, '');
    expect(page.assets).toHaveLength(1);
    expect(page.folders).toEqual(['x']);
    expect(page.nextCursor).toBe('c1');
    expect(toListPage({ assets: [] }, '').nextCursor).toBeNull();
  });

  it('sorts versions newest first and shows an older version with its own size and md5', () => {
    const body = {
      asset: {
        asset_id: ID,
        version_id: V2,
        path: 'a.jpg',
        size: 200,
        md5hash: 'new',
        versions: [
          { version_id: V1, size: 100, md5hash: 'old', created_at: '2026-01-01T00:00:00Z' },
          { version_id: V2, size: 200, md5hash: 'new', created_at: '2026-02-01T00:00:00Z' },
        ],
      },
    };
    const current = toDetail(body, null)!;
    expect(current.versions.map((v) => v.versionId)).toEqual([V2, V1]);
    expect(current.shownVersionId).toBe(V2);
    const older = toDetail(body, V1)!;
    expect(older.shownVersionId).toBe(V1);
    expect(older.asset).toMatchObject({ versionId: V1, size: 100, md5hash: 'old' });
  });

  it('names a download after Content-Disposition', () => {
    expect(dispositionName('attachment; filename="a b.jpg"', 'x')).toBe('a b.jpg');
    expect(dispositionName("attachment; filename*=UTF-8''%C3%A9t%C3%A9.png", 'x')).toBe('été.png');
    expect(dispositionName(null, 'fallback')).toBe('fallback');
  });

  it('applies the filename rule before asking the service', () => {
    expect(filenameProblem('ok.jpg')).toBeNull();
    expect(filenameProblem('')).toMatch(/empty/);
    expect(filenameProblem('a/b')).toMatch(/\//);
    expect(filenameProblem('..')).toMatch(/\.\./);
    expect(filenameProblem(' a')).toMatch(/space/);
    expect(filenameProblem('x'.repeat(256))).toMatch(/255/);
  });
});
