import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openPrivateSqlite } from '../store/private-files';

/** Template credentials of the account (spec "Template credentials"); content holds the secrets. */
export interface CredentialRow {
  id: string;
  name: string;
  type: string;
  /** Any JSON value, as the spec allows (an object of fields for the storage robots). */
  content: unknown;
  createdMs: number;
  modifiedMs: number;
}

export interface CredentialStore {
  /** By id, or else by name (`{credentials_id_or_name}`). */
  find(idOrName: string): CredentialRow | null;
  all(): CredentialRow[];
  create(input: { name: string; type: string; content: unknown }, nowMs: number): CredentialRow;
  /** `content` left undefined keeps the stored one (null is a value: it replaces it). */
  update(id: string, change: { name?: string; type?: string; content?: unknown }, nowMs: number): CredentialRow | null;
  delete(id: string): boolean;
  close(): void;
}

interface Stored {
  id: string;
  name: string;
  type: string;
  content: string;
  created_ms: number;
  modified_ms: number;
}

const toRow = (r: Stored): CredentialRow => ({
  id: r.id,
  name: r.name,
  type: r.type,
  content: JSON.parse(r.content) as unknown,
  createdMs: r.created_ms,
  modifiedMs: r.modified_ms,
});

export function openCredentialStore(dataDir: string): CredentialStore {
  const db = openPrivateSqlite(join(dataDir, 'service.sqlite'));
  db.pragma('busy_timeout = 5000');
  db.exec(`CREATE TABLE IF NOT EXISTS template_credentials (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
    content TEXT NOT NULL, created_ms INTEGER NOT NULL, modified_ms INTEGER NOT NULL)`);
  const byId = db.prepare('SELECT * FROM template_credentials WHERE id = ?');
  const byName = db.prepare('SELECT * FROM template_credentials WHERE name = ?');
  const all = db.prepare('SELECT * FROM template_credentials ORDER BY created_ms DESC, rowid DESC');
  const insert = db.prepare(`INSERT INTO template_credentials (id, name, type, content, created_ms, modified_ms)
    VALUES (@id, @name, @type, @content, @now, @now)`);
  const update = db.prepare('UPDATE template_credentials SET name = @name, type = @type, content = @content, modified_ms = @now WHERE id = @id');
  const remove = db.prepare('DELETE FROM template_credentials WHERE id = ?');
  const find = (key: string): CredentialRow | null => {
    const r = (byId.get(key) ?? byName.get(key)) as Stored | undefined;
    return r ? toRow(r) : null;
  };
  return {
    find,
    all: () => (all.all() as Stored[]).map(toRow),
    create(input, now) {
      const id = randomBytes(16).toString('hex');
      insert.run({ id, name: input.name, type: input.type, content: JSON.stringify(input.content), now });
      return find(id)!;
    },
    update(id, change, now) {
      const current = find(id);
      if (!current) return null;
      update.run({
        id: current.id,
        name: change.name ?? current.name,
        type: change.type ?? current.type,
        content: JSON.stringify(change.content === undefined ? current.content : change.content),
        now: Math.max(now, current.modifiedMs + 1),
      });
      return find(current.id);
    },
    delete: (id) => remove.run(id).changes === 1,
    close: () => db.close(),
  };
}
