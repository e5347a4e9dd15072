// Pure planning of what the asset channels send: prefixes, chunks of the service's bulk limit, where each
// asset of a moved folder lands, and the steps of "Use as input".
import { ASSET_BULK_LIMIT } from '../../../shared/ipc/asset-models';
import type { Steps } from '../../../shared/api/instructions';

const trimSlashes = (p: string): string => p.replace(/^\/+|\/+$/g, '');

/** A list prefix: '' (everything) or a folder path with one trailing slash (`photos/2026/`). */
export const listPrefix = (prefix: string): string => {
  const clean = trimSlashes(prefix);
  return clean === '' ? '' : `${clean}/`;
};

/** The wire's `destination_folder_id`: a folder path, or null for the root. */
export const destinationId = (folder: string | null): string | null => {
  const clean = trimSlashes(folder ?? '');
  return clean === '' ? null : clean;
};

export function chunk<T>(items: readonly T[], size = ASSET_BULK_LIMIT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The last part of a folder path. */
export const folderName = (folder: string): string => trimSlashes(folder).split('/').pop() ?? '';

/**
 * Where an asset of a moved folder goes, as a file manager moves a folder: `photos/2026` moved into
 * `archive` takes `photos/2026/x/a.jpg` to folder `archive/2026/x`. `destination` '' is the root.
 */
export function movedFolderOf(assetPath: string, folder: string, destination: string): string {
  const source = trimSlashes(folder);
  const parent = source.includes('/') ? source.slice(0, source.lastIndexOf('/') + 1) : '';
  const relative = assetPath.slice(parent.length);
  const relativeDir = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
  return [trimSlashes(destination), relativeDir].filter((p) => p !== '').join('/');
}

/** A folder moved into itself or below itself would chase its own tail: refused with this reason. */
export function folderMoveProblem(folder: string, destination: string): string | null {
  const source = trimSlashes(folder);
  const target = trimSlashes(destination);
  if (target === source || target.startsWith(`${source}/`)) return `The folder ${source} cannot be moved into itself.`;
  const parent = source.includes('/') ? source.slice(0, source.lastIndexOf('/')) : '';
  if (parent === target) return `The folder ${source} is already in ${target === '' ? 'the root' : target}.`;
  return null;
}

/** Asset ids grouped by the folder they move to (one bulk request per group and chunk). */
export function groupByDestination(moves: ReadonlyArray<{ assetId: string; folder: string }>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { assetId, folder } of moves) {
    const ids = groups.get(folder);
    if (ids) {
      if (!ids.includes(assetId)) ids.push(assetId);
    } else groups.set(folder, [assetId]);
  }
  return groups;
}

/** The name of the step that brings the assets in (the service keeps `:original` for `/upload/handle`). */
export const IMPORT_STEP = 'imported';

/** The step that brings stored assets into an Assembly (service: `/transloadit/import` by `asset_ids`). */
export const importStep = (assetIds: readonly string[]) => ({ robot: '/transloadit/import', asset_ids: [...assetIds] });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A step's `use` with every reference to `from` named `to` instead, in each form `use` takes (string, list, objects, `{ steps }`). */
export function renameUse(use: unknown, from: string, to: string): unknown {
  if (typeof use === 'string') return use === from ? to : use;
  if (Array.isArray(use)) return use.map((item) => (typeof item === 'string' ? (item === from ? to : item) : isObject(item) && item.name === from ? { ...item, name: to } : item));
  if (isObject(use) && use.steps !== undefined) return { ...use, steps: renameUse(use.steps, from, to) };
  return use;
}

/**
 * "Use as input": the imported assets take the place of the uploads. Steps read uploads through
 * `:original`, so every `use` of `:original` reads the import step instead; the `:original` step itself is
 * left out (with a Template, its `:original` stays and simply receives no uploads: the request's steps are
 * deep-merged over the Template's, so each rewritten `use` replaces the Template's).
 */
export function useAsInputSteps(assetIds: readonly string[], steps: Steps | null): Steps {
  const out: Steps = {};
  for (const [name, step] of Object.entries(steps ?? {})) {
    if (name === ':original') continue;
    out[name] = step.use === undefined ? step : { ...step, use: renameUse(step.use, ':original', IMPORT_STEP) };
  }
  return { [IMPORT_STEP]: importStep(assetIds), ...out };
}
