// The /dam/assets endpoints (docs/local-service.md "Stored assets"): list, read (optionally one version),
// content download, move/rename, delete, bulk move and bulk delete. Signed params (or a Bearer token);
// reads need assemblies:read, writes assemblies:write (shared/api/required-scope.ts).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { authorizedParams } from '../auth/authorized-params';
import { apiError, sendError, sendJson, type ApiError } from '../http/api-error';
import { serveFile } from '../http/serve-file';
import type { ServiceDatabase } from '../store/database';
import { ASSET_ID, encodeCursor, filenameProblem, folderPrefix, MAX_PATH, splitPath } from './asset-paths';
import { DamError, DamOk, parseAssetIds, parseListParams, parseVersionId } from './asset-params';
import type { AssetRecord, AssetStore, MoveResult } from './asset-store';

export interface AssetRouteContext {
  db: ServiceDatabase;
  assets: AssetStore;
  /** The workspace every asset of this service belongs to. */
  workspace: string;
}

const ASSET = /^\/dam\/assets\/([^/]+)\/?$/;
const CONTENT = /^\/dam\/assets\/([^/]+)\/content\/?$/;
const BULK = /^\/dam\/assets\/bulk_(move|delete)\/?$/;

const notFound = (id: string): ApiError => apiError(DamError.assetNotFound, `No stored asset ${id} was found.`, 404, { asset_id: id });
const versionNotFound = (id: string, versionId: string): ApiError =>
  apiError(DamError.versionNotFound, `The asset ${id} has no version ${versionId} (or it was deleted).`, 404, { asset_id: id, version_id: versionId });
const invalid = (code: string, message: string): ApiError => apiError(code, message, 400);

/** Read selections (prefix, cursor, version_id…) may also come as plain query fields; writes only from the signed params. */
const readParams = (params: Record<string, unknown>, query: URLSearchParams): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...params };
  for (const key of ['prefix', 'cursor', 'limit', 'delimiter', 'version_id']) if (out[key] === undefined && query.has(key)) out[key] = query.get(key);
  return out;
};

const withVersions = (store: AssetStore, workspace: string, asset: AssetRecord) => ({ ...asset, versions: store.versions(workspace, asset.asset_id) });

/** One asset as asked: its current version, or the version named (never the current bytes in its place). */
function findAsset(ctx: AssetRouteContext, id: string, versionId: string | null): AssetRecord | ApiError {
  const asset = ASSET_ID.test(id) ? ctx.assets.get(ctx.workspace, id) : null;
  if (!asset) return notFound(id);
  if (versionId === null) return asset;
  return ctx.assets.getVersion(ctx.workspace, id, versionId) ?? versionNotFound(id, versionId);
}

const isError = (v: unknown): v is ApiError => typeof v === 'object' && v !== null && 'httpCode' in v;

function movedError(r: Exclude<MoveResult, { ok: true }>): ApiError {
  if (r.code === 'not_found') return apiError(DamError.assetNotFound, `No stored asset ${r.assetIds.join(', ')} was found.`, 404, { asset_ids: r.assetIds });
  return apiError(DamError.assetExists, `An asset already exists at "${r.path}": move or rename that one first, or choose another name.`, 409, { path: r.path });
}

/** The new path for a move/rename, or why there is none. */
function destination(asset: AssetRecord, params: Record<string, unknown>): string | ApiError {
  const hasFolder = Object.prototype.hasOwnProperty.call(params, 'destination_folder_id');
  const hasName = params.filename !== undefined;
  if (!hasFolder && !hasName) return invalid(DamError.invalidParams, 'Give destination_folder_id (a folder path, or null for the root) and/or filename.');
  let folder = splitPath(asset.path).folder;
  if (hasFolder) {
    const parsed = folderPrefix(params.destination_folder_id);
    if ('problem' in parsed) return invalid(DamError.invalidParams, `${parsed.problem}.`);
    folder = parsed.prefix;
  }
  let filename = asset.filename;
  if (hasName) {
    if (typeof params.filename !== 'string') return invalid(DamError.invalidFilename, 'filename must be a text.');
    const problem = filenameProblem(params.filename);
    if (problem) return invalid(DamError.invalidFilename, `${problem[0]!.toUpperCase()}${problem.slice(1)} (got ${JSON.stringify(params.filename)}).`);
    filename = params.filename;
  }
  const path = `${folder}${filename}`;
  return path.length > MAX_PATH ? invalid(DamError.invalidParams, `The new path would be longer than ${MAX_PATH} characters.`) : path;
}

/** Handles a /dam/assets… request; false for paths that are not asset paths. */
export async function routeAssets(ctx: AssetRouteContext, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
  const method = req.method ?? 'GET';
  const isList = path === '/dam/assets' || path === '/dam/assets/';
  const bulk = BULK.exec(path)?.[1];
  const contentOf = CONTENT.exec(path)?.[1];
  const assetOf = bulk || contentOf ? undefined : ASSET.exec(path)?.[1];
  if (!isList && !bulk && !contentOf && !assetOf) return false;

  const auth = await authorizedParams(ctx.db, req, query);
  if (!auth.ok) {
    sendError(res, auth.error);
    return true;
  }
  const params = auth.params;
  const send = (e: ApiError): true => (sendError(res, e), true);
  const now = Date.now();
  const methodNotAllowed = (): true => send(apiError(ErrorCode.server404, 'unknown method / url', 404));

  if (isList) {
    if (method !== 'GET') return methodNotAllowed();
    const q = parseListParams(readParams(params, query));
    if (!q.ok) return send(invalid(q.code, q.message));
    const page = ctx.assets.list(ctx.workspace, q.value);
    sendJson(res, 200, {
      ok: DamOk.listed,
      message: `${page.assets.length} stored asset(s) listed.`,
      workspace: ctx.workspace,
      prefix: q.value.prefix,
      assets: page.assets,
      ...(q.value.delimiter ? { folders: page.folders } : {}),
      next_cursor: page.more && page.lastPath !== null ? encodeCursor(page.lastPath) : null,
    });
    return true;
  }

  if (bulk) {
    if (method !== 'POST') return methodNotAllowed();
    const ids = parseAssetIds(params.asset_ids);
    if (!ids.ok) return send(invalid(ids.code, ids.message));
    if (bulk === 'delete') {
      const r = ctx.assets.delete(ctx.workspace, ids.value, now);
      if (!r.ok) return send(apiError(DamError.assetNotFound, `No stored asset ${r.assetIds.join(', ')} was found; nothing was deleted.`, 404, { asset_ids: r.assetIds }));
      sendJson(res, 200, { ok: DamOk.bulkDeleted, message: `${ids.value.length} asset(s) deleted.`, assets: ids.value.map((asset_id) => ({ asset_id, deleted_at: r.deletedAt })) });
      return true;
    }
    if (!Object.prototype.hasOwnProperty.call(params, 'destination_folder_id')) return send(invalid(DamError.invalidParams, 'destination_folder_id is required: a folder path such as "photos/2026", or null for the root.'));
    const folder = folderPrefix(params.destination_folder_id);
    if ('problem' in folder) return send(invalid(DamError.invalidParams, `${folder.problem}.`));
    const r = ctx.assets.move(ctx.workspace, ids.value, (a) => `${folder.prefix}${a.filename}`, now);
    if (!r.ok) return send(movedError(r));
    // The spec's DAM_ASSET_MOVED shape (issue 25): the fields of the asset moved (the first, for several),
    // and every moved asset in `assets` (extra properties are allowed).
    const first = r.assets[0]!;
    sendJson(res, 200, {
      ok: DamOk.moved,
      message: `${r.assets.length} asset(s) moved.`,
      asset: first,
      asset_id: first.asset_id,
      deleted_at: null,
      filename: first.filename,
      folder_id: first.folder_id,
      path: first.path,
      updated_at: first.updated_at,
      assets: r.assets,
    });
    return true;
  }

  if (contentOf) {
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed();
    const v = parseVersionId(readParams(params, query));
    if (!v.ok) return send(invalid(v.code, v.message));
    const asset = findAsset(ctx, contentOf, v.value);
    if (isError(asset)) return send(asset);
    // A version's bytes never change: the browser may keep them.
    const served = await serveFile(req, res, ctx.assets.blobPath(asset.sha256), asset.mime, asset.filename, 'private, max-age=31536000, immutable', 'attachment');
    if (!served) send(apiError(DamError.versionNotFound, `The bytes of ${asset.asset_id} version ${asset.version_id} are missing.`, 404, { asset_id: asset.asset_id }));
    return true;
  }

  const id = assetOf!;
  if (method === 'GET') {
    const v = parseVersionId(readParams(params, query));
    if (!v.ok) return send(invalid(v.code, v.message));
    const asset = findAsset(ctx, id, v.value);
    if (isError(asset)) return send(asset);
    sendJson(res, 200, { ok: DamOk.found, message: 'Stored asset found.', workspace: ctx.workspace, asset: withVersions(ctx.assets, ctx.workspace, asset) });
    return true;
  }
  if (method === 'PATCH' || method === 'PUT') {
    const asset = findAsset(ctx, id, null);
    if (isError(asset)) return send(asset);
    const to = destination(asset, params);
    if (isError(to)) return send(to);
    const r = ctx.assets.move(ctx.workspace, [id], () => to, now);
    if (!r.ok) return send(movedError(r));
    const moved = r.assets[0]!;
    sendJson(res, 200, {
      ok: DamOk.moved,
      message: moved.path === asset.path ? 'The asset is already there.' : `The asset moved to ${moved.path}.`,
      asset: moved,
      asset_id: moved.asset_id,
      deleted_at: null,
      filename: moved.filename,
      folder_id: moved.folder_id,
      path: moved.path,
      updated_at: moved.updated_at,
    });
    return true;
  }
  if (method === 'DELETE') {
    if (!ASSET_ID.test(id)) return send(notFound(id));
    const r = ctx.assets.delete(ctx.workspace, [id], now);
    if (!r.ok) return send(notFound(id));
    sendJson(res, 200, { ok: DamOk.deleted, message: 'The asset was deleted.', asset_id: id, deleted_at: r.deletedAt });
    return true;
  }
  return methodNotAllowed();
}
