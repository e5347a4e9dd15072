// /transloadit/store: keeps each input file as a stored asset of the workspace (docs/local-service.md
// "Stored assets"). `path` (default `${file.name}`, Assembly variables resolved) names the asset;
// `conflict_strategy` says what a taken path does: error (default) fails the step with DAM_ASSET_EXISTS,
// rename stores beside it as "name (1).ext", overwrite makes a new version of the same asset_id.
// The file passes on with the receipt fields (workspace, asset_id, version_id, path, …).

import { pathProblem } from '../assets/asset-paths';
import { DamError } from '../assets/asset-params';
import type { ConflictStrategy } from '../assets/asset-store';
import { digestFile, newFileId } from './file-record';
import type { RobotFileOutcome, RobotRunner } from './robot-types';
import { collapseSlashes } from './storage/store-path';

export const CONFLICT_STRATEGIES = ['error', 'rename', 'overwrite'] as const;

const fail = (code: string, message: string): RobotFileOutcome => ({ ok: false, code, message });

/** The asset path a store step asks for: `path` as given (empty folders and a leading "/" dropped), else the file's name. Pure. */
export function storePath(params: Record<string, unknown>, fileName: string): string {
  const asked = typeof params.path === 'string' && params.path !== '' ? params.path : fileName;
  return collapseSlashes(asked).replace(/^\//, '');
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);

export const runTransloaditStore: RobotRunner = async ({ params, input, assets }) => {
  if (!assets) return fail('TRANSLOADIT_STORE_ERROR', '/transloadit/store: this service keeps no stored assets.');
  const path = storePath(params, input.name);
  const problem = pathProblem(path);
  if (problem) return fail('TRANSLOADIT_STORE_VALIDATION', `/transloadit/store: path ${JSON.stringify(path)} is not a valid asset path: ${problem}.`);
  const strategy = (typeof params.conflict_strategy === 'string' ? params.conflict_strategy : 'error') as ConflictStrategy;
  // Records made before sha256 existed (or without a streamed digest) are hashed here, in one read.
  const digests = input.md5hash && input.sha256 ? { md5: input.md5hash, sha256: input.sha256 } : await digestFile(input.localPath);
  const stored = await assets.store.store(
    assets.workspace,
    path,
    {
      localPath: input.localPath,
      size: input.size,
      mime: input.mime,
      md5hash: digests.md5,
      sha256: digests.sha256,
      width: num(input.meta.width),
      height: num(input.meta.height),
      has_alpha: input.has_alpha ?? null,
      thumbhash: input.thumbhash ?? null,
    },
    strategy,
    Date.now(),
  );
  if (!stored.ok) {
    return fail(DamError.assetExists, `/transloadit/store: an asset already exists at "${stored.path}" (conflict_strategy "error"); use "rename" or "overwrite" to store beside it or as a new version.`);
  }
  const a = stored.asset;
  return {
    ok: true,
    files: [
      {
        ...input,
        id: newFileId(),
        md5hash: a.md5hash,
        sha256: a.sha256,
        workspace: a.workspace,
        asset_id: a.asset_id,
        version_id: a.version_id,
        asset_version: a.asset_version,
        path: a.path,
        meta: { ...input.meta, version_id: a.version_id },
      },
    ],
  };
};
