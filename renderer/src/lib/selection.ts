import type { SelectedFile } from '../../../shared/ipc/models';

export interface MergeResult {
  readonly files: SelectedFile[];
  readonly added: number;
  readonly duplicates: number;
}

/** One file of the selection: the handle of its picked root plus its path below it (the page knows no disk paths). */
export const selectionKey = (file: Pick<SelectedFile, 'handle' | 'relativePath'>): string => `${file.handle}:${file.relativePath}`;

/** Add newly scanned files to the selection, keeping the first copy of each file and the existing order. */
export const mergeSelection = (current: readonly SelectedFile[], incoming: readonly SelectedFile[]): MergeResult => {
  const seen = new Set(current.map(selectionKey));
  const files = current.slice();
  let duplicates = 0;
  for (const file of incoming) {
    const key = selectionKey(file);
    if (seen.has(key)) {
      duplicates += 1;
      continue;
    }
    seen.add(key);
    files.push(file);
  }
  return { files, added: files.length - current.length, duplicates };
};

export const removeFromSelection = (current: readonly SelectedFile[], key: string): SelectedFile[] =>
  current.filter((f) => selectionKey(f) !== key);

export const totalBytesOf = (files: readonly SelectedFile[]): number => files.reduce((sum, f) => sum + f.size, 0);

export const isImageFile = (file: Pick<SelectedFile, 'mime' | 'name'>): boolean =>
  file.mime ? file.mime.startsWith('image/') : /\.(jpe?g|png|gif|webp|avif|tiff?|bmp|heic)$/i.test(file.name);
