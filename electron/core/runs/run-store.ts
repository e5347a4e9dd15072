import path from 'node:path';
import { assemblyStatusSchema, type AssemblyStatus } from '../../../shared/api/assembly-status';
import type { Instructions } from '../../../shared/api/instructions';
import { appErrorSchema, fileUploadStateSchema, type FileUploadState, type LocalFile } from '../../../shared/ipc/models';
import type { AppError } from '../../../shared/result';
import { ensurePrivateDir, openOrSetAside, openPrivateSqlite } from '../vault/private-files';

/** One run as persisted: enough to list it after a restart and to resume its uploads. */
export interface StoredRun {
  runId: string;
  workspaceId: string;
  createdAt: string;
  instructions: Instructions;
  state: string;
  error: AppError | null;
  assemblyId: string | null;
  status: AssemblyStatus | null;
  finished: boolean;
  files: StoredRunFile[];
}

export interface StoredRunFile extends LocalFile {
  fileId: string;
  state: FileUploadState;
  bytesUploaded: number;
  uploadUrl: string | null;
  error: string | null;
}

export interface RunStore {
  insert(run: StoredRun): void;
  updateRun(runId: string, change: { state: string; error: AppError | null; assemblyId: string | null; status: AssemblyStatus | null; finished: boolean }): void;
  /** Batched: called with the coalesced progress, a few times a second. */
  updateFiles(runId: string, files: ReadonlyArray<{ fileId: string; state: FileUploadState; bytesUploaded: number; error?: string | undefined }>): void;
  setUploadUrl(runId: string, fileId: string, uploadUrl: string): void;
  /** A finished run's last status, whole (finished runs keep only its header in memory; a running one is stored as its header). */
  statusOf(runId: string): AssemblyStatus | null;
  /** Every run; a finished run's status comes as its header only (statusOf has it whole). */
  load(): StoredRun[];
  close(): void;
}

/**
 * Runs in SQLite (`<dataDir>/core.sqlite`, WAL): a restart lists every run again and resumes unfinished
 * uploads from their tus URL. Statuses are stored as JSON; files one row each.
 */
export function openRunStore(dataDir: string): RunStore {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, 'core.sqlite');
  return openOrSetAside(file, openAt);
}

function openAt(file: string): RunStore {
  const db = openPrivateSqlite(file);
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS runs (
      run_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      created_at TEXT NOT NULL,
      instructions TEXT NOT NULL,
      state TEXT NOT NULL,
      error TEXT,
      assembly_id TEXT,
      status TEXT,
      finished INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS run_files (
      run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
      file_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      path TEXT NOT NULL,
      relative_path TEXT NOT NULL,
      name TEXT NOT NULL,
      size INTEGER NOT NULL,
      mime TEXT,
      state TEXT NOT NULL,
      bytes_uploaded INTEGER NOT NULL DEFAULT 0,
      upload_url TEXT,
      error TEXT,
      PRIMARY KEY (run_id, file_id)
    );
  `);

  const insertRun = db.prepare(
    'INSERT INTO runs (run_id, workspace_id, created_at, instructions, state, error, assembly_id, status, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertFile = db.prepare(
    'INSERT INTO run_files (run_id, file_id, seq, path, relative_path, name, size, mime, state, bytes_uploaded, upload_url, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const updateRun = db.prepare('UPDATE runs SET state = ?, error = ?, assembly_id = ?, status = ?, finished = ? WHERE run_id = ?');
  const updateFile = db.prepare('UPDATE run_files SET state = ?, bytes_uploaded = ?, error = ? WHERE run_id = ? AND file_id = ?');
  const setUrl = db.prepare('UPDATE run_files SET upload_url = ? WHERE run_id = ? AND file_id = ?');
  // A finished run's uploads and results (megabytes for a 1,000-file Assembly) stay on disk until asked for.
  const allRuns = db.prepare(
    "SELECT run_id, workspace_id, created_at, instructions, state, error, assembly_id, finished, CASE WHEN finished = 1 AND json_valid(status) THEN json_remove(status, '$.uploads', '$.results', '$.tus_uploads') ELSE status END AS status FROM runs ORDER BY created_at",
  );
  const statusOfRun = db.prepare('SELECT status FROM runs WHERE run_id = ?');
  const filesOf = db.prepare('SELECT * FROM run_files WHERE run_id = ? ORDER BY seq');

  const insertAll = db.transaction((run: StoredRun) => {
    insertRun.run(run.runId, run.workspaceId, run.createdAt, JSON.stringify(run.instructions), run.state, json(run.error), run.assemblyId, json(run.status), run.finished ? 1 : 0);
    run.files.forEach((f, seq) =>
      insertFile.run(run.runId, f.fileId, seq, f.path, f.relativePath, f.name, f.size, f.mime, f.state, f.bytesUploaded, f.uploadUrl, f.error),
    );
  });
  const updateMany = db.transaction((runId: string, files: Parameters<RunStore['updateFiles']>[1]) => {
    for (const f of files) updateFile.run(f.state, f.bytesUploaded, f.error ?? null, runId, f.fileId);
  });

  return {
    insert: (run) => insertAll(run),
    updateRun: (runId, c) => void updateRun.run(c.state, json(c.error), c.assemblyId, json(c.status), c.finished ? 1 : 0, runId),
    updateFiles: (runId, files) => updateMany(runId, files),
    setUploadUrl: (runId, fileId, url) => void setUrl.run(url, runId, fileId),
    statusOf: (runId) => parseWith(assemblyStatusSchema, (statusOfRun.get(runId) as { status: string | null } | undefined)?.status ?? null),
    load: () =>
      (allRuns.all() as RunRow[]).map((row) => ({
        runId: row.run_id,
        workspaceId: row.workspace_id,
        createdAt: row.created_at,
        instructions: JSON.parse(row.instructions) as Instructions,
        state: row.state,
        error: parseWith(appErrorSchema, row.error),
        assemblyId: row.assembly_id,
        status: parseWith(assemblyStatusSchema, row.status),
        finished: row.finished === 1,
        files: (filesOf.all(row.run_id) as FileRow[]).map((f) => ({
          fileId: f.file_id,
          path: f.path,
          relativePath: f.relative_path,
          name: f.name,
          size: f.size,
          mime: f.mime,
          state: fileUploadStateSchema.catch('queued').parse(f.state),
          bytesUploaded: f.bytes_uploaded,
          uploadUrl: f.upload_url,
          error: f.error,
        })),
      })),
    close: () => db.close(),
  };
}

interface RunRow {
  run_id: string;
  workspace_id: string;
  created_at: string;
  instructions: string;
  state: string;
  error: string | null;
  assembly_id: string | null;
  status: string | null;
  finished: number;
}
interface FileRow {
  file_id: string;
  path: string;
  relative_path: string;
  name: string;
  size: number;
  mime: string | null;
  state: string;
  bytes_uploaded: number;
  upload_url: string | null;
  error: string | null;
}

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

function parseWith<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, raw: string | null): T | null {
  if (raw === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
