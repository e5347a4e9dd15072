// /transloadit/import: brings stored assets into the Assembly as files of this step (docs/local-service.md
// "Stored assets"), by `asset_ids` and/or `paths` (a string or a list each). `version_ids` (a list beside
// `asset_ids`, or `version_id` for a single asset) picks exact versions; a missing or deleted asset or
// version fails the step with DAM_ASSET_NOT_FOUND / DAM_ASSET_VERSION_NOT_FOUND, never another version.
// Each file is a hard link (else a copy) of the version's bytes in the step's folder, so deleting the
// asset later leaves the Assembly's files whole.

import { copyFile, link } from 'node:fs/promises';
import { DamError } from '../assets/asset-params';
import type { AssetRecord } from '../assets/asset-store';
import { describeUpload, newFileId, type StoredFile } from './file-record';
import { outputDir, outputFile } from './output-path';
import type { RobotFileOutcome, SourceRunner } from './robot-types';

const fail = (code: string, message: string): RobotFileOutcome => ({ ok: false, code, message });
const list = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export interface ImportRequest {
  assetIds: { assetId: string; versionId: string | null }[];
  paths: string[];
}

/** What an import step asks for. Pure. */
export function importRequest(params: Record<string, unknown>): ImportRequest {
  const ids = list(params.asset_ids);
  const versions = params.version_ids !== undefined ? list(params.version_ids) : typeof params.version_id === 'string' && ids.length === 1 ? [params.version_id] : [];
  return {
    assetIds: ids.map((assetId, i) => ({ assetId, versionId: versions[i] && versions[i] !== '' ? versions[i] : null })),
    paths: list(params.paths).map((p) => p.replace(/^\/+/, '')),
  };
}

export const runTransloaditImport: SourceRunner = async ({ params, assets, outDir }) => {
  if (!assets) return fail('TRANSLOADIT_IMPORT_ERROR', '/transloadit/import: this service keeps no stored assets.');
  const want = importRequest(params);
  const found: AssetRecord[] = [];
  for (const { assetId, versionId } of want.assetIds) {
    const asset = assets.store.get(assets.workspace, assetId);
    if (!asset) return fail(DamError.assetNotFound, `/transloadit/import: no stored asset ${assetId}.`);
    const version = versionId ? assets.store.getVersion(assets.workspace, assetId, versionId) : asset;
    if (!version) return fail(DamError.versionNotFound, `/transloadit/import: the asset ${assetId} has no version ${versionId!} (or it was deleted).`);
    found.push(version);
  }
  for (const path of want.paths) {
    const asset = assets.store.byPath(assets.workspace, path);
    if (!asset) return fail(DamError.assetNotFound, `/transloadit/import: no stored asset at "${path}".`);
    found.push(asset);
  }
  const files: StoredFile[] = [];
  for (const asset of found) {
    const id = newFileId();
    const localPath = outputFile(await outputDir(outDir, id), asset.filename);
    const blob = assets.store.blobPath(asset.sha256);
    await link(blob, localPath).catch(() => copyFile(blob, localPath));
    const file = await describeUpload({ localPath, name: asset.filename, id, size: asset.size, digests: { md5: asset.md5hash, sha256: asset.sha256 } });
    files.push({ ...file, field: null, workspace: asset.workspace, asset_id: asset.asset_id, version_id: asset.version_id, asset_version: asset.asset_version, path: asset.path });
  }
  return { ok: true, files };
};
