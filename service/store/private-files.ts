import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync } from 'node:fs';

/** Only the user running the service may list or enter its data folder… */
export const PRIVATE_DIR_MODE = 0o700;
/** …or read its files: the database holds every Auth Secret and Template credential. */
export const PRIVATE_FILE_MODE = 0o600;

/** What the service itself keeps at the top of its data folder (database, Assembly folders, tus, secret). */
/**
 * Every name the service puts at the top of its data folder (one list: the folder's mode and the fuzz
 * sandbox's "nothing written elsewhere" check both read it; a new folder is added here).
 */
export const SERVICE_ENTRY = /^(service\.sqlite(-wal|-shm|-journal)?|assemblies|assets|tus|cdn-cache|cdn-work|auth-secret(\.\d+\.tmp)?)$/;

/**
 * Creates the data folder as 0700, and tightens an existing one holding nothing but the service's own
 * files (an older version made it 0755). A folder that also holds other things (`--data-dir ~` or
 * `/tmp`) keeps its mode: changing it would break whatever else lives there; the files stay 0600.
 */
export function ensurePrivateDir(dir: string): void {
  const ours = !existsSync(dir) || readdirSync(dir).every((name) => SERVICE_ENTRY.test(name));
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (ours) chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Tightens a file to 0600 if it exists (a crash can leave an old -wal/-shm behind). */
export function restrictIfPresent(file: string): void {
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause;
  }
}

/**
 * Opens a SQLite database whose file is 0600 before SQLite first touches it: SQLite gives its -wal and
 * -shm side files the main file's mode, so they are born private too. Existing files are tightened.
 */
export function openPrivateSqlite(file: string): Database.Database {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const suffix of ['', '-wal', '-shm', '-journal']) restrictIfPresent(`${file}${suffix}`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const suffix of ['-wal', '-shm']) restrictIfPresent(`${file}${suffix}`);
  return db;
}
