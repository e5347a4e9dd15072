import type { LocalFile } from '../../../shared/ipc/models';

export interface MergeResult {
  readonly files: LocalFile[];
  readonly added: number;
  readonly duplicates: number;
}

/** Add newly scanned files to the selection, keeping the first copy of each path and the existing order. */
export const mergeSelection = (current: readonly LocalFile[], incoming: readonly LocalFile[]): MergeResult => {
  const seen = new Set(current.map((f) => f.path));
  const files = current.slice();
  let duplicates = 0;
  for (const file of incoming) {
    if (seen.has(file.path)) {
      duplicates += 1;
      continue;
    }
    seen.add(file.path);
    files.push(file);
  }
  return { files, added: files.length - current.length, duplicates };
};

export const removeFromSelection = (current: readonly LocalFile[], path: string): LocalFile[] =>
  current.filter((f) => f.path !== path);

export const totalBytesOf = (files: readonly LocalFile[]): number => files.reduce((sum, f) => sum + f.size, 0);

export const isImageFile = (file: Pick<LocalFile, 'mime' | 'name'>): boolean =>
  file.mime ? file.mime.startsWith('image/') : /\.(jpe?g|png|gif|webp|avif|tiff?|bmp|heic)$/i.test(file.name);
