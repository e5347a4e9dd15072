// The parameters of the /dam/assets endpoints, checked (docs/local-service.md "Stored assets"). Pure.

import { ASSET_ID, decodeCursor, MAX_PATH } from './asset-paths';
import type { ListQuery } from './asset-store';

export const DamError = {
  assetNotFound: 'DAM_ASSET_NOT_FOUND',
  versionNotFound: 'DAM_ASSET_VERSION_NOT_FOUND',
  invalidFilename: 'DAM_INVALID_FILENAME',
  invalidAssetIds: 'DAM_INVALID_ASSET_IDS',
  invalidParams: 'DAM_INVALID_PARAMS',
  assetExists: 'DAM_ASSET_EXISTS',
} as const;

export const DamOk = {
  listed: 'DAM_ASSETS_LISTED',
  found: 'DAM_ASSET_FOUND',
  moved: 'DAM_ASSET_MOVED',
  deleted: 'DAM_ASSET_DELETED',
  bulkDeleted: 'DAM_ASSETS_DELETED',
} as const;

export const LIST_LIMIT = { min: 1, max: 500, default: 100 } as const;
export const BULK_MAX = 100;

type Params = Record<string, unknown>;
export type Checked<T> = { ok: true; value: T } | { ok: false; code: string; message: string };
const bad = (code: string, message: string): { ok: false; code: string; message: string } => ({ ok: false, code, message });

/** `prefix`, `cursor`, `limit` (1..500, default 100) and `delimiter` ("/" or absent). */
export function parseListParams(p: Params): Checked<ListQuery> {
  const prefix = p.prefix ?? '';
  if (typeof prefix !== 'string' || prefix.length > MAX_PATH) return bad(DamError.invalidParams, `prefix must be a text of at most ${MAX_PATH} characters, such as "photos/".`);
  let limit: number = LIST_LIMIT.default;
  if (p.limit !== undefined && p.limit !== null) {
    const n = typeof p.limit === 'string' && /^\d+$/.test(p.limit) ? Number(p.limit) : p.limit;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < LIST_LIMIT.min || n > LIST_LIMIT.max) {
      return bad(DamError.invalidParams, `limit must be a whole number from ${LIST_LIMIT.min} to ${LIST_LIMIT.max} (got ${JSON.stringify(p.limit)}).`);
    }
    limit = n;
  }
  let after = '';
  if (p.cursor !== undefined && p.cursor !== null && p.cursor !== '') {
    const decoded = typeof p.cursor === 'string' ? decodeCursor(p.cursor) : null;
    if (decoded === null) return bad(DamError.invalidParams, 'cursor is not one this service gave: pass next_cursor from the previous page unchanged.');
    after = decoded;
  }
  const d = p.delimiter;
  if (d !== undefined && d !== null && d !== '' && d !== '/') return bad(DamError.invalidParams, `delimiter can only be "/" (got ${JSON.stringify(d)}).`);
  return { ok: true, value: { prefix, after, limit, delimiter: d === '/' } };
}

/**
 * `version_id` when given: null when absent. One that cannot be a version id (the spec's pattern) is a bad
 * parameter, 400 (issue 25: it was 404 "version not found", as if it could have existed).
 */
export function parseVersionId(p: Params): Checked<string | null> {
  const v = p.version_id;
  if (v === undefined || v === null || v === '') return { ok: true, value: null };
  if (typeof v !== 'string' || !ASSET_ID.test(v)) {
    return bad(DamError.invalidParams, `version_id must be 22 characters of A-Z, a-z, 0-9, - and _, ending in A, Q, g or w (got ${JSON.stringify(v).slice(0, 60)}).`);
  }
  return { ok: true, value: v };
}

/** 1..100 unique asset ids of the right pattern. */
export function parseAssetIds(v: unknown): Checked<string[]> {
  if (!Array.isArray(v) || v.length === 0) return bad(DamError.invalidAssetIds, `asset_ids must be a list of 1 to ${BULK_MAX} asset ids.`);
  if (v.length > BULK_MAX) return bad(DamError.invalidAssetIds, `asset_ids holds ${v.length} ids; at most ${BULK_MAX} are allowed per request.`);
  const seen = new Set<string>();
  for (const id of v) {
    if (typeof id !== 'string' || !ASSET_ID.test(id)) return bad(DamError.invalidAssetIds, `${JSON.stringify(id)} is not an asset id (22 characters, ^[A-Za-z0-9_-]{21}[AQgw]$).`);
    if (seen.has(id)) return bad(DamError.invalidAssetIds, `asset_ids holds ${id} more than once.`);
    seen.add(id);
  }
  return { ok: true, value: [...seen] };
}
