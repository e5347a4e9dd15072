import path from 'node:path';
import { ensurePrivateDir, openOrSetAside, openPrivateSqlite } from '../vault/private-files';
import type { ConflictPolicy } from '../../../shared/ipc/mirror-models';
import { DEFAULT_WATCH_CONFLICT, type AfterSuccess, type WatchRecipe } from '../../../shared/ipc/watch-folder-models';
import type { ItemRec } from './watch-machine';

/** A watch as stored: what the user chose (paths resolved), not its live state. */
export interface WatchDef {
  id: string;
  folder: string;
  output: string;
  recipe: WatchRecipe;
  reprocessStale: boolean;
  afterSuccess: AfterSuccess;
  /** When a result is already in the output folder. Watches stored before the choice existed have none: overwrite. */
  conflict: ConflictPolicy;
  settleMs: number;
  /**
   * Former output and move-to folders inside the watched folder (left behind by an edit): still passed over,
   * so results written there before are never taken as new files.
   */
  retiredFolders?: string[];
  paused: boolean;
  workspaceId?: string;
  createdAt: number;
  lastActivityAt: number | null;
}

export interface WatchStore {
  watches(): WatchDef[];
  putWatch(def: WatchDef): void;
  removeWatch(id: string): void;
  /** The ledger of a watch: relative path → size, mtime, hashes, Assembly, state, error, results. */
  items(watchId: string): ItemRec[];
  putItems(watchId: string, items: Iterable<ItemRec>): void;
  removeItems(watchId: string, relativePaths: Iterable<string>): void;
  close(): void;
}

/** A stored watch as the current code reads it: fields added since it was stored get their defaults. */
export function storedWatch(json: string): WatchDef {
  const def = JSON.parse(json) as Omit<WatchDef, 'conflict'> & { conflict?: ConflictPolicy };
  return { ...def, conflict: def.conflict ?? DEFAULT_WATCH_CONFLICT };
}

/** Watches and their ledgers in SQLite (`<dataDir>/watch-folders.sqlite`, WAL), as the run and transfer stores. */
export function openWatchStore(dataDir: string): WatchStore {
  ensurePrivateDir(dataDir);
  return openOrSetAside(path.join(dataDir, 'watch-folders.sqlite'), openAt);
}

function openAt(file: string): WatchStore {
  const db = openPrivateSqlite(file);
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS watches (id TEXT PRIMARY KEY, json TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS items (
      watch_id TEXT NOT NULL,
      relative_path TEXT NOT NULL,
      json TEXT NOT NULL,
      PRIMARY KEY (watch_id, relative_path)
    );
  `);
  const selectWatches = db.prepare<[], { json: string }>('SELECT json FROM watches');
  const upsertWatch = db.prepare('INSERT INTO watches (id, json) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json');
  const deleteWatch = db.prepare('DELETE FROM watches WHERE id = ?');
  const deleteAllItems = db.prepare('DELETE FROM items WHERE watch_id = ?');
  const selectItems = db.prepare<[string], { json: string }>('SELECT json FROM items WHERE watch_id = ?');
  const upsertItem = db.prepare('INSERT INTO items (watch_id, relative_path, json) VALUES (?, ?, ?) ON CONFLICT(watch_id, relative_path) DO UPDATE SET json = excluded.json');
  const deleteItem = db.prepare('DELETE FROM items WHERE watch_id = ? AND relative_path = ?');
  const putItems = db.transaction((watchId: string, items: ItemRec[]) => {
    for (const item of items) upsertItem.run(watchId, item.relativePath, JSON.stringify(item));
  });
  const removeItems = db.transaction((watchId: string, paths: string[]) => {
    for (const p of paths) deleteItem.run(watchId, p);
  });
  const removeWatch = db.transaction((id: string) => {
    deleteWatch.run(id);
    deleteAllItems.run(id);
  });
  let closed = false;
  return {
    watches: () => selectWatches.all().map((r) => storedWatch(r.json)),
    putWatch: (def) => void upsertWatch.run(def.id, JSON.stringify(def)),
    removeWatch: (id) => removeWatch(id),
    items: (watchId) => selectItems.all(watchId).map((r) => JSON.parse(r.json) as ItemRec),
    putItems: (watchId, items) => putItems(watchId, [...items]),
    removeItems: (watchId, paths) => removeItems(watchId, [...paths]),
    close: () => {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
