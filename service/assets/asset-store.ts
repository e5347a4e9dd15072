// Stored assets (docs/local-service.md "Stored assets"): records in the service database (a connection
// of its own; WAL lets it write beside the others), bytes under <data>/assets/blobs named by their sha256.
//
// - An asset keeps its asset_id through moves and renames; its path is unique among live assets.
// - Every store to a path with conflict_strategy "overwrite" adds an immutable version; versions are
//   never rewritten. Bytes are content-addressed, so a move or rename never touches them and two
//   versions with the same bytes share one file.
// - Deleting an asset marks it and its versions deleted (deleted_at); bytes no live version still
//   uses are removed at once. A deleted asset or version is never served again.
// - Folders are path prefixes; `dam_folders` counts the live assets below each one, so listing one
//   folder level is an index range, not a scan of every path below it.

import { copyFile, mkdir, rm } from 'node:fs/promises';
import { existsSync, mkdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openPrivateSqlite } from '../store/private-files';
import { ancestorFolders, folderId, newAssetId, parentFolder, prefixEnd, renamedPath, splitPath } from './asset-paths';

export type ConflictStrategy = 'error' | 'rename' | 'overwrite';

/** What a new version is made of: the bytes on disk and what is known about them. */
export interface NewContent {
  localPath: string;
  size: number;
  mime: string | null;
  md5hash: string;
  sha256: string;
  width?: number | null;
  height?: number | null;
  has_alpha?: boolean | null;
  thumbhash?: string | null;
}

export interface AssetVersion {
  version_id: string;
  /** 1 for the first version of an asset, then 2, 3, … */
  asset_version: number;
  size: number;
  mime: string | null;
  md5hash: string;
  sha256: string;
  width?: number;
  height?: number;
  has_alpha?: boolean;
  thumbhash?: string;
  created_at: string;
}

/** The spec's stored-asset record (the version shown, the current one unless asked), plus where it is. */
export interface AssetRecord extends AssetVersion {
  asset_id: string;
  workspace: string;
  path: string;
  filename: string;
  folder_id: string | null;
  updated_at: string;
  deleted_at: string | null;
}

export type StoreResult = { ok: true; asset: AssetRecord; renamed: boolean; newVersion: boolean } | { ok: false; code: 'exists'; path: string };

export type MoveResult = { ok: true; assets: AssetRecord[] } | { ok: false; code: 'not_found'; assetIds: string[] } | { ok: false; code: 'exists'; path: string };

export interface ListQuery {
  prefix: string;
  /** The last path of the previous page (decoded cursor); '' for the first page. */
  after: string;
  limit: number;
  delimiter: boolean;
}

export interface AssetStore {
  store(workspace: string, path: string, content: NewContent, strategy: ConflictStrategy, nowMs: number): Promise<StoreResult>;
  /** A live asset with its current version, or the version asked for ('version' null when that version is missing or deleted). */
  get(workspace: string, assetId: string): AssetRecord | null;
  getVersion(workspace: string, assetId: string, versionId: string): AssetRecord | null;
  byPath(workspace: string, path: string): AssetRecord | null;
  /** Every version of a live asset, newest first. */
  versions(workspace: string, assetId: string): AssetVersion[];
  /** The file holding a version's bytes. */
  blobPath(sha256: string): string;
  list(workspace: string, q: ListQuery): { assets: AssetRecord[]; folders: string[]; lastPath: string | null; more: boolean };
  /** Moves (and renames) assets, all or none. `to(asset)` gives each asset's new path. */
  move(workspace: string, assetIds: string[], to: (current: AssetRecord) => string, nowMs: number): MoveResult;
  /** Deletes assets, all or none; their bytes go when no live version uses them. */
  delete(workspace: string, assetIds: string[], nowMs: number): { ok: true; deletedAt: string } | { ok: false; assetIds: string[] };
  close(): void;
}

interface Row {
  asset_id: string;
  workspace: string;
  path: string;
  version_id: string;
  seq: number;
  size: number;
  mime: string | null;
  md5hash: string;
  sha256: string;
  width: number | null;
  height: number | null;
  has_alpha: number | null;
  thumbhash: string | null;
  version_ms: number;
  updated_ms: number;
  deleted_ms: number | null;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function versionOf(r: Omit<Row, 'asset_id' | 'workspace' | 'path' | 'updated_ms' | 'deleted_ms'>): AssetVersion {
  return {
    version_id: r.version_id,
    asset_version: r.seq,
    size: r.size,
    mime: r.mime,
    md5hash: r.md5hash,
    sha256: r.sha256,
    ...(r.width !== null ? { width: r.width } : {}),
    ...(r.height !== null ? { height: r.height } : {}),
    ...(r.has_alpha !== null ? { has_alpha: r.has_alpha === 1 } : {}),
    ...(r.thumbhash !== null ? { thumbhash: r.thumbhash } : {}),
    created_at: iso(r.version_ms),
  };
}

function recordOf(r: Row): AssetRecord {
  const { folder, filename } = splitPath(r.path);
  return {
    asset_id: r.asset_id,
    workspace: r.workspace,
    path: r.path,
    filename,
    folder_id: folderId(folder),
    ...versionOf(r),
    updated_at: iso(r.updated_ms),
    deleted_at: r.deleted_ms === null ? null : iso(r.deleted_ms),
  };
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS dam_assets (asset_id TEXT PRIMARY KEY, workspace TEXT NOT NULL, path TEXT NOT NULL,
    folder TEXT NOT NULL, version_id TEXT NOT NULL, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, deleted_ms INTEGER);
  CREATE UNIQUE INDEX IF NOT EXISTS dam_assets_live_path ON dam_assets (workspace, path) WHERE deleted_ms IS NULL;
  CREATE INDEX IF NOT EXISTS dam_assets_live_folder ON dam_assets (workspace, folder, path) WHERE deleted_ms IS NULL;
  CREATE TABLE IF NOT EXISTS dam_versions (version_id TEXT PRIMARY KEY, asset_id TEXT NOT NULL, seq INTEGER NOT NULL,
    size INTEGER NOT NULL, mime TEXT, md5hash TEXT NOT NULL, sha256 TEXT NOT NULL, width INTEGER, height INTEGER,
    has_alpha INTEGER, thumbhash TEXT, created_ms INTEGER NOT NULL, deleted_ms INTEGER);
  CREATE INDEX IF NOT EXISTS dam_versions_by_asset ON dam_versions (asset_id, seq);
  CREATE INDEX IF NOT EXISTS dam_versions_live_blob ON dam_versions (sha256) WHERE deleted_ms IS NULL;
  CREATE TABLE IF NOT EXISTS dam_folders (workspace TEXT NOT NULL, path TEXT NOT NULL, parent TEXT NOT NULL,
    count INTEGER NOT NULL, PRIMARY KEY (workspace, path));
  CREATE INDEX IF NOT EXISTS dam_folders_by_parent ON dam_folders (workspace, parent, path);
`;

const SELECT = `SELECT a.asset_id, a.workspace, a.path, v.version_id, v.seq, v.size, v.mime, v.md5hash, v.sha256, v.width,
  v.height, v.has_alpha, v.thumbhash, v.created_ms AS version_ms, a.updated_ms, a.deleted_ms
  FROM dam_assets a JOIN dam_versions v ON v.version_id = a.version_id`;

export function openAssetStore(dataDir: string): AssetStore {
  const db: Database.Database = openPrivateSqlite(join(dataDir, 'service.sqlite'));
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  const root = join(dataDir, 'assets');
  const blobDir = join(root, 'blobs');
  const tmpDir = join(root, 'tmp');
  mkdirSync(blobDir, { recursive: true, mode: 0o700 });
  mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
  const blobPath = (sha256: string): string => join(blobDir, sha256.slice(0, 2), sha256);

  const byId = db.prepare(`${SELECT} WHERE a.asset_id = ? AND a.workspace = ? AND a.deleted_ms IS NULL`);
  const byPath = db.prepare(`${SELECT} WHERE a.workspace = ? AND a.path = ? AND a.deleted_ms IS NULL`);
  const versionRow = db.prepare(`SELECT a.asset_id, a.workspace, a.path, v.version_id, v.seq, v.size, v.mime, v.md5hash, v.sha256,
    v.width, v.height, v.has_alpha, v.thumbhash, v.created_ms AS version_ms, a.updated_ms, a.deleted_ms
    FROM dam_versions v JOIN dam_assets a ON a.asset_id = v.asset_id
    WHERE v.version_id = ? AND v.asset_id = ? AND a.workspace = ? AND a.deleted_ms IS NULL AND v.deleted_ms IS NULL`);
  const versionsOf = db.prepare(`SELECT version_id, seq, size, mime, md5hash, sha256, width, height, has_alpha, thumbhash,
    created_ms AS version_ms FROM dam_versions WHERE asset_id = ? AND deleted_ms IS NULL ORDER BY seq DESC`);
  const maxSeq = db.prepare('SELECT max(seq) AS seq FROM dam_versions WHERE asset_id = ?');
  const insertAsset = db.prepare(`INSERT INTO dam_assets (asset_id, workspace, path, folder, version_id, created_ms, updated_ms)
    VALUES (@asset_id, @workspace, @path, @folder, @version_id, @now, @now)`);
  const insertVersion = db.prepare(`INSERT INTO dam_versions (version_id, asset_id, seq, size, mime, md5hash, sha256, width, height,
    has_alpha, thumbhash, created_ms) VALUES (@version_id, @asset_id, @seq, @size, @mime, @md5hash, @sha256, @width, @height,
    @has_alpha, @thumbhash, @now)`);
  const setVersion = db.prepare('UPDATE dam_assets SET version_id = ?, updated_ms = ? WHERE asset_id = ?');
  const setPath = db.prepare('UPDATE dam_assets SET path = ?, folder = ?, updated_ms = ? WHERE asset_id = ?');
  const markAsset = db.prepare('UPDATE dam_assets SET deleted_ms = ? WHERE asset_id = ?');
  const markVersions = db.prepare('UPDATE dam_versions SET deleted_ms = ? WHERE asset_id = ? AND deleted_ms IS NULL RETURNING sha256');
  const blobInUse = db.prepare('SELECT 1 FROM dam_versions WHERE sha256 = ? AND deleted_ms IS NULL LIMIT 1');
  const folderUp = db.prepare(`INSERT INTO dam_folders (workspace, path, parent, count) VALUES (?, ?, ?, 1)
    ON CONFLICT (workspace, path) DO UPDATE SET count = count + 1`);
  const folderDown = db.prepare('UPDATE dam_folders SET count = count - 1 WHERE workspace = ? AND path = ?');
  const folderDrop = db.prepare('DELETE FROM dam_folders WHERE workspace = ? AND path = ? AND count <= 0');

  const countFolders = (workspace: string, path: string, delta: 1 | -1): void => {
    for (const folder of ancestorFolders(path)) {
      if (delta === 1) folderUp.run(workspace, folder, parentFolder(folder));
      else {
        folderDown.run(workspace, folder);
        folderDrop.run(workspace, folder);
      }
    }
  };
  const get = (workspace: string, assetId: string): AssetRecord | null => {
    const row = byId.get(assetId, workspace) as Row | undefined;
    return row ? recordOf(row) : null;
  };
  const live = (workspace: string, path: string): Row | undefined => byPath.get(workspace, path) as Row | undefined;

  /** Where a store lands: the path itself, or null when it is taken and the strategy says error. */
  const landing = (workspace: string, path: string, strategy: ConflictStrategy): { path: string; over: Row | null; renamed: boolean } | null => {
    const taken = live(workspace, path);
    if (!taken) return { path, over: null, renamed: false };
    if (strategy === 'overwrite') return { path, over: taken, renamed: false };
    if (strategy === 'error') return null;
    for (let n = 1; ; n++) {
      const candidate = renamedPath(path, n);
      if (!live(workspace, candidate)) return { path: candidate, over: null, renamed: true };
    }
  };

  // Synchronous from the check to the insert: no other store or delete runs in between (one thread).
  const commit = db.transaction((workspace: string, path: string, content: NewContent, strategy: ConflictStrategy, now: number): StoreResult => {
    const where = landing(workspace, path, strategy);
    if (!where) return { ok: false, code: 'exists', path };
    const assetId = where.over?.asset_id ?? newAssetId();
    const versionId = newAssetId();
    const seq = where.over ? ((maxSeq.get(assetId) as { seq: number }).seq ?? 0) + 1 : 1;
    insertVersion.run({
      version_id: versionId,
      asset_id: assetId,
      seq,
      size: content.size,
      mime: content.mime,
      md5hash: content.md5hash,
      sha256: content.sha256,
      width: content.width ?? null,
      height: content.height ?? null,
      has_alpha: content.has_alpha === undefined || content.has_alpha === null ? null : content.has_alpha ? 1 : 0,
      thumbhash: content.thumbhash ?? null,
      now,
    });
    if (where.over) setVersion.run(versionId, now, assetId);
    else {
      insertAsset.run({ asset_id: assetId, workspace, path: where.path, folder: splitPath(where.path).folder, version_id: versionId, now });
      countFolders(workspace, where.path, 1);
    }
    return { ok: true, asset: get(workspace, assetId)!, renamed: where.renamed, newVersion: where.over !== null };
  });

  const moveAll = db.transaction((workspace: string, ids: string[], to: (a: AssetRecord) => string, now: number): MoveResult => {
    const current = ids.map((id) => get(workspace, id));
    const missing = ids.filter((_, i) => current[i] === null);
    if (missing.length > 0) return { ok: false, code: 'not_found', assetIds: missing };
    const targets = current.map((a) => to(a!));
    const moving = new Set(ids);
    const seen = new Set<string>();
    for (const [i, path] of targets.entries()) {
      const taken = live(workspace, path);
      // A path is free when nobody holds it, or when the asset holding it moves away in the same call.
      if (seen.has(path) || (taken && taken.asset_id !== ids[i] && !moving.has(taken.asset_id))) return { ok: false, code: 'exists', path };
      seen.add(path);
    }
    // Two steps so assets swapping places never meet the unique index halfway.
    for (const [i, id] of ids.entries()) {
      countFolders(workspace, current[i]!.path, -1);
      setPath.run(`//moving/${id}`, '//', now, id); // never a valid path
    }
    for (const [i, id] of ids.entries()) {
      setPath.run(targets[i]!, splitPath(targets[i]!).folder, now, id);
      countFolders(workspace, targets[i]!, 1);
    }
    return { ok: true, assets: ids.map((id) => get(workspace, id)!) };
  });

  const deleteAll = db.transaction((workspace: string, ids: string[], now: number) => {
    const current = ids.map((id) => get(workspace, id));
    const missing = ids.filter((_, i) => current[i] === null);
    if (missing.length > 0) return { ok: false as const, assetIds: missing };
    const blobs = new Set<string>();
    for (const [i, id] of ids.entries()) {
      markAsset.run(now, id);
      for (const r of markVersions.all(now, id) as { sha256: string }[]) blobs.add(r.sha256);
      countFolders(workspace, current[i]!.path, -1);
    }
    return { ok: true as const, blobs };
  });

  // Prepared once per shape of list query.
  const listStatements = new Map<string, Database.Statement>();
  const listStatement = (delimiter: boolean, bounded: boolean): Database.Statement => {
    const key = `${delimiter}:${bounded}`;
    let s = listStatements.get(key);
    if (!s) {
      s = db.prepare(`${SELECT} WHERE a.workspace = @workspace AND a.deleted_ms IS NULL ${delimiter ? 'AND a.folder = @folder' : ''}
        AND a.path >= @lo ${bounded ? 'AND a.path < @hi' : ''} AND a.path > @after ORDER BY a.path LIMIT @limit`);
      listStatements.set(key, s);
    }
    return s;
  };
  const foldersIn = db.prepare('SELECT path FROM dam_folders WHERE workspace = @workspace AND parent = @folder AND path >= @lo AND path < @hi AND count > 0 ORDER BY path');
  const foldersInUnbounded = db.prepare('SELECT path FROM dam_folders WHERE workspace = @workspace AND parent = @folder AND path >= @lo AND count > 0 ORDER BY path');

  return {
    async store(workspace, path, content, strategy, nowMs) {
      if (strategy === 'error' && live(workspace, path)) return { ok: false, code: 'exists', path };
      // The bytes are copied aside first (slow), then put in place and recorded in one synchronous step.
      const tmp = join(tmpDir, newAssetId());
      await copyFile(content.localPath, tmp);
      const blob = blobPath(content.sha256);
      try {
        await mkdir(join(blobDir, content.sha256.slice(0, 2)), { recursive: true });
        if (existsSync(blob)) unlinkSync(tmp);
        else renameSync(tmp, blob);
        const result = commit(workspace, path, content, strategy, nowMs);
        if (!result.ok && !blobInUse.get(content.sha256)) unlinkSync(blob);
        return result;
      } finally {
        await rm(tmp, { force: true });
      }
    },
    get,
    getVersion(workspace, assetId, versionId) {
      const row = versionRow.get(versionId, assetId, workspace) as Row | undefined;
      return row ? recordOf(row) : null;
    },
    byPath(workspace, path) {
      const row = live(workspace, path);
      return row ? recordOf(row) : null;
    },
    versions: (workspace, assetId) => (get(workspace, assetId) ? (versionsOf.all(assetId) as Row[]).map(versionOf) : []),
    blobPath,
    list(workspace, q) {
      const hi = prefixEnd(q.prefix);
      const folder = splitPath(q.prefix).folder;
      const rows = listStatement(q.delimiter, hi !== null).all({ workspace, folder, lo: q.prefix, hi, after: q.after, limit: q.limit + 1 }) as Row[];
      const more = rows.length > q.limit;
      const page = rows.slice(0, q.limit);
      // Folders come with the first page of a delimited list (all of that level), not again with later pages.
      const folders =
        q.delimiter && q.after === ''
          ? ((hi === null ? foldersInUnbounded : foldersIn).all({ workspace, folder, lo: q.prefix, hi }) as { path: string }[]).map((r) => r.path)
          : [];
      return { assets: page.map(recordOf), folders, lastPath: page.at(-1)?.path ?? null, more };
    },
    move: (workspace, ids, to, nowMs) => moveAll(workspace, ids, to, nowMs),
    delete(workspace, ids, nowMs) {
      const result = deleteAll(workspace, ids, nowMs);
      if (!result.ok) return result;
      for (const sha of result.blobs) {
        if (blobInUse.get(sha)) continue;
        try {
          unlinkSync(blobPath(sha));
        } catch {
          // Already gone: nothing to free.
        }
      }
      return { ok: true, deletedAt: iso(nowMs) };
    },
    close: () => db.close(),
  };
}
