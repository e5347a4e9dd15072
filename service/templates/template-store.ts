import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openPrivateSqlite } from '../store/private-files';
import type { TemplateRow } from './template-record';
import type { TemplateInput } from './template-input';

/** The account's Templates in the service database (a second connection; WAL lets both write). */
export interface TemplateStore {
  get(id: string): TemplateRow | null;
  all(): TemplateRow[];
  create(input: Required<Pick<TemplateInput, 'name'>> & TemplateInput, nowMs: number): TemplateRow;
  update(id: string, input: TemplateInput, nowMs: number): TemplateRow | null;
  delete(id: string): boolean;
  touch(id: string, nowMs: number): void;
  close(): void;
}

interface Stored {
  id: string;
  name: string;
  content: string;
  require_signature_auth: number;
  description: string;
  created_ms: number;
  modified_ms: number;
  last_used_ms: number | null;
}

const toRow = (r: Stored): TemplateRow => ({
  id: r.id,
  name: r.name,
  content: JSON.parse(r.content) as unknown,
  requireSignatureAuth: r.require_signature_auth === 1 ? 1 : 0,
  description: r.description,
  createdMs: r.created_ms,
  modifiedMs: r.modified_ms,
  lastUsedMs: r.last_used_ms,
});

export function openTemplateStore(dataDir: string): TemplateStore {
  const db = openPrivateSqlite(join(dataDir, 'service.sqlite'));
  db.pragma('busy_timeout = 5000');
  db.exec(`CREATE TABLE IF NOT EXISTS templates (id TEXT PRIMARY KEY, name TEXT NOT NULL, content TEXT NOT NULL,
    require_signature_auth INTEGER NOT NULL DEFAULT 0, description TEXT NOT NULL DEFAULT '',
    created_ms INTEGER NOT NULL, modified_ms INTEGER NOT NULL, last_used_ms INTEGER)`);
  const get = db.prepare('SELECT * FROM templates WHERE id = ?');
  const all = db.prepare('SELECT * FROM templates ORDER BY created_ms, rowid');
  const insert = db.prepare(`INSERT INTO templates (id, name, content, require_signature_auth, description, created_ms, modified_ms)
    VALUES (@id, @name, @content, @requireSignatureAuth, @description, @now, @now)`);
  const update = db.prepare(`UPDATE templates SET name = @name, content = @content, require_signature_auth = @requireSignatureAuth,
    description = @description, modified_ms = @now WHERE id = @id`);
  const remove = db.prepare('DELETE FROM templates WHERE id = ?');
  const touch = db.prepare('UPDATE templates SET last_used_ms = ? WHERE id = ?');
  const find = (id: string): TemplateRow | null => {
    const r = get.get(id) as Stored | undefined;
    return r ? toRow(r) : null;
  };
  return {
    get: find,
    all: () => (all.all() as Stored[]).map(toRow),
    create(input, now) {
      // 32 lowercase hex, like the real service's ids (max 32 ASCII characters).
      const id = randomBytes(16).toString('hex');
      insert.run({
        id,
        name: input.name,
        content: JSON.stringify(input.content ?? null),
        requireSignatureAuth: input.requireSignatureAuth ?? 0,
        description: input.description ?? '',
        now,
      });
      return find(id)!;
    },
    update(id, input, now) {
      const current = find(id);
      if (!current) return null;
      update.run({
        id,
        name: input.name ?? current.name,
        content: JSON.stringify('content' in input ? (input.content ?? null) : current.content),
        requireSignatureAuth: input.requireSignatureAuth ?? current.requireSignatureAuth,
        description: input.description ?? current.description,
        // Strictly after the last change, so sorting by `modified` follows the order of edits.
        now: Math.max(now, current.modifiedMs + 1),
      });
      return find(id);
    },
    delete: (id) => remove.run(id).changes === 1,
    touch: (id, now) => void touch.run(now, id),
    close: () => db.close(),
  };
}
