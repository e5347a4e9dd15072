import { stepsSchema, type Steps } from '../../../shared/api/instructions';
import { ASSET_BULK_LIMIT, type Asset, type AssetBulkResult, type AssetDetail, type AssetListPage } from '../../../shared/ipc/asset-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { getTemplate } from '../templates/template-api';
import { chunk, destinationId, folderMoveProblem, groupByDestination, listPrefix, movedFolderOf, useAsInputSteps } from './asset-plans';
import { toAsset, toDetail, toListPage } from './asset-records';

// The stored-asset endpoints (docs/local-service.md "Stored assets"): GET/PATCH/DELETE /dam/assets…, the
// bulk moves and deletes, and the bytes at /content. Signed like every other call, or a Bearer token with
// dam:read / dam:write (shared/api/required-scope.ts).

const assetPath = (assetId: string): string => `/dam/assets/${encodeURIComponent(assetId)}`;

export interface ListOptions {
  prefix: string;
  cursor?: string | undefined;
  limit: number;
  delimiter?: '/' | undefined;
}

/** `GET /dam/assets`: one page, path ascending; with `/` as delimiter one folder level. */
export async function listAssets(api: ApiClient, options: ListOptions): Promise<Result<AssetListPage>> {
  const prefix = listPrefix(options.prefix);
  const params: Record<string, unknown> = { limit: options.limit };
  if (prefix) params.prefix = prefix;
  if (options.cursor) params.cursor = options.cursor;
  if (options.delimiter) params.delimiter = options.delimiter;
  const answer = await api.request('GET', '/dam/assets', params);
  if (!answer.ok) return answer;
  if (!Array.isArray(answer.value.assets)) return err(AppErrorCode.invalidResponse, 'The service answered the asset list without assets.');
  return ok(toListPage(answer.value, prefix));
}

/** `GET /dam/assets/{id}` (optionally one version): a missing version is the service's error, never the current bytes. */
export async function getAsset(api: ApiClient, assetId: string, versionId?: string): Promise<Result<AssetDetail>> {
  const answer = await api.request('GET', assetPath(assetId), versionId ? { version_id: versionId } : {});
  if (!answer.ok) return answer;
  const detail = toDetail(answer.value, versionId ?? null);
  return detail ? ok(detail) : err(AppErrorCode.invalidResponse, 'The service answered without the asset.');
}

const movedAsset = (body: Record<string, unknown>): Result<Asset> => {
  const asset = toAsset(body.asset) ?? toAsset(body);
  return asset ? ok(asset) : err(AppErrorCode.invalidResponse, 'The service answered the move without the asset.');
};

/** `PATCH /dam/assets/{id}` with `filename`: same folder, new name (the service checks the filename rule). */
export async function renameAsset(api: ApiClient, assetId: string, filename: string): Promise<Result<Asset>> {
  const answer = await api.request('PATCH', assetPath(assetId), { filename });
  return answer.ok ? movedAsset(answer.value) : answer;
}

/** `PATCH /dam/assets/{id}` with `destination_folder_id` (a folder path, null = the root). */
export async function moveAsset(api: ApiClient, assetId: string, folder: string): Promise<Result<Asset>> {
  const answer = await api.request('PATCH', assetPath(assetId), { destination_folder_id: destinationId(folder) });
  return answer.ok ? movedAsset(answer.value) : answer;
}

export async function deleteAsset(api: ApiClient, assetId: string): Promise<Result<{ assetId: string }>> {
  const answer = await api.request('DELETE', assetPath(assetId));
  return answer.ok ? ok({ assetId }) : answer;
}

/** Every asset under a folder (all depths), read in pages of 500. */
export async function assetsUnder(api: ApiClient, folder: string): Promise<Result<Asset[]>> {
  const all: Asset[] = [];
  let cursor: string | undefined;
  do {
    const page = await listAssets(api, { prefix: folder, cursor, limit: 500 });
    if (!page.ok) return page;
    all.push(...page.value.assets);
    cursor = page.value.nextCursor ?? undefined;
  } while (cursor);
  return ok(all);
}

/** Sends `ids` in requests of the service's bulk limit; one refused request does not stop the others. */
async function inChunks(ids: readonly string[], send: (part: string[]) => Promise<Result<unknown>>, result: AssetBulkResult): Promise<void> {
  for (const part of chunk(ids, ASSET_BULK_LIMIT)) {
    const answer = await send(part);
    if (answer.ok) result.done += part.length;
    else result.failed.push({ assetIds: part, code: answer.error.code, message: answer.error.message });
  }
}

export interface BulkTargets {
  assetIds: readonly string[];
  folders: readonly string[];
}

/**
 * Moves assets into `destination` and folders (with everything under them) into it as subfolders:
 * `POST /dam/assets/bulk_move`, 100 ids per request, one destination per request.
 */
export async function bulkMove(api: ApiClient, targets: BulkTargets, destination: string): Promise<Result<AssetBulkResult>> {
  for (const folder of targets.folders) {
    const problem = folderMoveProblem(folder, destination);
    if (problem) return err('DAM_INVALID_PARAMS', problem);
  }
  const moves: Array<{ assetId: string; folder: string }> = targets.assetIds.map((assetId) => ({ assetId, folder: destinationId(destination) ?? '' }));
  for (const folder of targets.folders) {
    const under = await assetsUnder(api, folder);
    if (!under.ok) return under;
    for (const asset of under.value) moves.push({ assetId: asset.assetId, folder: movedFolderOf(asset.path, folder, destination) });
  }
  const result: AssetBulkResult = { done: 0, failed: [] };
  for (const [folder, ids] of groupByDestination(moves)) {
    await inChunks(ids, (asset_ids) => api.request('POST', '/dam/assets/bulk_move', { asset_ids, destination_folder_id: destinationId(folder) }), result);
  }
  return ok(result);
}

/** Deletes assets and every asset under the folders: `POST /dam/assets/bulk_delete`, 100 ids per request. */
export async function bulkDelete(api: ApiClient, targets: BulkTargets): Promise<Result<AssetBulkResult>> {
  const ids = new Set(targets.assetIds);
  for (const folder of targets.folders) {
    const under = await assetsUnder(api, folder);
    if (!under.ok) return under;
    for (const asset of under.value) ids.add(asset.assetId);
  }
  const result: AssetBulkResult = { done: 0, failed: [] };
  await inChunks([...ids], (asset_ids) => api.request('POST', '/dam/assets/bulk_delete', { asset_ids }), result);
  return ok(result);
}

/** `GET /dam/assets/{id}/content` (optionally one version): the open response, for a download or a thumbnail. */
export const openContent = (api: ApiClient, assetId: string, versionId?: string, timeoutMs?: number): Promise<Result<Response>> =>
  api.openStream(`${assetPath(assetId)}/content`, versionId ? { version_id: versionId } : {}, timeoutMs);

/** The file name a content response names (`Content-Disposition`), else `fallback`. */
export function dispositionName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // a malformed encoding: try the plain form
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || fallback;
}

/**
 * "Use as input": an Assembly whose `imported` step brings the assets in, then a Template's steps or the
 * user's, each `use` of `:original` reading the import instead. With a Template, its steps are read first
 * and sent rewritten beside `template_id` (a Template that forbids step overrides refuses, with its code).
 */
export async function useAsInput(
  api: ApiClient,
  input: { assetIds: readonly string[]; templateId?: string | undefined; steps?: Steps | undefined; fields?: Record<string, string> | undefined },
): Promise<Result<{ assemblyId: string }>> {
  let base: Steps | null = input.steps ?? null;
  if (input.templateId) {
    const template = await getTemplate(api, input.templateId);
    if (!template.ok) return template;
    const content = template.value.content as { steps?: unknown } | null;
    const parsed = stepsSchema.safeParse(content?.steps ?? {});
    base = parsed.success ? parsed.data : {};
  }
  const steps = useAsInputSteps(input.assetIds, base);
  const instructions = { steps, ...(input.templateId ? { template_id: input.templateId } : {}), ...(input.fields ? { fields: input.fields } : {}) };
  const status = await api.createAssembly({ instructions, expectedUploads: 0 });
  if (!status.ok) return status;
  // An Assembly that failed after it was created is still opened: its page says why.
  const id = status.value.assembly_id;
  return typeof id === 'string' && id ? ok({ assemblyId: id }) : err(AppErrorCode.invalidResponse, 'The service answered without an Assembly id.');
}
