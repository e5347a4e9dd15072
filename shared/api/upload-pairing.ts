import type { AssemblyFile } from './assembly-status';

/** The relative path an upload carried (the app's tus metadata `relative_path`), else null. Pure. */
export const uploadRelativePath = (u: AssemblyFile): string | null => {
  const fromMeta = u.user_meta?.relative_path ?? u.meta?.relative_path;
  return typeof fromMeta === 'string' && fromMeta ? fromMeta : null;
};

const baseName = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/**
 * Which upload of a status record each local file the app sent became (its index in `uploads`, or null
 * while it has not arrived): by the relative path the upload carried, else by name and size in order (a
 * multipart upload carries only its name). Each upload pairs with one file at most. Core's results mirror and
 * the Assembly view's file list both pair this way. Pure.
 */
export function pairUploads(local: ReadonlyArray<{ relativePath: string; size: number }>, uploads: readonly AssemblyFile[]): Array<number | null> {
  const free = new Set(uploads.map((_, i) => i));
  const take = (pred: (u: AssemblyFile) => boolean): number | null => {
    for (const i of free) {
      if (pred(uploads[i]!)) {
        free.delete(i);
        return i;
      }
    }
    return null;
  };
  const sizeFits = (u: AssemblyFile, size: number) => u.size === undefined || u.size === size;
  const byPath = local.map((f) => take((u) => uploadRelativePath(u) === f.relativePath && sizeFits(u, f.size)));
  return local.map((f, i) => byPath[i] ?? take((u) => uploadRelativePath(u) === null && (u.name === baseName(f.relativePath) || u.original_name === baseName(f.relativePath)) && sizeFits(u, f.size)));
}
