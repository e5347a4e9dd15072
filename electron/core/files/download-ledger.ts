import path from 'node:path';

/**
 * The files `results:download` wrote this session. `shell:openPath` runs whatever app the OS picks for a
 * file, so the untrusted page may open (or show) only these, not any path, not even any file that
 * happens to sit in the downloads folder.
 */
export interface DownloadLedger {
  record(filePath: string): void;
  has(filePath: string): boolean;
}

export function createDownloadLedger(maxEntries = 10_000): DownloadLedger {
  const written = new Set<string>();
  return {
    record(filePath) {
      const key = path.resolve(filePath);
      written.delete(key);
      written.add(key);
      // Oldest first: past the cap, the earliest downloads can no longer be opened from the app.
      while (written.size > maxEntries) written.delete(written.values().next().value as string);
    },
    has: (filePath) => path.isAbsolute(filePath) && written.has(path.resolve(filePath)),
  };
}
