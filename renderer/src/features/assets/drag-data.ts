// What a dragged selection of assets carries between rows, folders and the breadcrumb (never files: the
// window's own drop guard keeps those out).

export const ASSET_DRAG_TYPE = 'application/x-assemblyline-assets';

export interface DraggedAssets {
  readonly assetIds: string[];
  readonly folders: string[];
}

export const encodeDrag = (targets: DraggedAssets): string => JSON.stringify(targets);

/** The drag's targets; null for anything that is not ours or is malformed. */
export function decodeDrag(raw: string): DraggedAssets | null {
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { assetIds, folders } = value as Record<string, unknown>;
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
    return strings(assetIds) && strings(folders) ? { assetIds, folders } : null;
  } catch {
    return null;
  }
}

/** Dropping a folder onto itself or below itself does nothing (core would refuse it too). */
export const dropsIntoItself = (drag: DraggedAssets, destination: string): boolean =>
  drag.folders.some((f) => destination === f || destination.startsWith(`${f}/`));
