import type { PickedFile } from '../../../../shared/ipc/bridge';

/**
 * Turn a drop or a file picker into PickedFile[] with relative paths. Dropped folders are walked through
 * the File System Entry API; the entries must be taken synchronously inside the drop event (the
 * DataTransfer is emptied once the handler returns), so callers pass entries, not the event.
 */

export const entriesFromDataTransfer = (dt: DataTransfer): { entries: FileSystemEntry[]; looseFiles: File[] } => {
  const entries: FileSystemEntry[] = [];
  const looseFiles: File[] = [];
  const items = Array.from(dt.items ?? []);
  if (items.length === 0) return { entries, looseFiles: Array.from(dt.files ?? []) };
  for (const item of items) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) looseFiles.push(file);
    }
  }
  return { entries, looseFiles };
};

const fileOf = (entry: FileSystemFileEntry): Promise<File> => new Promise((resolve, reject) => entry.file(resolve, reject));

/** readEntries returns at most ~100 entries per call: keep calling until it gives an empty batch. */
const readAll = async (dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> => {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
};

const relativeOf = (entry: FileSystemEntry): string => entry.fullPath.replace(/^\/+/, '') || entry.name;

export const walkEntries = async (entries: readonly FileSystemEntry[]): Promise<PickedFile[]> => {
  const out: PickedFile[] = [];
  const stack = entries.slice();
  while (stack.length > 0) {
    const entry = stack.pop() as FileSystemEntry;
    if (entry.isFile) {
      out.push({ file: await fileOf(entry as FileSystemFileEntry), relativePath: relativeOf(entry) });
    } else if (entry.isDirectory) {
      stack.push(...(await readAll(entry as FileSystemDirectoryEntry)));
    }
  }
  return out;
};

/** Files from <input type=file> (with or without webkitdirectory). */
export const pickedFromInput = (files: Iterable<File>): PickedFile[] =>
  Array.from(files, (file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
