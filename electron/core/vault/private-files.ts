import Database from 'better-sqlite3';
import { chmodSync, closeSync, mkdirSync, openSync, renameSync } from 'node:fs';
import { chmod, rename, writeFile } from 'node:fs/promises';

// The core's data folder holds workspaces (endpoints, keys), runs (tus URLs), the vault's settings and,
// when the user accepted it, unprotected secrets: only the user running the app may read any of it.
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const ignoreMissing = (cause: unknown): void => {
  if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause;
};

/** Creates the folder as 0700, and tightens an existing one (made by an older version as 0755). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Tightens a folder to 0700 if it exists. */
export function restrictDirIfPresent(dir: string): void {
  try {
    chmodSync(dir, PRIVATE_DIR_MODE);
  } catch (cause) {
    ignoreMissing(cause);
  }
}

/** Tightens a file to 0600 if it exists. */
export function restrictIfPresent(file: string): void {
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (cause) {
    ignoreMissing(cause);
  }
}

/** Writes through a 0600 temp file renamed over the target: never a moment with readable contents. */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: PRIVATE_FILE_MODE });
  await chmod(tmp, PRIVATE_FILE_MODE);
  await rename(tmp, file);
}

/** A SQLite database (WAL) whose file is 0600 before SQLite opens it, so its -wal and -shm are too. */
export function openPrivateSqlite(file: string): Database.Database {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const suffix of ['', '-wal', '-shm', '-journal']) restrictIfPresent(`${file}${suffix}`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const suffix of ['-wal', '-shm']) restrictIfPresent(`${file}${suffix}`);
  return db;
}

/**
 * Open a database with `open`; one that cannot be read is set aside (with its -wal/-shm) for inspection and
 * a new one opened, so a damaged file never keeps the app from starting.
 */
export function openOrSetAside<T>(file: string, open: (file: string) => T): T {
  try {
    return open(file);
  } catch {
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        renameSync(`${file}${suffix}`, `${file}.corrupt-${Date.now()}${suffix}`);
      } catch {
        // missing side file
      }
    }
    return open(file);
  }
}
