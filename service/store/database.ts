import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface AccountRow {
  authKey: string;
  authSecret: string;
  requireSignature: boolean;
}

export interface AssemblyRow {
  id: string;
  state: string;
  data: string;
}

/** The service's records in SQLite (WAL): the account, Assemblies (state JSON) and seen nonces. */
export interface ServiceDatabase {
  getAccount(authKey: string): AccountRow | null;
  firstAccount(): AccountRow | null;
  upsertAccount(account: AccountRow): void;
  getAssembly(id: string): AssemblyRow | null;
  insertAssembly(row: AssemblyRow): boolean;
  saveAssembly(row: AssemblyRow): void;
  assembliesInStates(states: readonly string[]): AssemblyRow[];
  /** Every Assembly of a key, newest first. */
  assembliesOf(authKey: string): (AssemblyRow & { createdAt: string })[];
  /** Records the nonce; false when it was already seen and has not expired yet. */
  rememberNonce(authKey: string, nonce: string, expiresAtMs: number, nowMs: number): boolean;
  close(): void;
}

export function openDatabase(dataDir: string): ServiceDatabase {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'service.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS account (auth_key TEXT PRIMARY KEY, auth_secret TEXT NOT NULL,
      require_signature INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS assemblies (id TEXT PRIMARY KEY, state TEXT NOT NULL, data TEXT NOT NULL,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS nonces (auth_key TEXT NOT NULL, nonce TEXT NOT NULL, expires_at INTEGER NOT NULL,
      PRIMARY KEY (auth_key, nonce));
  `);
  const toAccount = (r: { auth_key: string; auth_secret: string; require_signature: number } | undefined): AccountRow | null =>
    r ? { authKey: r.auth_key, authSecret: r.auth_secret, requireSignature: r.require_signature === 1 } : null;
  const getAccount = db.prepare('SELECT * FROM account WHERE auth_key = ?');
  const firstAccount = db.prepare('SELECT * FROM account ORDER BY created_at LIMIT 1');
  const upsertAccount = db.prepare(`INSERT INTO account (auth_key, auth_secret, require_signature, created_at)
    VALUES (@authKey, @authSecret, @requireSignature, @now)
    ON CONFLICT(auth_key) DO UPDATE SET auth_secret = excluded.auth_secret, require_signature = excluded.require_signature`);
  const getAssembly = db.prepare('SELECT id, state, data FROM assemblies WHERE id = ?');
  const insertAssembly = db.prepare(`INSERT OR IGNORE INTO assemblies (id, state, data, created_at, updated_at)
    VALUES (@id, @state, @data, @now, @now)`);
  const saveAssembly = db.prepare('UPDATE assemblies SET state = @state, data = @data, updated_at = @now WHERE id = @id');
  const assembliesOf = db.prepare(`SELECT id, state, data, created_at AS createdAt FROM assemblies
    WHERE json_extract(data, '$.authKey') = ? ORDER BY created_at DESC, rowid DESC`);
  const getNonce = db.prepare('SELECT expires_at FROM nonces WHERE auth_key = ? AND nonce = ?');
  const putNonce = db.prepare('INSERT OR REPLACE INTO nonces (auth_key, nonce, expires_at) VALUES (?, ?, ?)');
  const pruneNonces = db.prepare('DELETE FROM nonces WHERE expires_at < ?');
  const rememberNonce = db.transaction((authKey: string, nonce: string, expiresAt: number, now: number): boolean => {
    const seen = getNonce.get(authKey, nonce) as { expires_at: number } | undefined;
    if (seen && seen.expires_at >= now) return false;
    putNonce.run(authKey, nonce, expiresAt);
    return true;
  });
  let nonceWrites = 0;
  return {
    getAccount: (k) => toAccount(getAccount.get(k) as never),
    firstAccount: () => toAccount(firstAccount.get() as never),
    upsertAccount: (a) => {
      upsertAccount.run({ authKey: a.authKey, authSecret: a.authSecret, requireSignature: a.requireSignature ? 1 : 0, now: new Date().toISOString() });
    },
    getAssembly: (id) => (getAssembly.get(id) as AssemblyRow | undefined) ?? null,
    insertAssembly: (row) => insertAssembly.run({ ...row, now: new Date().toISOString() }).changes === 1,
    saveAssembly: (row) => {
      saveAssembly.run({ ...row, now: new Date().toISOString() });
    },
    assembliesInStates: (states) =>
      db.prepare(`SELECT id, state, data FROM assemblies WHERE state IN (${states.map(() => '?').join(',')})`).all(...states) as AssemblyRow[],
    assembliesOf: (authKey) => assembliesOf.all(authKey) as (AssemblyRow & { createdAt: string })[],
    rememberNonce: (authKey, nonce, expiresAt, now) => {
      // Expired nonces can never collide again, so prune them now and then.
      if (++nonceWrites % 100 === 0) pruneNonces.run(now);
      return rememberNonce(authKey, nonce, expiresAt, now);
    },
    close: () => db.close(),
  };
}
