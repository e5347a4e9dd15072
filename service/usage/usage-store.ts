import type Database from 'better-sqlite3';
import { UPLOAD_KEY, type UsageOutcome, type UsageRecord } from './usage-record';

const DAY_MS = 86_400_000;

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
 * Rollup grains, coarse to fine (ms): hour, ten minutes, minute, then the rows themselves. A bucket
 * boundary that cuts an hour costs at most 6 ten-minute cells, 10 minute cells and one minute of rows.
 */
export const CELL_GRAINS_MS = [3_600_000, 600_000, 60_000] as const;

/** The sums a bucket holds, in UsageBucket's order, with their columns in `usage_cells`. */
const SUMS = [
  ['assemblies', 'assemblies', '1'],
  ['successful', 'successful', "(outcome = 'successful')"],
  ['cancelled', 'cancelled', "(outcome = 'cancelled')"],
  ['erroneous', 'erroneous', "(outcome = 'erroneous')"],
  ['requestAborted', 'request_aborted', "(outcome = 'request-aborted')"],
  ['filesUploaded', 'files_uploaded', 'files_uploaded'],
  ['bytesUploaded', 'bytes_uploaded', 'bytes_uploaded'],
  ['processedBytes', 'processed_bytes', 'processed_bytes'],
  ['outputFiles', 'output_files', 'output_files'],
  ['outputBytes', 'output_bytes', 'output_bytes'],
  ['uploadS', 'upload_s', 'upload_s'],
  ['queueS', 'queue_s', 'queue_s'],
  ['executionS', 'execution_s', 'execution_s'],
  ['timedUploadBytes', 'timed_upload_bytes', 'CASE WHEN upload_s > 0 THEN bytes_uploaded ELSE 0 END'],
  ['timedProcessedBytes', 'timed_processed_bytes', 'CASE WHEN execution_s > 0 THEN processed_bytes ELSE 0 END'],
] as const satisfies readonly (readonly [keyof UsageBucket, string, string])[];

/**
 * Metering rows in SQLite: one per ended Assembly (`usage`) and one per robot it ran (`usage_robots`),
 * keyed by Assembly id and written with INSERT OR IGNORE, so a second write (a restart, a recovery) changes
 * nothing. Every query filters on `created_ms` through an index and sums with GROUP BY in SQL.
 *
 * Statistics read rollups (`usage_cells`: the same sums per hour and per minute, kept up to date in the
 * row's own transaction), so their cost follows the time range, not the number of Assemblies: a bucket
 * is the sum of the whole hours in it, then of the whole minutes around those, then of the rows in the
 * minutes a bucket boundary cuts (see `buckets`). Exact for any since/granularity; `rawBuckets` is the
 * plain GROUP BY over the rows the tests compare it with.
 */
export interface UsageStore {
  record(u: UsageRecord): void;
  /** Many rows in one transaction (the statistics bench seeds through this). */
  recordMany(rows: readonly UsageRecord[]): void;
  get(assemblyId: string): UsageRecord | null;
  /** Sums per bucket of `bucketMs` from `fromMs`, only buckets that have rows, ordered by `k` (from the rollups). */
  buckets(r: UsageRange): UsageBucket[];
  /** The same from the rows alone (one GROUP BY): the reference `buckets` must equal. */
  rawBuckets(r: UsageRange): UsageBucket[];
  /** Erroneous Assemblies per bucket and error code. */
  errorBuckets(r: UsageRange): { k: number; error: string; n: number }[];
  /** Bytes per bucket and robot, `/assemblies` (uploads) included (whole UTC days: from a per-day rollup). */
  robotBuckets(r: UsageRange): { k: number; robot: string; bytes: number }[];
  /** The same from the rows alone: the reference the tests compare it with. */
  rawRobotBuckets(r: UsageRange): { k: number; robot: string; bytes: number }[];
}

export function openUsageStore(db: Database.Database): UsageStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS usage (assembly_id TEXT PRIMARY KEY, auth_key TEXT NOT NULL, region TEXT NOT NULL,
      created_ms INTEGER NOT NULL, ended_ms INTEGER NOT NULL, outcome TEXT NOT NULL, error_code TEXT,
      upload_s REAL NOT NULL, queue_s REAL NOT NULL, execution_s REAL NOT NULL, files_uploaded INTEGER NOT NULL,
      bytes_uploaded INTEGER NOT NULL, output_files INTEGER NOT NULL, output_bytes INTEGER NOT NULL, processed_bytes INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS usage_by_created ON usage (created_ms);
    CREATE INDEX IF NOT EXISTS usage_errors ON usage (created_ms, error_code, region) WHERE error_code IS NOT NULL;
    CREATE TABLE IF NOT EXISTS usage_robots (assembly_id TEXT NOT NULL, robot TEXT NOT NULL, created_ms INTEGER NOT NULL,
      region TEXT NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY (assembly_id, robot));
    CREATE INDEX IF NOT EXISTS usage_robots_by_created ON usage_robots (created_ms, robot, bytes);
    CREATE TABLE IF NOT EXISTS usage_cells (grain_ms INTEGER NOT NULL, cell_ms INTEGER NOT NULL, region TEXT NOT NULL,
      ${SUMS.map(([, col]) => `${col} REAL NOT NULL`).join(', ')}, PRIMARY KEY (grain_ms, cell_ms, region)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS usage_robot_days (day_ms INTEGER NOT NULL, robot TEXT NOT NULL, region TEXT NOT NULL,
      bytes INTEGER NOT NULL, PRIMARY KEY (day_ms, robot, region)) WITHOUT ROWID;
  `);
  if (!db.prepare('SELECT 1 FROM usage_robot_days LIMIT 1').get() && db.prepare('SELECT 1 FROM usage LIMIT 1').get()) {
    db.exec(`INSERT INTO usage_robot_days (day_ms, robot, region, bytes)
      SELECT day, robot, region, SUM(bytes) FROM (
        SELECT (created_ms / ${DAY_MS}) * ${DAY_MS} AS day, robot, region, bytes FROM usage_robots
        UNION ALL SELECT (created_ms / ${DAY_MS}) * ${DAY_MS}, '${UPLOAD_KEY}', region, bytes_uploaded FROM usage
      ) GROUP BY day, robot, region`);
  }
  const addRobotDay = db.prepare(`INSERT INTO usage_robot_days (day_ms, robot, region, bytes) VALUES (?, ?, ?, ?)
    ON CONFLICT (day_ms, robot, region) DO UPDATE SET bytes = bytes + excluded.bytes`);
  // Rows written before a grain's rollup existed are rolled up once.
  for (const grain of CELL_GRAINS_MS) {
    if (!db.prepare('SELECT 1 FROM usage_cells WHERE grain_ms = ? LIMIT 1').get(grain) && db.prepare('SELECT 1 FROM usage LIMIT 1').get()) {
      db.prepare(`INSERT INTO usage_cells (grain_ms, cell_ms, region, ${SUMS.map(([, col]) => col).join(', ')})
        SELECT ${grain}, (created_ms / ${grain}) * ${grain} AS cell, region, ${SUMS.map(([, , expr]) => `SUM(${expr})`).join(', ')}
        FROM usage GROUP BY cell, region`).run();
    }
  }
  const addCell = db.prepare(`INSERT INTO usage_cells (grain_ms, cell_ms, region, ${SUMS.map(([, col]) => col).join(', ')})
    VALUES (@grain, @cell, @region, ${SUMS.map(([key]) => `@${key}`).join(', ')})
    ON CONFLICT (grain_ms, cell_ms, region) DO UPDATE SET ${SUMS.map(([, col]) => `${col} = ${col} + excluded.${col}`).join(', ')}`);
  const insert = db.prepare(`INSERT OR IGNORE INTO usage (assembly_id, auth_key, region, created_ms, ended_ms, outcome, error_code,
      upload_s, queue_s, execution_s, files_uploaded, bytes_uploaded, output_files, output_bytes, processed_bytes)
    VALUES (@assemblyId, @authKey, @region, @createdMs, @endedMs, @outcome, @errorCode, @uploadDurationS, @queueDurationS,
      @executionDurationS, @filesUploaded, @bytesUploaded, @outputFiles, @outputBytes, @processedBytes)`);
  const insertRobot = db.prepare(`INSERT OR IGNORE INTO usage_robots (assembly_id, robot, created_ms, region, bytes)
    VALUES (?, ?, ?, ?, ?)`);
  const one = (u: UsageRecord): void => {
    const { robots, ...row } = u;
    // The robot rows and rollups only come with the first write of the Assembly's row: never twice.
    if (insert.run(row).changes !== 1) return;
    for (const [robot, bytes] of Object.entries(robots)) insertRobot.run(u.assemblyId, robot, u.createdMs, u.region, bytes);
    const day = u.createdMs - (u.createdMs % DAY_MS);
    for (const [robot, bytes] of [[UPLOAD_KEY, u.bytesUploaded] as const, ...Object.entries(robots)]) addRobotDay.run(day, robot, u.region, bytes);
    const sums = bucketOf(u);
    for (const grain of CELL_GRAINS_MS) addCell.run({ grain, cell: u.createdMs - (u.createdMs % grain), region: u.region, ...sums });
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
  // Whole cells of one grain inside the given ranges (a JSON array of [lo, hi), multiples of the grain)
  // that no bucket boundary cuts, summed per bucket: one statement for all the ranges of a grain. CROSS JOIN
  // keeps the ranges the outer loop (each a primary-key range search); the planner would otherwise scan the cells.
  const cellSql = (regional: boolean) =>
    db.prepare(`SELECT CAST((c.cell_ms - @fromMs) / @bucketMs AS INTEGER) AS k, ${SUMS.map(([key, col]) => `SUM(c.${col}) AS ${key}`).join(', ')}
      FROM json_each(@ranges) AS j CROSS JOIN usage_cells AS c ON c.grain_ms = @grain
        AND c.cell_ms >= json_extract(j.value, '$[0]') AND c.cell_ms < json_extract(j.value, '$[1]')${regional ? ' AND c.region = @region' : ''}
      WHERE CAST((c.cell_ms - @fromMs) / @bucketMs AS INTEGER) = CAST((c.cell_ms + @grain - 1 - @fromMs) / @bucketMs AS INTEGER)
      GROUP BY k`);
  // The rows inside the given ranges, summed per bucket.
  const rowRangeSql = (regional: boolean) =>
    db.prepare(`SELECT CAST((u.created_ms - @fromMs) / @bucketMs AS INTEGER) AS k, ${SUMS.map(([key, , expr]) => `SUM(${expr}) AS ${key}`).join(', ')}
      FROM json_each(@ranges) AS j CROSS JOIN usage AS u ON u.created_ms >= json_extract(j.value, '$[0]') AND u.created_ms < json_extract(j.value, '$[1]')
        ${regional ? 'AND u.region = @region' : ''}
      GROUP BY k`);
  const robotDaySql = (regional: boolean) =>
    db.prepare(`SELECT CAST((day_ms - @fromMs) / @bucketMs AS INTEGER) AS k, robot, SUM(bytes) AS bytes FROM usage_robot_days
      WHERE day_ms >= @fromMs AND day_ms < @toMs${regional ? ' AND region = @region' : ''} GROUP BY k, robot ORDER BY k, robot`);
  const q = {
    robotDay: [robotDaySql(false), robotDaySql(true)],
    bucket: [bucketSql(false), bucketSql(true)],
    error: [errorSql(false), errorSql(true)],
    robot: [robotSql(false), robotSql(true)],
    cell: [cellSql(false), cellSql(true)],
    rows: [rowRangeSql(false), rowRangeSql(true)],
  };
  const args = (r: UsageRange) => ({ fromMs: Math.floor(r.fromMs), toMs: Math.floor(r.toMs), bucketMs: Math.max(1, Math.floor(r.bucketMs)), ...(r.region !== null ? { region: r.region } : {}) });
  const pick = <T>(pair: T[], r: UsageRange): T => pair[r.region === null ? 0 : 1]!;
  type Row = Omit<UsageRecord, 'robots'>;
  const fromRollups = (r: UsageRange): UsageBucket[] => {
    const a = args(r);
    const acc = new Map<number, UsageBucket>();
    const add = (rows: UsageBucket[]): void => {
      for (const row of rows) {
        const have = acc.get(row.k);
        if (!have) acc.set(row.k, { ...row });
        else for (const [key] of SUMS) have[key] += row[key] ?? 0;
      }
    };
    // Grain by grain, coarse to fine: what a grain covers with whole uncut cells is read from its rollup;
    // the rest (range edges, cells a bucket boundary cuts) goes one grain finer; the rows take what is left.
    let ranges: [number, number][] = a.toMs > a.fromMs ? [[a.fromMs, a.toMs]] : [];
    for (const grain of CELL_GRAINS_MS) {
      const whole: [number, number][] = [];
      const finer: [number, number][] = [];
      for (const [lo, hi] of ranges) {
        const first = Math.ceil(lo / grain) * grain;
        const last = Math.floor(hi / grain) * grain;
        if (first >= last) {
          finer.push([lo, hi]);
          continue;
        }
        whole.push([first, last]);
        if (lo < first) finer.push([lo, first]);
        let cut = -1;
        for (let k = Math.ceil((first - a.fromMs) / a.bucketMs); a.fromMs + k * a.bucketMs < last; k++) {
          const b = a.fromMs + k * a.bucketMs;
          const cell = b - (b % grain);
          if (b % grain === 0 || cell === cut) continue;
          cut = cell;
          finer.push([cell, cell + grain]);
        }
        if (last < hi) finer.push([last, hi]);
      }
      if (whole.length > 0) add(pick(q.cell, r).all({ ...a, grain, ranges: JSON.stringify(whole) }) as UsageBucket[]);
      ranges = mergeRanges(finer);
      if (ranges.length === 0) break;
    }
    if (ranges.length > 0) add(pick(q.rows, r).all({ ...a, ranges: JSON.stringify(ranges) }) as UsageBucket[]);
    return [...acc.values()].sort((x, y) => x.k - y.k);
  };
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
    buckets: (r) => fromRollups(r),
    rawBuckets: (r) => pick(q.bucket, r).all(args(r)) as UsageBucket[],
    errorBuckets: (r) => pick(q.error, r).all(args(r)) as { k: number; error: string; n: number }[],
    rawRobotBuckets: (r) => pick(q.robot, r).all(args(r)) as { k: number; robot: string; bytes: number }[],
    // Whole UTC days (the bill's): from the per-day rollup; anything else from the rows.
    robotBuckets: (r) =>
      pick(r.fromMs % DAY_MS === 0 && r.toMs % DAY_MS === 0 && r.bucketMs % DAY_MS === 0 ? q.robotDay : q.robot, r).all(args(r)) as { k: number; robot: string; bytes: number }[],
  };
}

/** One row's contribution to every sum (what a rollup cell adds). Pure. */
export function bucketOf(u: Omit<UsageRecord, 'robots'>): Omit<UsageBucket, 'k'> {
  return {
    assemblies: 1,
    successful: u.outcome === 'successful' ? 1 : 0,
    cancelled: u.outcome === 'cancelled' ? 1 : 0,
    erroneous: u.outcome === 'erroneous' ? 1 : 0,
    requestAborted: u.outcome === 'request-aborted' ? 1 : 0,
    filesUploaded: u.filesUploaded,
    bytesUploaded: u.bytesUploaded,
    processedBytes: u.processedBytes,
    outputFiles: u.outputFiles,
    outputBytes: u.outputBytes,
    uploadS: u.uploadDurationS,
    queueS: u.queueDurationS,
    executionS: u.executionDurationS,
    timedUploadBytes: u.uploadDurationS > 0 ? u.bytesUploaded : 0,
    timedProcessedBytes: u.executionDurationS > 0 ? u.processedBytes : 0,
  };
}

/** Sorted, with touching or overlapping ranges joined. Pure. */
export function mergeRanges(ranges: readonly [number, number][]): [number, number][] {
  const sorted = [...ranges].filter(([lo, hi]) => lo < hi).sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const prev = out.at(-1);
    if (prev && lo <= prev[1]) prev[1] = Math.max(prev[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}
