import { describe, expect, it } from 'vitest';
import { rgbaToThumbHash } from 'thumbhash';
import type { Asset, AssetListPage } from '../../../../shared/ipc/asset-models';
import { assetRows, breadcrumbs, bulkOutcome, describeTargets, keyAt, normalizeFolderInput, parentFolder, rowAt, targetsOf } from './asset-rows';
import { thumbhashUrl } from '../../lib/thumbhash-url';

const asset = (assetId: string, path: string): Asset => ({
  assetId, versionId: null, path, filename: path.split('/').pop()!, mime: null, size: 1, md5hash: null, sha256: null,
  width: null, height: null, hasAlpha: null, thumbhash: null, createdAt: null, updatedAt: null,
});
const page = (folders: string[], assets: Asset[]): AssetListPage => ({ folders, assets, nextCursor: null, workspace: null });

describe('asset rows', () => {
  it('puts folders first (sorted, once) and then the assets of every page read', () => {
    const rows = assetRows([page(['p/b', 'p/a'], [asset('1', 'p/x.jpg')]), page(['p/a'], [asset('2', 'p/y.jpg')])]);
    expect(rows.folders).toEqual(['p/a', 'p/b']);
    expect(rowAt(rows, 0)).toEqual({ kind: 'folder', folder: 'p/a' });
    expect(rowAt(rows, 3)).toMatchObject({ kind: 'asset', asset: { assetId: '2' } });
    expect(rowAt(rows, 4)).toBeUndefined();
    expect([0, 1, 2, 3, 4].map((i) => keyAt(rows, i))).toEqual(['folder:p/a', 'folder:p/b', 'asset:1', 'asset:2', undefined]);
  });

  it('turns a selection into the ids and folders the bulk channels take', () => {
    const targets = targetsOf(['asset:1', 'folder:p/a', 'asset:2']);
    expect(targets).toEqual({ assetIds: ['1', '2'], folders: ['p/a'] });
    expect(describeTargets(targets)).toBe('2 assets and 1 folder');
    expect(describeTargets({ assetIds: ['1'], folders: [] })).toBe('1 asset');
  });

  it('builds the breadcrumb and the parent of a folder', () => {
    expect(breadcrumbs('')).toEqual([{ label: 'All assets', folder: '' }]);
    expect(breadcrumbs('photos/2026')).toEqual([
      { label: 'All assets', folder: '' },
      { label: 'photos', folder: 'photos' },
      { label: '2026', folder: 'photos/2026' },
    ]);
    expect(parentFolder('photos/2026')).toBe('photos');
    expect(parentFolder('photos')).toBe('');
  });

  it('reads a typed folder path, refusing . and ..', () => {
    expect(normalizeFolderInput(' /archive//2026/ ')).toBe('archive/2026');
    expect(normalizeFolderInput('')).toBe('');
    expect(normalizeFolderInput('a/../b')).toBeNull();
  });

  it('says what a bulk action did, with the first refusal code', () => {
    expect(bulkOutcome('Deleted', { done: 3, failed: [] })).toEqual({ text: 'Deleted 3 assets.', tone: 'success' });
    const partial = bulkOutcome('Moved', { done: 100, failed: [{ assetIds: ['a', 'b'], code: 'DAM_ASSET_EXISTS', message: 'taken' }] });
    expect(partial.tone).toBe('danger');
    expect(partial.text).toBe('Moved 100 assets; 2 assets refused: DAM_ASSET_EXISTS — taken');
  });

  it('decodes a thumbhash into a PNG placeholder, and nothing for garbage', () => {
    const rgba = new Uint8Array(8 * 8 * 4).fill(200);
    const hash = btoa(String.fromCharCode(...rgbaToThumbHash(8, 8, rgba)));
    expect(thumbhashUrl(hash)).toMatch(/^data:image\/png;base64,/);
    expect(thumbhashUrl('%%%')).toBeNull();
    expect(thumbhashUrl(null)).toBeNull();
  });
});
