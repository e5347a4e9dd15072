import path from 'node:path';
import { DEFAULT_TRANSFER_SETTINGS, transferSettingsSchema, type TransferSettings } from '../../../shared/ipc/transfer-models';
import { ensurePrivateDir, openOrSetAside, openPrivateSqlite } from '../vault/private-files';
import type { BatchRec, FileRec, TransferRec } from './transfer-model';

/** A verified upload of earlier: "skip unchanged" compares a file against it. */
export interface LedgerEntry {
  path: string;
  size: number;
  mtimeMs: number;
  md5: string;
}

export interface LoadedQueue {
  settings: TransferSettings;
  transfers: TransferRec[];
  batches: BatchRec[];
  /** In placement order. */
  files: FileRec[];
}

export interface TransferStore {
  load(): LoadedQueue;
  /** One transaction for everything that changed since the last write (the engine calls it every ~100 ms). */
  write(change: { files: Iterable<FileRec>; batches: Iterable<BatchRec>; transfers: Iterable<TransferRec> }): void;
  saveSettings(settings: TransferSettings): void;
  /** Forget these transfers with their batches and files (Clear finished); the ledger of verified uploads stays. */
  remove(transferIds: readonly string[]): void;
  ledgerGet(filePath: string): LedgerEntry | null;
  /** Kept until the next `write` (or `close`), in its transaction: one commit per file cost the core ~0.1 ms each. */
  ledgerPut(entry: LedgerEntry): void;
  close(): void;
}

/** The queue in SQLite (`<dataDir>/transfers.sqlite`, WAL): every file's state, offset, method and tus URL. */
export function openTransferStore(dataDir: string): TransferStore {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, 'transfers.sqlite');
  return openOrSetAside(file, openAt);
}

function openAt(file: string): TransferStore {
  const db = openPrivateSqlite(file);
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS settings (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS transfers (id TEXT PRIMARY KEY, seq INTEGER NOT NULL, json TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS batches (id TEXT PRIMARY KEY, seq INTEGER NOT NULL, json TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS files (
      id TEXT PRIMARY KEY,
      seq INTEGER NOT NULL,
      transfer_id TEXT NOT NULL,
      batch_id TEXT,
      path TEXT NOT NULL,
      relative_path TEXT NOT NULL,
      name TEXT NOT NULL,
      size INTEGER NOT NULL,
      mime TEXT,
      mtime_ms REAL NOT NULL,
      state TEXT NOT NULL,
      bytes_sent INTEGER NOT NULL,
      method TEXT,
      attempts INTEGER NOT NULL,
      error TEXT,
      note TEXT,
      upload_url TEXT,
      md5 TEXT,
      unchanged INTEGER NOT NULL,
      resends INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS ledger (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, md5 TEXT NOT NULL);
  `);
  const seqOf = (id: string) => Number(id.slice(id.lastIndexOf(':') + 1).replace(/^b/, '')) || 0;
  const putTransfer = db.prepare('INSERT OR REPLACE INTO transfers (id, seq, json) VALUES (?, ?, ?)');
  const putBatch = db.prepare('INSERT OR REPLACE INTO batches (id, seq, json) VALUES (?, ?, ?)');
  const putFile = db.prepare(`INSERT OR REPLACE INTO files
    (id, seq, transfer_id, batch_id, path, relative_path, name, size, mime, mtime_ms, state, bytes_sent, method, attempts, error, note, upload_url, md5, unchanged, resends)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const transferSeq = db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 AS next FROM transfers');
  const known = new Map<string, number>();
  for (const row of db.prepare('SELECT id, seq FROM transfers').all() as Array<{ id: string; seq: number }>) known.set(row.id, row.seq);

  const getLedger = db.prepare('SELECT path, size, mtime_ms AS mtimeMs, md5 FROM ledger WHERE path = ?');
  const putLedger = db.prepare('INSERT OR REPLACE INTO ledger (path, size, mtime_ms, md5) VALUES (?, ?, ?, ?)');
  // Verified uploads not written yet, by path (a later one of a path replaces the earlier).
  const pendingLedger = new Map<string, LedgerEntry>();
  const flushLedger = (): void => {
    for (const e of pendingLedger.values()) putLedger.run(e.path, e.size, e.mtimeMs, e.md5);
    pendingLedger.clear();
  };

  const write = db.transaction((change: Parameters<TransferStore['write']>[0]) => {
    flushLedger();
    for (const t of change.transfers) {
      let seq = known.get(t.id);
      if (seq === undefined) {
        seq = (transferSeq.get() as { next: number }).next;
        known.set(t.id, seq);
      }
      putTransfer.run(t.id, seq, JSON.stringify(t));
    }
    for (const b of change.batches) {
      // File ids are stored with the files (their batch_id); the rest of the batch as JSON.
      const { fileIds: _ids, ...rest } = b;
      putBatch.run(b.id, (known.get(b.transferId) ?? 0) * 1e6 + b.seq, JSON.stringify(rest));
    }
    for (const f of change.files) {
      putFile.run(
        f.id, (known.get(f.transferId) ?? 0) * 1e7 + seqOf(f.id), f.transferId, f.batchId, f.path, f.relativePath, f.name, f.size, f.mime, f.mtimeMs, f.state,
        f.bytesSent, f.method, f.attempts, f.error, f.note, f.uploadUrl, f.md5, f.unchangedCandidate ? 1 : 0, f.resends,
      );
    }
  });

  const dropFiles = db.prepare('DELETE FROM files WHERE transfer_id = ?');
  const dropBatches = db.prepare("DELETE FROM batches WHERE json_extract(json, '$.transferId') = ?");
  const dropTransfer = db.prepare('DELETE FROM transfers WHERE id = ?');
  const remove = db.transaction((ids: readonly string[]) => {
    for (const id of ids) {
      dropFiles.run(id);
      dropBatches.run(id);
      dropTransfer.run(id);
      known.delete(id);
    }
  });


  return {
    load() {
      const row = db.prepare('SELECT json FROM settings WHERE id = 1').get() as { json: string } | undefined;
      let settings = DEFAULT_TRANSFER_SETTINGS;
      if (row) {
        const parsed = transferSettingsSchema.safeParse({ ...DEFAULT_TRANSFER_SETTINGS, ...(JSON.parse(row.json) as object) });
        if (parsed.success) settings = parsed.data;
      }
      const transfers = (db.prepare('SELECT json FROM transfers ORDER BY seq').all() as Array<{ json: string }>).map((r) => JSON.parse(r.json) as TransferRec);
      const batches = (db.prepare('SELECT json FROM batches ORDER BY seq').all() as Array<{ json: string }>).map(
        // Batches stored before ids existed start at the first id; before notes, with none.
        (r) => ({ idAttempt: 0, note: null, ...(JSON.parse(r.json) as Partial<BatchRec>), fileIds: [] }) as BatchRec,
      );
      const byId = new Map(batches.map((b) => [b.id, b]));
      const files: FileRec[] = [];
      for (const r of db.prepare('SELECT * FROM files ORDER BY seq').iterate() as Iterable<FileRow>) {
        const f: FileRec = {
          id: r.id,
          transferId: r.transfer_id,
          batchId: r.batch_id,
          path: r.path,
          relativePath: r.relative_path,
          name: r.name,
          size: r.size,
          mime: r.mime,
          mtimeMs: r.mtime_ms,
          state: r.state as FileRec['state'],
          bytesSent: r.bytes_sent,
          method: r.method as FileRec['method'],
          attempts: r.attempts,
          error: r.error,
          note: r.note,
          uploadUrl: r.upload_url,
          md5: r.md5,
          retryAt: null,
          unchangedCandidate: r.unchanged === 1,
          serviceMd5: null,
          resends: r.resends,
        };
        files.push(f);
        if (f.batchId) byId.get(f.batchId)?.fileIds.push(f.id);
      }
      // Batches stored before `multipartFiles`: the create request's parts are its first files sent by multipart.
      const methodOf = new Map(files.map((f) => [f.id, f.method]));
      for (const b of batches) {
        if (typeof b.multipartFiles !== 'number') b.multipartFiles = b.assemblyFiles.filter((id) => methodOf.get(id) === 'multipart').length;
      }
      return { settings, transfers, batches, files };
    },
    write: (change) => write(change),
    remove: (ids) => remove(ids),
    saveSettings: (settings) => void db.prepare('INSERT OR REPLACE INTO settings (id, json) VALUES (1, ?)').run(JSON.stringify(settings)),
    ledgerGet: (p) => pendingLedger.get(p) ?? (getLedger.get(p) as LedgerEntry | undefined) ?? null,
    ledgerPut: (e) => void pendingLedger.set(e.path, { ...e }),
    close: () => {
      if (pendingLedger.size > 0) db.transaction(flushLedger)();
      db.close();
    },
  };
}

interface FileRow {
  id: string;
  transfer_id: string;
  batch_id: string | null;
  path: string;
  relative_path: string;
  name: string;
  size: number;
  mime: string | null;
  mtime_ms: number;
  state: string;
  bytes_sent: number;
  method: string | null;
  attempts: number;
  error: string | null;
  note: string | null;
  upload_url: string | null;
  md5: string | null;
  unchanged: number;
  resends: number;
}
