import type Database from 'better-sqlite3';
import type { UsageOutcome, UsageRecord } from './usage-record';

/** Sums of usage rows over one bucket (statistics) or one day (the bill). */
export interface UsageBucket {
  /** Bucket index from the range start. */
  k: number;
  assemblies: number;
  successful: number;
  cancelled: number;
  erroneous: number;
  requestAborted: number;
  filesUploaded: number;
  bytesUploaded: number;
  processedBytes: number;
  outputFiles: number;
  outputBytes: number;
  uploadS: number;
  queueS: number;
  executionS: number;
  /** Bytes uploaded by Assemblies with an upload duration > 0 (the upload speed's numerator). */
  timedUploadBytes: number;
  /** Bytes processed by Assemblies with an execution duration > 0. */
  timedProcessedBytes: number;
}

export interface UsageRange {
  fromMs: number;
  toMs: number;
  /** Bucket width in ms. */
  bucketMs: number;
  /** null = every region. */
  region: string | null;
}

/**
 * Metering rows in SQLite: one per ended Assembly (`usage`) and one per robot it ran (`usage_robots`),
 * keyed by Assembly id and written with INSERT OR IGNORE, so a second write (a restart, a recovery) changes
 * nothing. Every query filters on `created_ms` through an index and sums with GROUP BY in SQL.
 */
export interface UsageStore {
  record(u: UsageRecord): void;
  /** Many rows in one transaction (the statistics bench seeds through this). */
  recordMany(rows: readonly UsageRecord[]): void;
  get(assemblyId: string): UsageRecord | null;
  /** Sums per bucket of `bucketMs` from `fromMs`, only buckets that have rows. */
  buckets(r: UsageRange): UsageBucket[];
  /** Erroneous Assemblies per bucket and error code. */
  errorBuckets(r: UsageRange): { k: number; error: string; n: number }[];
  /** Bytes per bucket and robot, `/assemblies` (uploads) included. */
  robotBuckets(r: UsageRange): { k: number; robot: string; bytes: number }[];
}

export function openUsageStore(db: Database.Database): UsageStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS usage (assembly_id TEXT PRIMARY KEY, auth_key TEXT NOT NULL, region TEXT NOT NULL,
      created_ms INTEGER NOT NULL, ended_ms INTEGER NOT NULL, outcome TEXT NOT NULL, error_code TEXT,
      upload_s REAL NOT NULL, queue_s REAL NOT NULL, execution_s REAL NOT NULL, files_uploaded INTEGER NOT NULL,
      bytes_uploaded INTEGER NOT NULL, output_files INTEGER NOT NULL, output_bytes INTEGER NOT NULL, processed_bytes INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS usage_by_created ON usage (created_ms);
    CREATE INDEX IF NOT EXISTS usage_errors ON usage (created_ms, error_code) WHERE error_code IS NOT NULL;
    CREATE TABLE IF NOT EXISTS usage_robots (assembly_id TEXT NOT NULL, robot TEXT NOT NULL, created_ms INTEGER NOT NULL,
      region TEXT NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY (assembly_id, robot));
    CREATE INDEX IF NOT EXISTS usage_robots_by_created ON usage_robots (created_ms, robot, bytes);
  `);
  const insert = db.prepare(`INSERT OR IGNORE INTO usage (assembly_id, auth_key, region, created_ms, ended_ms, outcome, error_code,
      upload_s, queue_s, execution_s, files_uploaded, bytes_uploaded, output_files, output_bytes, processed_bytes)
    VALUES (@assemblyId, @authKey, @region, @createdMs, @endedMs, @outcome, @errorCode, @uploadDurationS, @queueDurationS,
      @executionDurationS, @filesUploaded, @bytesUploaded, @outputFiles, @outputBytes, @processedBytes)`);
  const insertRobot = db.prepare(`INSERT OR IGNORE INTO usage_robots (assembly_id, robot, created_ms, region, bytes)
    VALUES (?, ?, ?, ?, ?)`);
  const one = (u: UsageRecord): void => {
    const { robots, ...row } = u;
    // The robot rows only come with the first write of the Assembly's row: never twice.
    if (insert.run(row).changes !== 1) return;
    for (const [robot, bytes] of Object.entries(robots)) insertRobot.run(u.assemblyId, robot, u.createdMs, u.region, bytes);
  };
  const many = db.transaction((rows: readonly UsageRecord[]) => rows.forEach(one));
  const getRow = db.prepare('SELECT * FROM usage WHERE assembly_id = ?');
  const getRobots = db.prepare('SELECT robot, bytes FROM usage_robots WHERE assembly_id = ?');
  // Region filter: "@region IS NULL OR region = @region" would keep SQLite from planning one query per
  // case; two prepared variants instead.
  const where = (regional: boolean): string => `created_ms >= @fromMs AND created_ms < @toMs${regional ? ' AND region = @region' : ''}`;
  const bucketSql = (regional: boolean) =>
    db.prepare(`SELECT CAST((created_ms - @fromMs) / @bucketMs AS INTEGER) AS k, COUNT(*) AS assemblies,
      SUM(outcome = 'successful') AS successful, SUM(outcome = 'cancelled') AS cancelled, SUM(outcome = 'erroneous') AS erroneous,
      SUM(outcome = 'request-aborted') AS requestAborted, SUM(files_uploaded) AS filesUploaded, SUM(bytes_uploaded) AS bytesUploaded,
      SUM(processed_bytes) AS processedBytes, SUM(output_files) AS outputFiles, SUM(output_bytes) AS outputBytes,
      SUM(upload_s) AS uploadS, SUM(queue_s) AS queueS, SUM(execution_s) AS executionS,
      SUM(CASE WHEN upload_s > 0 THEN bytes_uploaded ELSE 0 END) AS timedUploadBytes,
      SUM(CASE WHEN execution_s > 0 THEN processed_bytes ELSE 0 END) AS timedProcessedBytes
      FROM usage WHERE ${where(regional)} GROUP BY k ORDER BY k`);
  const errorSql = (regional: boolean) =>
    db.prepare(`SELECT CAST((created_ms - @fromMs) / @bucketMs AS INTEGER) AS k, error_code AS error, COUNT(*) AS n FROM usage
      WHERE error_code IS NOT NULL AND ${where(regional)} GROUP BY k, error_code ORDER BY k, error_code`);
  const robotSql = (regional: boolean) =>
    db.prepare(`SELECT k, robot, SUM(bytes) AS bytes FROM (
        SELECT CAST((created_ms - @fromMs) / @bucketMs AS INTEGER) AS k, robot, bytes FROM usage_robots WHERE ${where(regional)}
        UNION ALL
        SELECT CAST((created_ms - @fromMs) / @bucketMs AS INTEGER) AS k, '/assemblies' AS robot, bytes_uploaded AS bytes FROM usage WHERE ${where(regional)}
      ) GROUP BY k, robot ORDER BY k, robot`);
  const q = { bucket: [bucketSql(false), bucketSql(true)], error: [errorSql(false), errorSql(true)], robot: [robotSql(false), robotSql(true)] };
  const args = (r: UsageRange) => ({ fromMs: Math.floor(r.fromMs), toMs: Math.floor(r.toMs), bucketMs: Math.max(1, Math.floor(r.bucketMs)), ...(r.region !== null ? { region: r.region } : {}) });
  const pick = <T>(pair: T[], r: UsageRange): T => pair[r.region === null ? 0 : 1]!;
  type Row = Omit<UsageRecord, 'robots'>;
  return {
    record: (u) => one(u),
    recordMany: (rows) => many(rows),
    get: (id) => {
      const r = getRow.get(id) as Record<string, unknown> | undefined;
      if (!r) return null;
      const robots = Object.fromEntries((getRobots.all(id) as { robot: string; bytes: number }[]).map((x) => [x.robot, x.bytes]));
      const row: Row = {
        assemblyId: r.assembly_id as string,
        authKey: r.auth_key as string,
        region: r.region as string,
        createdMs: r.created_ms as number,
        endedMs: r.ended_ms as number,
        outcome: r.outcome as UsageOutcome,
        errorCode: (r.error_code as string | null) ?? null,
        uploadDurationS: r.upload_s as number,
        queueDurationS: r.queue_s as number,
        executionDurationS: r.execution_s as number,
        filesUploaded: r.files_uploaded as number,
        bytesUploaded: r.bytes_uploaded as number,
        outputFiles: r.output_files as number,
        outputBytes: r.output_bytes as number,
        processedBytes: r.processed_bytes as number,
      };
      return { ...row, robots };
    },
    buckets: (r) => pick(q.bucket, r).all(args(r)) as UsageBucket[],
    errorBuckets: (r) => pick(q.error, r).all(args(r)) as { k: number; error: string; n: number }[],
    robotBuckets: (r) => pick(q.robot, r).all(args(r)) as { k: number; robot: string; bytes: number }[],
  };
}
