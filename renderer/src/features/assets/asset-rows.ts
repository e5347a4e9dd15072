import type { Asset, AssetBulkResult, AssetListPage } from '../../../../shared/ipc/asset-models';
import { formatCount } from '../../lib/format';

/**
 * The Assets browser's rows: one folder level, folders first (sorted), then the assets of the pages read
 * so far (the service lists them path ascending). Keys name a row whatever page it came in.
 */
export interface AssetRows {
  readonly folders: readonly string[];
  readonly assets: readonly Asset[];
}

export const folderKey = (folder: string): string => `folder:${folder}`;
export const assetKey = (assetId: string): string => `asset:${assetId}`;

export function assetRows(pages: readonly AssetListPage[]): AssetRows {
  const folders = new Set<string>();
  const assets: Asset[] = [];
  for (const page of pages) {
    for (const f of page.folders) folders.add(f);
    for (const a of page.assets) assets.push(a);
  }
  return { folders: [...folders].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), assets };
}

export type AssetRow = { readonly kind: 'folder'; readonly folder: string } | { readonly kind: 'asset'; readonly asset: Asset };

/** The row at a list index; undefined past what was read (a placeholder while the next page comes). */
export function rowAt(rows: AssetRows, index: number): AssetRow | undefined {
  if (index < rows.folders.length) return { kind: 'folder', folder: rows.folders[index]! };
  const asset = rows.assets[index - rows.folders.length];
  return asset ? { kind: 'asset', asset } : undefined;
}

export const keyAt = (rows: AssetRows, index: number): string | undefined => {
  if (index < rows.folders.length) return folderKey(rows.folders[index]!);
  const asset = rows.assets[index - rows.folders.length];
  return asset ? assetKey(asset.assetId) : undefined;
};

/** A selection's keys → what the bulk channels take. */
export function targetsOf(keys: Iterable<string>): { assetIds: string[]; folders: string[] } {
  const assetIds: string[] = [];
  const folders: string[] = [];
  for (const key of keys) {
    if (key.startsWith('asset:')) assetIds.push(key.slice(6));
    else if (key.startsWith('folder:')) folders.push(key.slice(7));
  }
  return { assetIds, folders };
}

/** "3 assets and 1 folder": what a confirmation names. */
export function describeTargets(targets: { assetIds: readonly string[]; folders: readonly string[] }): string {
  const parts = [];
  if (targets.assetIds.length > 0) parts.push(formatCount(targets.assetIds.length, 'asset'));
  if (targets.folders.length > 0) parts.push(formatCount(targets.folders.length, 'folder'));
  return parts.join(' and ') || 'nothing';
}

export const folderLabel = (folder: string): string => (folder === '' ? 'All assets' : (folder.split('/').pop() ?? folder));

/** The breadcrumb of a folder: the root, then each folder on the way down. */
export function breadcrumbs(folder: string): Array<{ label: string; folder: string }> {
  const parts = folder.split('/').filter((p) => p !== '');
  return [{ label: 'All assets', folder: '' }, ...parts.map((label, i) => ({ label, folder: parts.slice(0, i + 1).join('/') }))];
}

export const parentFolder = (folder: string): string => (folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '');

/** A folder path typed by the user: slashes trimmed, empty parts dropped; null when a part is `.` or `..`. */
export function normalizeFolderInput(input: string): string | null {
  const parts = input.trim().split('/').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.some((p) => p === '.' || p === '..')) return null;
  return parts.join('/');
}

/** A bulk outcome in one line: how many, and the first refusal with its code. */
export function bulkOutcome(verb: 'Moved' | 'Deleted', result: AssetBulkResult): { text: string; tone: 'success' | 'danger' } {
  const done = `${verb} ${formatCount(result.done, 'asset')}`;
  const first = result.failed[0];
  if (!first) return { text: `${done}.`, tone: 'success' };
  const refused = result.failed.reduce((n, f) => n + f.assetIds.length, 0);
  return { text: `${done}; ${formatCount(refused, 'asset')} refused: ${first.code} — ${first.message}`, tone: 'danger' };
}

/** "640 × 480" or null. */
export const dimensions = (a: { width: number | null; height: number | null }): string | null => (a.width && a.height ? `${a.width} × ${a.height}` : null);
