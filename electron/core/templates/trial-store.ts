// "Try this Template here first" kept on disk (`<dataDir>/template-trials.sqlite`): a restart shows the last
// try of a Template again, with its two runs (which core keeps in core.sqlite) and the comparison, and a
// second try updates the same Local copy of the Template instead of adding another.

import path from 'node:path';
import type { TrialChange } from '../../../shared/api/template-trial';
import { ensurePrivateDir, openOrSetAside, openPrivateSqlite } from '../vault/private-files';

/** A try as core keeps it: the two Templates' content is what the comparison reads per step. */
export interface StoredTrial {
  id: string;
  createdAt: string;
  templateId: string;
  templateName: string;
  localTemplateId: string;
  remoteContent: unknown;
  localContent: unknown;
  changes: TrialChange[];
  files: number;
  remote: { workspaceId: string; runId: string };
  local: { workspaceId: string; runId: string };
}

export interface TrialStore {
  save(trial: StoredTrial): void;
  get(id: string): StoredTrial | null;
  /** The newest try of a remote workspace's Template, or null. */
  latest(workspaceId: string, templateId: string): StoredTrial | null;
  /** The Local copy made of a remote Template, or null. */
  copyOf(workspaceId: string, templateId: string): string | null;
  setCopy(workspaceId: string, templateId: string, localTemplateId: string): void;
  close(): void;
}

export function openTrialStore(dataDir: string): TrialStore {
  ensurePrivateDir(dataDir);
  return openOrSetAside(path.join(dataDir, 'template-trials.sqlite'), openAt);
}

function openAt(file: string): TrialStore {
  const db = openPrivateSqlite(file);
  db.exec(`
    CREATE TABLE IF NOT EXISTS trials (
      id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      template_id TEXT NOT NULL,
      created_at TEXT NOT NULL,
      seq INTEGER NOT NULL,
      body TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS trials_by_template ON trials (workspace_id, template_id, seq);
    CREATE TABLE IF NOT EXISTS trial_copies (
      workspace_id TEXT NOT NULL,
      template_id TEXT NOT NULL,
      local_template_id TEXT NOT NULL,
      PRIMARY KEY (workspace_id, template_id)
    );
  `);
  const insert = db.prepare('INSERT OR REPLACE INTO trials (id, workspace_id, template_id, created_at, seq, body) VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM trials), ?)');
  const byId = db.prepare<[string], { body: string }>('SELECT body FROM trials WHERE id = ?');
  const newest = db.prepare<[string, string], { body: string }>('SELECT body FROM trials WHERE workspace_id = ? AND template_id = ? ORDER BY seq DESC LIMIT 1');
  const copy = db.prepare<[string, string], { local_template_id: string }>('SELECT local_template_id FROM trial_copies WHERE workspace_id = ? AND template_id = ?');
  const putCopy = db.prepare('INSERT OR REPLACE INTO trial_copies (workspace_id, template_id, local_template_id) VALUES (?, ?, ?)');
  const parse = (row: { body: string } | undefined): StoredTrial | null => (row ? (JSON.parse(row.body) as StoredTrial) : null);
  return {
    save: (t) => void insert.run(t.id, t.remote.workspaceId, t.templateId, t.createdAt, JSON.stringify(t)),
    get: (id) => parse(byId.get(id)),
    latest: (workspaceId, templateId) => parse(newest.get(workspaceId, templateId)),
    copyOf: (workspaceId, templateId) => copy.get(workspaceId, templateId)?.local_template_id ?? null,
    setCopy: (workspaceId, templateId, localTemplateId) => void putCopy.run(workspaceId, templateId, localTemplateId),
    close: () => db.close(),
  };
}
