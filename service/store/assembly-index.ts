import type Database from 'better-sqlite3';
import { assemblySummary, type AssemblySummary, type ListKind } from '../assemblies/assembly-summary';
import type { AssemblyState } from '../assemblies/assembly-state';

export interface IndexQuery {
  /** Only this key's Assemblies; null = the whole account's (GET /assemblies). */
  authKey: string | null;
  page: number;
  pagesize: number;
  /** null = every kind (`type: all`). */
  kind: ListKind | null;
  fromMs: number | null;
  toMs: number | null;
  /** Lowercased; every one must occur. */
  keywords: string[];
  assemblyId: string | null;
}

export interface AssemblyIndex {
  upsert(summary: AssemblySummary): void;
  /** One page of list items (JSON, newest first) and the total that match. */
  query(q: IndexQuery): { items: string[]; count: number };
  /** Ids of Assemblies with a notification delivery due at or before `atMs`. */
  notificationsDue(atMs: number): string[];
  /** The earliest pending delivery's due time, or null. */
  nextNotificationDueMs(): number | null;
}

/**
 * The summary table behind GET /assemblies (assemblies/assembly-summary.ts): filtered, counted and paged
 * in SQL with an index on (key, created), so the list costs the same with 10,000 Assemblies stored.
 * Rows written before the table existed are summarized once when the database opens.
 */
export function openAssemblyIndex(db: Database.Database): AssemblyIndex {
  db.exec(`
    CREATE TABLE IF NOT EXISTS assembly_index (id TEXT PRIMARY KEY, auth_key TEXT NOT NULL, created_ms INTEGER NOT NULL,
      kind TEXT, search TEXT NOT NULL, item TEXT NOT NULL, notify_due_ms INTEGER);
    CREATE INDEX IF NOT EXISTS assembly_index_by_key ON assembly_index (auth_key, created_ms DESC);
    CREATE INDEX IF NOT EXISTS assembly_index_by_created ON assembly_index (created_ms DESC);
    CREATE INDEX IF NOT EXISTS assembly_index_notify ON assembly_index (notify_due_ms) WHERE notify_due_ms IS NOT NULL;
  `);
  const upsert = db.prepare(`INSERT INTO assembly_index (id, auth_key, created_ms, kind, search, item, notify_due_ms)
    VALUES (@id, @authKey, @createdMs, @kind, @search, @item, @notifyDueMs)
    ON CONFLICT(id) DO UPDATE SET auth_key = excluded.auth_key, created_ms = excluded.created_ms, kind = excluded.kind,
      search = excluded.search, item = excluded.item, notify_due_ms = excluded.notify_due_ms`);
  // In batches: a connection cannot write while it iterates a read, and a whole table need not be in memory.
  const missing = db.prepare('SELECT data FROM assemblies WHERE id NOT IN (SELECT id FROM assembly_index) LIMIT 500');
  const backfill = db.transaction((): number => {
    const rows = missing.all() as { data: string }[];
    for (const row of rows) upsert.run(assemblySummary(JSON.parse(row.data) as AssemblyState));
    return rows.length;
  });
  while (backfill() > 0);
  const due = db.prepare('SELECT id FROM assembly_index WHERE notify_due_ms IS NOT NULL AND notify_due_ms <= ? ORDER BY notify_due_ms');
  const nextDue = db.prepare('SELECT MIN(notify_due_ms) AS due FROM assembly_index WHERE notify_due_ms IS NOT NULL');
  return {
    upsert: (s) => void upsert.run(s),
    query: (q) => {
      const where: string[] = [];
      const args: unknown[] = [];
      const add = (condition: string, value: unknown): void => {
        where.push(condition);
        args.push(value);
      };
      if (q.authKey !== null) add('auth_key = ?', q.authKey);
      if (q.kind) add('kind = ?', q.kind);
      if (q.assemblyId) add('id = ?', q.assemblyId);
      if (q.fromMs !== null) add('created_ms >= ?', q.fromMs);
      if (q.toMs !== null) add('created_ms <= ?', q.toMs);
      // A keyword also matches the parent's id (a replay's `parent_id`), so listing by an Assembly's id
      // finds its replays. Read from the stored item: rows summarized before this need no rewrite.
      // Only hex words can occur in an id: other words skip the JSON read.
      for (const k of q.keywords) {
        if (!/^[0-9a-f]+$/.test(k)) add('instr(search, ?) > 0', k);
        else {
          add("(instr(search, ?) > 0 OR instr(lower(ifnull(json_extract(item, '$.parent_id'), '')), ?) > 0)", k);
          args.push(k);
        }
      }
      const clause = where.length > 0 ? where.join(' AND ') : '1';
      const count = (db.prepare(`SELECT COUNT(*) AS n FROM assembly_index WHERE ${clause}`).get(...args) as { n: number }).n;
      const items = (
        db.prepare(`SELECT item FROM assembly_index WHERE ${clause} ORDER BY created_ms DESC, rowid DESC LIMIT ? OFFSET ?`).all(...args, q.pagesize, (q.page - 1) * q.pagesize) as {
          item: string;
        }[]
      ).map((r) => r.item);
      return { items, count };
    },
    notificationsDue: (atMs) => (due.all(atMs) as { id: string }[]).map((r) => r.id),
    nextNotificationDueMs: () => (nextDue.get() as { due: number | null }).due,
  };
}
