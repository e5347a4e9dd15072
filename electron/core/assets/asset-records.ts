import type { Asset, AssetDetail, AssetListPage, AssetVersion } from '../../../shared/ipc/asset-models';

// The service's asset records, read leniently: a field of an unexpected type becomes null rather than
// failing the page, so one odd record never hides a folder of assets.

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
/** Unix seconds or an ISO string → ISO (what the page formats). */
const time = (v: unknown): string | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v < 1e12 ? v * 1000 : v).toISOString();
  return str(v);
};
/** Width/height/has_alpha sit at the top (spec) or in `meta` (file records): either is read. */
const field = (record: Raw, key: string): unknown => (record[key] !== undefined ? record[key] : isRecord(record.meta) ? record.meta[key] : undefined);

export const filenameOf = (assetPath: string): string => assetPath.slice(assetPath.lastIndexOf('/') + 1);
/** The folder an asset path sits in (`photos/2026`), '' for the root. */
export const folderOf = (assetPath: string): string => (assetPath.includes('/') ? assetPath.slice(0, assetPath.lastIndexOf('/')) : '');

/** One asset record; null when it has no id or path (nothing to show or act on). */
export function toAsset(raw: unknown): Asset | null {
  if (!isRecord(raw)) return null;
  const assetId = str(raw.asset_id) ?? str(raw.id);
  const assetPath = str(raw.path);
  if (!assetId || assetPath === null) return null;
  return {
    assetId,
    versionId: str(raw.version_id),
    path: assetPath,
    filename: str(raw.filename) ?? filenameOf(assetPath),
    mime: str(raw.mime),
    size: num(raw.size),
    md5hash: str(raw.md5hash),
    sha256: str(raw.sha256),
    width: num(field(raw, 'width')),
    height: num(field(raw, 'height')),
    hasAlpha: bool(field(raw, 'has_alpha')),
    thumbhash: str(raw.thumbhash),
    createdAt: time(raw.created_at),
    updatedAt: time(raw.updated_at),
  };
}

export function toVersion(raw: unknown): AssetVersion | null {
  if (!isRecord(raw)) return null;
  const versionId = str(raw.version_id);
  if (!versionId) return null;
  return {
    versionId,
    size: num(raw.size),
    md5hash: str(raw.md5hash),
    sha256: str(raw.sha256),
    createdAt: time(raw.created_at),
    mime: str(raw.mime),
    width: num(field(raw, 'width')),
    height: num(field(raw, 'height')),
  };
}

const withoutSlashes = (p: string): string => p.replace(/^\/+|\/+$/g, '');

/** A folder entry of a delimited list: a string or an object naming a path; relative names join the prefix. */
export function toFolder(raw: unknown, prefix: string): string | null {
  const value = typeof raw === 'string' ? raw : isRecord(raw) ? (str(raw.path) ?? str(raw.folder_id) ?? str(raw.prefix) ?? str(raw.name)) : null;
  if (value === null) return null;
  const clean = withoutSlashes(value);
  if (clean === '') return null;
  const base = withoutSlashes(prefix);
  if (base === '' || clean.startsWith(`${base}/`)) return clean;
  return `${base}/${clean}`;
}

/** `DAM_ASSETS_LISTED` → a page: unreadable records dropped, folders as full paths. */
export function toListPage(body: Raw, prefix: string): AssetListPage {
  const assets = (Array.isArray(body.assets) ? body.assets : []).map(toAsset).filter((a): a is Asset => a !== null);
  const folders = [...new Set((Array.isArray(body.folders) ? body.folders : []).map((f) => toFolder(f, prefix)).filter((f): f is string => f !== null))];
  return { assets, folders, nextCursor: str(body.next_cursor), workspace: str(body.workspace) };
}

/** `DAM_ASSET_FOUND` → the details; versions newest first whatever order they came in. */
export function toDetail(body: Raw, askedVersion: string | null): AssetDetail | null {
  const record = isRecord(body.asset) ? body.asset : body;
  const asset = toAsset(record);
  if (!asset) return null;
  const versions = (Array.isArray(record.versions) ? record.versions : []).map(toVersion).filter((v): v is AssetVersion => v !== null);
  versions.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  const shown = askedVersion ?? asset.versionId ?? versions[0]?.versionId ?? null;
  // Fields of an older version as the service gave them for it, where the asset record is the current one.
  const version = askedVersion ? versions.find((v) => v.versionId === askedVersion) : undefined;
  const merged: Asset = version && asset.versionId !== askedVersion
    ? { ...asset, versionId: version.versionId, size: version.size, md5hash: version.md5hash, sha256: version.sha256, mime: version.mime ?? asset.mime, width: version.width, height: version.height }
    : asset;
  return { asset: merged, workspace: str(record.workspace) ?? str(body.workspace), versions, shownVersionId: shown };
}
