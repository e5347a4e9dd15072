import { join } from 'node:path';
import { ensurePrivateDir, openPrivateSqlite } from './private-files';
import { assemblySummary, type AssemblySummary } from '../assemblies/assembly-summary';
import type { AssemblyState } from '../assemblies/assembly-state';
import { openAssemblyIndex, type AssemblyIndex } from './assembly-index';
import { openUsageStore, type UsageStore } from '../usage/usage-store';
import type { UsageRecord } from '../usage/usage-record';
import { openSlotSamples, type SlotSampleStore } from '../queue/slot-samples';

export interface AccountRow {
  authKey: string;
  authSecret: string;
  requireSignature: boolean;
  /** Auth Key record fields (spec "Auth Key"); absent on rows written before they existed. */
  id?: string;
  description?: string;
  isActive?: boolean;
  smartCdn?: boolean;
  /** Comma-separated; null = every scope. */
  scope?: string | null;
  /** null = any algorithm is accepted (keys made before per-key algorithms). */
  signatureAlgo?: 'sha1' | 'sha256' | 'sha384' | null;
  canShowSecret?: boolean;
  createdAt?: string;
  modifiedAt?: string | null;
  lastUsedAt?: string | null;
}

export interface AssemblyRow {
  id: string;
  state: string;
  data: string;
  /** The list summary (assembly-summary.ts); computed from `data` when absent. */
  summary?: AssemblySummary;
  /** Set on the write that ends the Assembly: its metering row, in the same transaction (usage/usage-store.ts). */
  usage?: UsageRecord;
}

/** The service's records in SQLite (WAL): the account, Assemblies (state JSON) and seen nonces. */
export interface ServiceDatabase {
  getAccount(authKey: string): AccountRow | null;
  firstAccount(): AccountRow | null;
  upsertAccount(account: AccountRow): void;
  getAssembly(id: string): AssemblyRow | null;
  insertAssembly(row: AssemblyRow): boolean;
  /** Writes the whole Assembly and drops its journal (assembly-journal.ts) in one transaction. */
  saveAssembly(row: AssemblyRow): void;
  /** Appends one small change to an Assembly's journal: what a client was told must survive a kill. */
  appendAssemblyEvent(assemblyId: string, event: string): void;
  /** Ids of Assemblies whose journal has changes not yet in their row (after a crash). */
  assembliesWithEvents(): string[];
  /** An Assembly's journal, oldest first. */
  assemblyEvents(assemblyId: string): string[];
  assembliesInStates(states: readonly string[]): AssemblyRow[];
  /** The summaries behind GET /assemblies and the notification queue (assembly-index.ts). */
  assemblyIndex: AssemblyIndex;
  /** Metering rows of ended Assemblies (bill, statistics). */
  usage: UsageStore;
  /** Job-slot use per second, behind GET /priority_job_slot_stats (queue/slot-samples.ts). */
  jobSlotSamples: SlotSampleStore;
  /** Every Assembly of a key, newest first. */
  assembliesOf(authKey: string): (AssemblyRow & { createdAt: string })[];
  /** Records the nonce; false when it was already seen and has not expired yet. */
  rememberNonce(authKey: string, nonce: string, expiresAtMs: number, nowMs: number): boolean;
  /** Every Auth Key of the account, oldest first. */
  allAccounts(): AccountRow[];
  accountById(id: string): AccountRow | null;
  updateAccount(authKey: string, change: Partial<Omit<AccountRow, 'authKey'>>): AccountRow | null;
  deleteAccount(authKey: string): boolean;
  /** `last_used`, written at most once a minute per key (the spec says it may lag). */
  touchAccount(authKey: string, nowMs: number): void;
  /** Bearer tokens, kept as SHA-256 hashes only. */
  saveToken(token: TokenRow): void;
  findToken(tokenHash: string): TokenRow | null;
  /** Refresh tokens of browser sign-ins (hashes only); each is used once. */
  saveRefreshToken(row: RefreshTokenRow): void;
  /** Marks it used and returns it; null when unknown. A second use returns the row with `used` true. */
  useRefreshToken(hash: string): (RefreshTokenRow & { used: boolean }) | null;
  /** Ends a grant: every access and refresh token issued under it stops working. */
  revokeGrant(grantId: string): void;
  /** Reads a refresh token without using it up (null when unknown). */
  findRefreshToken(hash: string): (RefreshTokenRow & { used: boolean }) | null;
  /** Public keys (a JWKS as JSON) registered for an OAuth client id; null when none are. */
  clientJwks(clientId: string): { jwks: string; createdMs: number; modifiedMs: number } | null;
  saveClientJwks(clientId: string, jwks: string, nowMs: number): void;
  deleteClientJwks(clientId: string): boolean;
  /** Redirect URIs registered for an OAuth client id (issue 25: /authorize sends codes only there); null when none are. */
  clientRedirects(clientId: string): string[] | null;
  saveClientRedirects(clientId: string, uris: readonly string[], nowMs: number): void;
  deleteClientRedirects(clientId: string): boolean;
  /** Records a client assertion's `jti` until its expiry; false when it was already used. */
  rememberAssertionJti(clientId: string, jti: string, expiresAtMs: number, nowMs: number): boolean;
  /** Once a grant's token request carried a client assertion, every later one must (spec "Bearer tokens"). */
  bindGrantToAssertion(grantId: string): void;
  grantNeedsAssertion(grantId: string): boolean;
  close(): void;
}

export interface TokenRow {
  tokenHash: string;
  authKey: string;
  /** Comma-separated scopes the token carries. */
  scope: string;
  aud: string;
  expiresAtMs: number;
  /** The browser sign-in that issued it, if one did. */
  grantId?: string | null;
}

export interface RefreshTokenRow {
  hash: string;
  grantId: string;
  authKey: string;
  scope: string;
  aud: string;
  clientId: string;
  expiresAtMs: number;
}

export function openDatabase(dataDir: string): ServiceDatabase {
  const file = join(dataDir, 'service.sqlite');
  ensurePrivateDir(dataDir);
  const db = openPrivateSqlite(file);
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS account (auth_key TEXT PRIMARY KEY, auth_secret TEXT NOT NULL,
      require_signature INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS assemblies (id TEXT PRIMARY KEY, state TEXT NOT NULL, data TEXT NOT NULL,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS assembly_events (seq INTEGER PRIMARY KEY AUTOINCREMENT, assembly_id TEXT NOT NULL, event TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS assembly_events_by_assembly ON assembly_events (assembly_id, seq);
    CREATE TABLE IF NOT EXISTS tokens (token_hash TEXT PRIMARY KEY, auth_key TEXT NOT NULL, scope TEXT NOT NULL, aud TEXT NOT NULL,
      expires_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS nonces (auth_key TEXT NOT NULL, nonce TEXT NOT NULL, expires_at INTEGER NOT NULL,
      PRIMARY KEY (auth_key, nonce));
    CREATE TABLE IF NOT EXISTS refresh_tokens (hash TEXT PRIMARY KEY, grant_id TEXT NOT NULL, auth_key TEXT NOT NULL,
      scope TEXT NOT NULL, aud TEXT NOT NULL, client_id TEXT NOT NULL, expires_at INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE IF NOT EXISTS oauth_clients (client_id TEXT PRIMARY KEY, jwks TEXT NOT NULL, created_ms INTEGER NOT NULL, modified_ms INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS assertion_jtis (client_id TEXT NOT NULL, jti TEXT NOT NULL, expires_at INTEGER NOT NULL,
      PRIMARY KEY (client_id, jti));
    CREATE TABLE IF NOT EXISTS assertion_grants (grant_id TEXT PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS oauth_redirects (client_id TEXT PRIMARY KEY, redirect_uris TEXT NOT NULL, modified_ms INTEGER NOT NULL);
  `);
  // Tokens issued by a browser sign-in belong to its grant, so the grant can be revoked as a whole.
  if (!(db.prepare('PRAGMA table_info(tokens)').all() as { name: string }[]).some((c) => c.name === 'grant_id')) {
    db.exec('ALTER TABLE tokens ADD COLUMN grant_id TEXT');
  }
  // Auth Key fields added after the first release: add the columns a database made earlier lacks.
  const columns = new Set((db.prepare('PRAGMA table_info(account)').all() as { name: string }[]).map((c) => c.name));
  for (const [name, type] of [
    ['id', 'TEXT'],
    ['description', "TEXT NOT NULL DEFAULT ''"],
    ['is_active', 'INTEGER NOT NULL DEFAULT 1'],
    ['smart_cdn', 'INTEGER NOT NULL DEFAULT 0'],
    ['scope', 'TEXT'],
    ['signature_algo', 'TEXT'],
    ['can_show_secret', 'INTEGER NOT NULL DEFAULT 1'],
    ['modified_at', 'TEXT'],
    ['last_used_at', 'TEXT'],
  ] as const) {
    if (!columns.has(name)) db.exec(`ALTER TABLE account ADD COLUMN ${name} ${type}`);
  }
  db.exec("UPDATE account SET id = lower(hex(randomblob(16))) WHERE id IS NULL");
  type Stored = {
    auth_key: string;
    auth_secret: string;
    require_signature: number;
    id: string;
    description: string;
    is_active: number;
    smart_cdn: number;
    scope: string | null;
    signature_algo: AccountRow['signatureAlgo'];
    can_show_secret: number;
    created_at: string;
    modified_at: string | null;
    last_used_at: string | null;
  };
  const toAccount = (r: Stored | undefined): AccountRow | null =>
    r
      ? {
          authKey: r.auth_key,
          authSecret: r.auth_secret,
          requireSignature: r.require_signature === 1,
          id: r.id,
          description: r.description,
          isActive: r.is_active === 1,
          smartCdn: r.smart_cdn === 1,
          scope: r.scope,
          signatureAlgo: r.signature_algo ?? null,
          canShowSecret: r.can_show_secret === 1,
          createdAt: r.created_at,
          modifiedAt: r.modified_at,
          lastUsedAt: r.last_used_at,
        }
      : null;
  const getAccount = db.prepare('SELECT * FROM account WHERE auth_key = ?');
  const firstAccount = db.prepare('SELECT * FROM account ORDER BY is_active DESC, created_at LIMIT 1');
  const upsertAccount = db.prepare(`INSERT INTO account (auth_key, auth_secret, require_signature, created_at, id, description,
      is_active, smart_cdn, scope, signature_algo, can_show_secret)
    VALUES (@authKey, @authSecret, @requireSignature, @now, lower(hex(randomblob(16))), @description, @isActive, @smartCdn, @scope,
      @signatureAlgo, @canShowSecret)
    ON CONFLICT(auth_key) DO UPDATE SET auth_secret = excluded.auth_secret, require_signature = excluded.require_signature`);
  const allAccounts = db.prepare('SELECT * FROM account ORDER BY created_at, rowid');
  const accountById = db.prepare('SELECT * FROM account WHERE id = ?');
  const updateAccount = db.prepare(`UPDATE account SET auth_secret = @authSecret, require_signature = @requireSignature,
    description = @description, is_active = @isActive, smart_cdn = @smartCdn, scope = @scope, signature_algo = @signatureAlgo,
    can_show_secret = @canShowSecret, modified_at = @now WHERE auth_key = @authKey`);
  const deleteAccount = db.prepare('DELETE FROM account WHERE auth_key = ?');
  const touchAccount = db.prepare(`UPDATE account SET last_used_at = @now WHERE auth_key = @authKey
    AND (last_used_at IS NULL OR last_used_at < @before)`);
  const getAssembly = db.prepare('SELECT id, state, data FROM assemblies WHERE id = ?');
  const insertAssembly = db.prepare(`INSERT OR IGNORE INTO assemblies (id, state, data, created_at, updated_at)
    VALUES (@id, @state, @data, @now, @now)`);
  const updateAssembly = db.prepare('UPDATE assemblies SET state = @state, data = @data, updated_at = @now WHERE id = @id');
  const dropEvents = db.prepare('DELETE FROM assembly_events WHERE assembly_id = ?');
  const assemblyIndex = openAssemblyIndex(db);
  // Assemblies that ended before this table existed get no row (docs/local-service.md "Metering and the bill").
  const usage = openUsageStore(db);
  const jobSlotSamples = openSlotSamples(db);
  const summaryOf = (row: AssemblyRow): AssemblySummary => row.summary ?? assemblySummary(JSON.parse(row.data) as AssemblyState);
  // The summary is written in the same transaction as the record: the list never disagrees with a status.
  const saveAssembly = db.transaction((row: AssemblyRow & { now: string }) => {
    updateAssembly.run({ id: row.id, state: row.state, data: row.data, now: row.now });
    dropEvents.run(row.id);
    assemblyIndex.upsert(summaryOf(row));
    if (row.usage) usage.record(row.usage);
  });
  const insertAssemblyTx = db.transaction((row: AssemblyRow & { now: string }): boolean => {
    if (insertAssembly.run({ id: row.id, state: row.state, data: row.data, now: row.now }).changes !== 1) return false;
    assemblyIndex.upsert(summaryOf(row));
    if (row.usage) usage.record(row.usage);
    return true;
  });
  const appendEvent = db.prepare('INSERT INTO assembly_events (assembly_id, event) VALUES (?, ?)');
  const eventIds = db.prepare('SELECT DISTINCT assembly_id AS id FROM assembly_events');
  const eventsOf = db.prepare('SELECT event FROM assembly_events WHERE assembly_id = ? ORDER BY seq');
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
  const saveToken = db.prepare('INSERT INTO tokens (token_hash, auth_key, scope, aud, expires_at, grant_id) VALUES (@tokenHash, @authKey, @scope, @aud, @expiresAtMs, @grantId)');
  const saveRefresh = db.prepare(
    'INSERT INTO refresh_tokens (hash, grant_id, auth_key, scope, aud, client_id, expires_at) VALUES (@hash, @grantId, @authKey, @scope, @aud, @clientId, @expiresAtMs)',
  );
  const findRefresh = db.prepare(
    'SELECT hash, grant_id AS grantId, auth_key AS authKey, scope, aud, client_id AS clientId, expires_at AS expiresAtMs, used FROM refresh_tokens WHERE hash = ?',
  );
  const markRefreshUsed = db.prepare('UPDATE refresh_tokens SET used = 1 WHERE hash = ?');
  const revokeTokens = db.prepare('DELETE FROM tokens WHERE grant_id = ?');
  const revokeRefresh = db.prepare('UPDATE refresh_tokens SET used = 1 WHERE grant_id = ?');
  const useRefresh = db.transaction((hash: string) => {
    const row = findRefresh.get(hash) as (RefreshTokenRow & { used: number }) | undefined;
    if (!row) return null;
    markRefreshUsed.run(hash);
    return { ...row, used: row.used === 1 };
  });
  const findToken = db.prepare('SELECT token_hash AS tokenHash, auth_key AS authKey, scope, aud, expires_at AS expiresAtMs FROM tokens WHERE token_hash = ?');
  const pruneTokens = db.prepare('DELETE FROM tokens WHERE expires_at < ?');
  let nonceWrites = 0;
  const getClient = db.prepare('SELECT jwks, created_ms AS createdMs, modified_ms AS modifiedMs FROM oauth_clients WHERE client_id = ?');
  const putClient = db.prepare(
    'INSERT INTO oauth_clients (client_id, jwks, created_ms, modified_ms) VALUES (?, ?, ?, ?) ON CONFLICT (client_id) DO UPDATE SET jwks = excluded.jwks, modified_ms = excluded.modified_ms',
  );
  const deleteClient = db.prepare('DELETE FROM oauth_clients WHERE client_id = ?');
  const getRedirects = db.prepare('SELECT redirect_uris AS uris FROM oauth_redirects WHERE client_id = ?');
  const putRedirects = db.prepare(
    'INSERT INTO oauth_redirects (client_id, redirect_uris, modified_ms) VALUES (?, ?, ?) ON CONFLICT (client_id) DO UPDATE SET redirect_uris = excluded.redirect_uris, modified_ms = excluded.modified_ms',
  );
  const deleteRedirects = db.prepare('DELETE FROM oauth_redirects WHERE client_id = ?');
  const pruneJtis = db.prepare('DELETE FROM assertion_jtis WHERE expires_at < ?');
  const putJti = db.prepare('INSERT OR IGNORE INTO assertion_jtis (client_id, jti, expires_at) VALUES (?, ?, ?)');
  const bindGrant = db.prepare('INSERT OR IGNORE INTO assertion_grants (grant_id) VALUES (?)');
  const grantBound = db.prepare('SELECT 1 FROM assertion_grants WHERE grant_id = ?');
  const rememberJti = db.transaction((clientId: string, jti: string, expiresAt: number, now: number): boolean => {
    // A jti is kept until its assertion expires; after that the assertion is refused for its expiry anyway.
    pruneJtis.run(now);
    return putJti.run(clientId, jti, expiresAt).changes === 1;
  });
  return {
    getAccount: (k) => toAccount(getAccount.get(k) as Stored | undefined),
    firstAccount: () => toAccount(firstAccount.get() as Stored | undefined),
    upsertAccount: (a) => {
      upsertAccount.run({
        authKey: a.authKey,
        authSecret: a.authSecret,
        requireSignature: a.requireSignature ? 1 : 0,
        now: new Date().toISOString(),
        description: a.description ?? '',
        isActive: a.isActive === false ? 0 : 1,
        smartCdn: a.smartCdn ? 1 : 0,
        scope: a.scope ?? null,
        signatureAlgo: a.signatureAlgo ?? null,
        canShowSecret: a.canShowSecret === false ? 0 : 1,
      });
    },
    allAccounts: () => (allAccounts.all() as Stored[]).map((r) => toAccount(r)!),
    accountById: (id) => toAccount(accountById.get(id) as Stored | undefined),
    updateAccount: (authKey, change) => {
      const current = toAccount(getAccount.get(authKey) as Stored | undefined);
      if (!current) return null;
      const next = { ...current, ...change };
      updateAccount.run({
        authKey,
        authSecret: next.authSecret,
        requireSignature: next.requireSignature ? 1 : 0,
        description: next.description ?? '',
        isActive: next.isActive === false ? 0 : 1,
        smartCdn: next.smartCdn ? 1 : 0,
        scope: next.scope ?? null,
        signatureAlgo: next.signatureAlgo ?? null,
        canShowSecret: next.canShowSecret === false ? 0 : 1,
        now: new Date().toISOString(),
      });
      return toAccount(getAccount.get(authKey) as Stored | undefined);
    },
    deleteAccount: (authKey) => deleteAccount.run(authKey).changes === 1,
    touchAccount: (authKey, nowMs) => {
      touchAccount.run({ authKey, now: new Date(nowMs).toISOString(), before: new Date(nowMs - 60_000).toISOString() });
    },
    getAssembly: (id) => (getAssembly.get(id) as AssemblyRow | undefined) ?? null,
    insertAssembly: (row) => insertAssemblyTx({ ...row, now: new Date().toISOString() }),
    assemblyIndex,
    usage,
    jobSlotSamples,
    saveAssembly: (row) => {
      saveAssembly({ ...row, now: new Date().toISOString() });
    },
    appendAssemblyEvent: (assemblyId, event) => {
      appendEvent.run(assemblyId, event);
    },
    assembliesWithEvents: () => (eventIds.all() as { id: string }[]).map((r) => r.id),
    assemblyEvents: (assemblyId) => (eventsOf.all(assemblyId) as { event: string }[]).map((r) => r.event),
    assembliesInStates: (states) =>
      db.prepare(`SELECT id, state, data FROM assemblies WHERE state IN (${states.map(() => '?').join(',')})`).all(...states) as AssemblyRow[],
    assembliesOf: (authKey) => assembliesOf.all(authKey) as (AssemblyRow & { createdAt: string })[],
    rememberNonce: (authKey, nonce, expiresAt, now) => {
      // Expired nonces can never collide again, so prune them now and then.
      if (++nonceWrites % 100 === 0) pruneNonces.run(now);
      return rememberNonce(authKey, nonce, expiresAt, now);
    },
    saveToken: (t) => {
      pruneTokens.run(Date.now() - 24 * 3600_000);
      saveToken.run({ grantId: null, ...t });
    },
    saveRefreshToken: (r) => void saveRefresh.run(r),
    findRefreshToken: (hash) => {
      const row = findRefresh.get(hash) as (RefreshTokenRow & { used: number }) | undefined;
      return row ? { ...row, used: row.used === 1 } : null;
    },
    useRefreshToken: (hash) => useRefresh(hash),
    revokeGrant: (grantId) => {
      revokeTokens.run(grantId);
      revokeRefresh.run(grantId);
    },
    findToken: (h) => (findToken.get(h) as TokenRow | undefined) ?? null,
    clientRedirects: (clientId) => {
      const row = getRedirects.get(clientId) as { uris: string } | undefined;
      return row ? (JSON.parse(row.uris) as string[]) : null;
    },
    saveClientRedirects: (clientId, uris, nowMs) => void putRedirects.run(clientId, JSON.stringify(uris), nowMs),
    deleteClientRedirects: (clientId) => deleteRedirects.run(clientId).changes > 0,
    clientJwks: (clientId) => (getClient.get(clientId) as { jwks: string; createdMs: number; modifiedMs: number } | undefined) ?? null,
    saveClientJwks: (clientId, jwks, now) => void putClient.run(clientId, jwks, now, now),
    deleteClientJwks: (clientId) => deleteClient.run(clientId).changes > 0,
    rememberAssertionJti: (clientId, jti, expiresAt, now) => rememberJti(clientId, jti, expiresAt, now),
    bindGrantToAssertion: (grantId) => void bindGrant.run(grantId),
    grantNeedsAssertion: (grantId) => grantBound.get(grantId) !== undefined,
    close: () => db.close(),
  };
}
