// A fresh temp dir that holds the service's data dir six folders down, with canary files on the way, so a
// path that climbs out of the data dir (`../` in a name) lands somewhere we watch, never elsewhere on the
// machine. Checks: nothing outside the data dir appears, changes or disappears; the data dir holds only
// what the service itself lays out; service.sqlite is still a valid database.
import Database from 'better-sqlite3';
import { mkdir, mkdtemp, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { SERVICE_ENTRY } from '../store/private-files';

/** Folders between the sandbox root and the data dir: deeper than any `../` run the fuzzers generate can climb. */
export const SANDBOX_DEPTH = 6;

export interface Sandbox {
  root: string;
  dataDir: string;
  /** Problems found since the sandbox was made (empty = clean). `full` also runs SQLite's quick_check. */
  check(full?: boolean): Promise<string[]>;
  remove(): Promise<void>;
}

type Snapshot = Map<string, string>;

/** Every entry under `dir` except `skip`, as path → "kind:size:mtime". */
async function snapshot(dir: string, skip: string): Promise<Snapshot> {
  const out: Snapshot = new Map();
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (p === skip) continue;
      const s = await stat(p).catch(() => null);
      out.set(relative(dir, p), s ? `${e.isDirectory() ? 'd' : 'f'}:${e.isDirectory() ? 0 : s.size}:${e.isDirectory() ? 0 : s.mtimeMs}` : 'gone');
      if (e.isDirectory()) await walk(p);
    }
  };
  await walk(dir);
  return out;
}

/** What the service lays out under assemblies/, tus/, assets/ and cdn-cache/ (its top level: SERVICE_ENTRY). */
/** Smart CDN results are named by the sha256 of their key (service/cdn/cdn-cache.ts). */
const CDN_ENTRY = /^[0-9a-f]{64}$/;
const ASSEMBLY_DIR = /^[0-9a-f]{32}$/;
// A file's upload is `<assembly_id>_<32hex>`, a part of a concatenated one `<assembly_id>_part_<32hex>` (tus/tus-concat.ts).
const TUS_FILE = /^[0-9a-f]{32}_(part_)?[0-9a-f]{32}(\.json)?$/;
/** Stored-asset bytes: assets/blobs/<2 hex>/<sha256>, copies in flight in assets/tmp/<asset id>. */
const ASSETS_TOP = /^(blobs|tmp)$/;
const BLOB_DIR = /^[0-9a-f]{2}$/;
const BLOB = /^[0-9a-f]{64}$/;
const ASSET_TMP = /^[A-Za-z0-9_-]{21}[AQgw]$/;

/** Entries of the data dir that the service would never create itself: a write that escaped an Assembly's folder. */
export async function strangersInDataDir(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  const list = async (d: string): Promise<string[]> => readdir(d).catch(() => []);
  for (const name of await list(dataDir)) if (!SERVICE_ENTRY.test(name)) found.push(name);
  for (const name of await list(join(dataDir, 'assemblies'))) if (!ASSEMBLY_DIR.test(name)) found.push(`assemblies${sep}${name}`);
  for (const name of await list(join(dataDir, 'tus'))) if (!TUS_FILE.test(name)) found.push(`tus${sep}${name}`);
  for (const name of await list(join(dataDir, 'assets'))) if (!ASSETS_TOP.test(name)) found.push(`assets${sep}${name}`);
  for (const name of await list(join(dataDir, 'cdn-cache'))) if (!CDN_ENTRY.test(name)) found.push(`cdn-cache${sep}${name}`);
  for (const name of await list(join(dataDir, 'assets', 'tmp'))) if (!ASSET_TMP.test(name)) found.push(`assets${sep}tmp${sep}${name}`);
  for (const dir of await list(join(dataDir, 'assets', 'blobs'))) {
    if (!BLOB_DIR.test(dir)) found.push(`assets${sep}blobs${sep}${dir}`);
    else for (const name of await list(join(dataDir, 'assets', 'blobs', dir))) if (!BLOB.test(name) || !name.startsWith(dir)) found.push(`assets${sep}blobs${sep}${dir}${sep}${name}`);
  }
  return found;
}

/** null when service.sqlite looks like a healthy SQLite database; else what is wrong. */
export async function databaseProblem(dataDir: string, full: boolean): Promise<string | null> {
  const file = join(dataDir, 'service.sqlite');
  const fh = await open(file, 'r').catch(() => null);
  if (!fh) return 'service.sqlite is missing';
  const header = Buffer.alloc(16);
  await fh.read(header, 0, 16, 0);
  await fh.close();
  if (header.toString('latin1') !== 'SQLite format 3\0') return 'service.sqlite no longer has a SQLite header (overwritten)';
  if (!full) return null;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') return `service.sqlite quick_check: ${String(check)}`;
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'assemblies'").all();
      if (tables.length !== 1) return 'service.sqlite lost its assemblies table';
    } finally {
      db.close();
    }
  } catch (e) {
    return `service.sqlite cannot be read: ${(e as Error).message}`;
  }
  return null;
}

export async function createSandbox(prefix = 'al-attack-'): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  let dir = root;
  for (let i = 1; i <= SANDBOX_DEPTH; i++) {
    await writeFile(join(dir, 'canary.txt'), `canary ${i}\n`);
    dir = join(dir, `level${i}`);
    await mkdir(dir);
  }
  const dataDir = join(dir, 'data');
  const before = await snapshot(root, dataDir);
  return {
    root,
    dataDir,
    check: async (full = false) => {
      const problems: string[] = [];
      const after = await snapshot(root, dataDir);
      for (const [p, v] of after) {
        const was = before.get(p);
        if (was === undefined) problems.push(`created outside the data dir: ${p}`);
        else if (was !== v) problems.push(`changed outside the data dir: ${p}`);
      }
      for (const p of before.keys()) if (!after.has(p)) problems.push(`removed outside the data dir: ${p}`);
      for (const s of await strangersInDataDir(dataDir)) problems.push(`escaped its Assembly folder into the data dir: ${s}`);
      const db = await databaseProblem(dataDir, full);
      if (db) problems.push(db);
      return problems;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
