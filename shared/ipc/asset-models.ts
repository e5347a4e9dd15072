import { z } from 'zod';
import { stepsSchema } from '../api/instructions';

/** Stored assets one "Use as input" Assembly takes at most (one import step's list). */
export const USE_AS_INPUT_MAX = 10_000;

/** Stored assets (spec "Stored assets"): ids are 22-character Base64URL whose last character is A, Q, g or w. */
export const ASSET_ID_PATTERN = /^[A-Za-z0-9_-]{21}[AQgw]$/;
export const assetIdSchema = z.string().regex(ASSET_ID_PATTERN, 'Not a stored asset id.');

/** One bulk request of the service takes at most this many ids (spec: bulk move 1..100). */
export const ASSET_BULK_LIMIT = 100;
/** What one bulk channel takes: core sends it in requests of ASSET_BULK_LIMIT. */
export const ASSET_BULK_CHANNEL_MAX = 100_000;

/**
 * A folder path as the asset API names folders (the spec's folders are path prefixes): `photos/2026`,
 * no leading or trailing slash; '' (or null on the wire) is the root.
 */
export const folderPathSchema = z
  .string()
  .max(4096)
  .transform((p) => p.replace(/^\/+|\/+$/g, ''))
  .refine((p) => !p.split('/').some((s) => s === '' || s === '.' || s === '..') || p === '', 'A folder path has no empty, "." or ".." parts.');

/** An asset as the list and the details show it (core reads the service's record leniently into this). */
export const assetSchema = z.object({
  assetId: z.string(),
  versionId: z.string().nullable(),
  path: z.string(),
  /** The last part of the path. */
  filename: z.string(),
  mime: z.string().nullable(),
  size: z.number().nullable(),
  md5hash: z.string().nullable(),
  sha256: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  hasAlpha: z.boolean().nullable(),
  thumbhash: z.string().nullable(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type Asset = z.infer<typeof assetSchema>;

export const assetVersionSchema = z.object({
  versionId: z.string(),
  size: z.number().nullable(),
  md5hash: z.string().nullable(),
  sha256: z.string().nullable(),
  createdAt: z.string().nullable(),
  mime: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
});
export type AssetVersion = z.infer<typeof assetVersionSchema>;

/** `assets:get`: the asset as of the asked version (or the current one), with every version, newest first. */
export const assetDetailSchema = z.object({
  asset: assetSchema,
  workspace: z.string().nullable(),
  versions: z.array(assetVersionSchema),
  /** The version these fields describe (the asked one, else the newest). */
  shownVersionId: z.string().nullable(),
});
export type AssetDetail = z.infer<typeof assetDetailSchema>;

export const assetListRequestSchema = z.object({
  workspaceId: z.string().optional(),
  /** A folder prefix, `photos/2026/` (a trailing slash is added when missing); '' = everything. */
  prefix: z.string().max(4096).default(''),
  cursor: z.string().max(4096).optional(),
  limit: z.number().int().min(1).max(500).default(100),
  /** `/`: one folder level (folders of the next level + assets directly in the prefix). */
  delimiter: z.literal('/').optional(),
});
export type AssetListRequest = z.input<typeof assetListRequestSchema>;

export const assetListPageSchema = z.object({
  assets: z.array(assetSchema),
  /** Full folder paths of the next level (`photos/2026`), without a trailing slash. */
  folders: z.array(z.string()),
  nextCursor: z.string().nullable(),
  workspace: z.string().nullable(),
});
export type AssetListPage = z.infer<typeof assetListPageSchema>;

/** What a bulk channel did: how many, and each refusal with the service's code. */
export const assetBulkResultSchema = z.object({
  done: z.number().int(),
  failed: z.array(z.object({ assetIds: z.array(z.string()), code: z.string(), message: z.string() })),
});
export type AssetBulkResult = z.infer<typeof assetBulkResultSchema>;

/** Assets and whole folders (every asset under them) the user picked for a bulk action. */
const assetTargetsObject = z.object({
  workspaceId: z.string().optional(),
  assetIds: z.array(assetIdSchema).max(ASSET_BULK_CHANNEL_MAX).default([]),
  folders: z.array(folderPathSchema).max(1000).default([]),
});
const namesSome = (r: { assetIds: string[]; folders: string[] }) => r.assetIds.length + r.folders.length > 0;
export const assetBulkDeleteRequestSchema = assetTargetsObject.refine(namesSome, 'Name at least one asset or folder.');
/** `destination`: a folder path, '' for the root. */
export const assetBulkMoveRequestSchema = assetTargetsObject.extend({ destination: folderPathSchema }).refine(namesSome, 'Name at least one asset or folder.');

/** The stored-asset filename rule (service-facts addendum): 1..255, no `/`, `\`, control characters, not `.`/`..`, no surrounding spaces. */
export function filenameProblem(name: string): string | null {
  if (name.length === 0) return 'A name cannot be empty.';
  if (name.length > 255) return 'A name has at most 255 characters.';
  if (/[/\\]/.test(name)) return 'A name cannot contain / or \\.';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'A name cannot contain control characters.';
  if (name === '.' || name === '..') return 'A name cannot be . or ..';
  if (name.trim() !== name) return 'A name cannot start or end with a space.';
  return null;
}

/** "Use as input": the steps that run on the imported assets — a Template's, or steps of the user's. */
export const assetUseRequestSchema = z
  .object({
    workspaceId: z.string().optional(),
    assetIds: z.array(assetIdSchema).min(1).max(USE_AS_INPUT_MAX),
    templateId: z.string().min(1).optional(),
    steps: stepsSchema.optional(),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .refine((r) => (r.templateId === undefined) !== (r.steps === undefined), 'Choose either a Template or steps.');
