import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * The browser host copies dropped files into `<stagingDir>/<batch>/…` (a web page gives no paths). Those
 * copies are only needed until the run that uploads them ends: a 4 GB drop must not stay on disk twice.
 * Unfinished runs keep their batch (they resume from it after a restart).
 */

/** `<stagingDir>/<batch>` of a staged file, or null for a file that is not in the staging folder. */
export function stagingBatchOf(stagingDir: string, filePath: string): string | null {
  const rel = path.relative(stagingDir, filePath);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const batch = rel.split(path.sep)[0];
  return batch ? path.join(stagingDir, batch) : null;
}

const batchesOf = (stagingDir: string, paths: Iterable<string>): Set<string> => {
  const batches = new Set<string>();
  for (const p of paths) {
    const batch = stagingBatchOf(stagingDir, p);
    if (batch) batches.add(batch);
  }
  return batches;
};

/** Removes the batches of `finishedPaths` that no unfinished run still reads from; returns what it removed. */
export async function removeFinishedBatches(stagingDir: string, finishedPaths: Iterable<string>, pathsInUse: Iterable<string>): Promise<string[]> {
  const inUse = batchesOf(stagingDir, pathsInUse);
  const removable = [...batchesOf(stagingDir, finishedPaths)].filter((b) => !inUse.has(b));
  await Promise.all(removable.map((b) => rm(b, { recursive: true, force: true })));
  return removable;
}

/**
 * At start, before any page can stage files: every batch that no unfinished run reads from is left over
 * (a run that ended while the app was closing, or files dropped but never started). Removes them.
 */
export async function pruneStaging(stagingDir: string, pathsInUse: Iterable<string>): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(stagingDir);
  } catch {
    return [];
  }
  return removeFinishedBatches(
    stagingDir,
    entries.map((e) => path.join(stagingDir, e, '_')),
    pathsInUse,
  );
}
