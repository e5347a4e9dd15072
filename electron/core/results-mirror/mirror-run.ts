import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type { ConflictPolicy, MirrorLayout, MirrorProgress } from '../../../shared/ipc/mirror-models';
import type { Result } from '../../../shared/result';
import { EXPIRED_STATUSES, RESULT_EXPIRED, freshUrlOf } from '../files/result-download';
import { tlsProblem } from '../net/transport';
import { insideRoot, numberedName } from './mirror-paths';
import { planMirror, type MirrorEntry, type MirrorSource } from './mirror-plan';

/** Codes of a file that could not be mirrored (kept in the summary; the file is not left behind). */
export const MirrorErrorCode = {
  checksum: 'RESULT_CHECKSUM_MISMATCH',
  size: 'RESULT_SIZE_MISMATCH',
  download: 'RESULT_DOWNLOAD_FAILED',
  path: 'RESULT_PATH_UNSAFE',
  write: 'RESULT_WRITE_FAILED',
  noUrl: 'RESULT_WITHOUT_URL',
} as const;

export interface MirrorOptions {
  outputDir: string;
  layout: MirrorLayout;
  conflict: ConflictPolicy;
  /** Files downloading at once (default 4). */
  concurrency?: number;
  /** Counts, at most every `progressEveryMs` (default 250) and once at the end. */
  onProgress?: (progress: Omit<MirrorProgress, 'mirrorId'>) => void;
  progressEveryMs?: number;
  /** Each file as it ends (written or skipped: its absolute path), e.g. to remember it for the manifest. */
  onFile?: (entry: MirrorEntry, outcome: FileOutcome) => void;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /**
   * The Assembly's status read again (its deployment's result URLs may expire): a file whose host answers
   * 403/404/410 is fetched once more at the URL a fresh record gives, read once per Assembly and mirror.
   * Absent: such a file fails RESULT_EXPIRED at once.
   */
  readStatus?: (status: AssemblyStatus) => Promise<Result<AssemblyStatus>>;
}

export type FileOutcome =
  | { kind: 'written'; path: string; verified: boolean; md5: string }
  | { kind: 'skipped'; path: string }
  | { kind: 'failed'; code: string; message: string };

class MirrorFileError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The result host answered as for an expired URL (403, 404, 410). */
class ExpiredUrlError extends MirrorFileError {
  constructor(readonly status: number) {
    super(MirrorErrorCode.download, `The download failed: HTTP ${status}.`);
  }
}

const exists = (p: string) => lstat(p).then(
  () => true,
  (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? false : Promise.reject(e)),
);

/**
 * Puts the finished temp file at `target` without ever replacing a file there (skip, keep-both): a hard
 * link fails with EEXIST atomically; where links are not supported (FAT, some network shares), the name is
 * reserved with O_EXCL and the temp file renamed over the empty reservation.
 */
async function placeExclusive(temp: string, target: string): Promise<boolean> {
  try {
    await link(temp, target);
    await rm(temp, { force: true });
    return true;
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw cause;
  }
  try {
    await (await open(target, 'wx')).close();
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw cause;
  }
  await rename(temp, target);
  return true;
}

/** Streams one result into a temp file beside its target, hashing as it goes; checks size and hashes. */
async function download(entry: MirrorEntry, url: string, temp: string, opts: MirrorOptions, onBytes: (n: number) => void): Promise<{ md5: string; verified: boolean }> {
  let response: Response;
  try {
    response = await (opts.fetch ?? fetch)(url, { signal: opts.signal ?? null });
  } catch (cause) {
    if (opts.signal?.aborted) throw cause;
    const tls = tlsProblem(cause, url);
    throw new MirrorFileError(tls?.code ?? MirrorErrorCode.download, tls?.message ?? `Could not download: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    if (EXPIRED_STATUSES.has(response.status)) throw new ExpiredUrlError(response.status);
    throw new MirrorFileError(MirrorErrorCode.download, `The download failed: HTTP ${response.status}.`);
  }
  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  let size = 0;
  const hasher = new Transform({
    transform(chunk: Buffer, _enc, done) {
      md5.update(chunk);
      sha256.update(chunk);
      size += chunk.length;
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>), hasher, createWriteStream(temp, { flags: 'wx' }), { signal: opts.signal });
  const gotMd5 = md5.digest('hex');
  if (entry.size !== null && size !== entry.size) throw new MirrorFileError(MirrorErrorCode.size, `Got ${size} bytes; the record says ${entry.size}.`);
  if (entry.md5 && gotMd5 !== entry.md5.toLowerCase()) throw new MirrorFileError(MirrorErrorCode.checksum, `The md5 of the downloaded file (${gotMd5}) is not the record's (${entry.md5}).`);
  const gotSha = sha256.digest('hex');
  if (entry.sha256 && gotSha !== entry.sha256) throw new MirrorFileError(MirrorErrorCode.checksum, `The sha256 of the downloaded file is not the record's.`);
  return { md5: gotMd5, verified: Boolean(entry.md5 || entry.sha256) };
}

/** A fresh status record per Assembly, read at most once per mirror (many files of one Assembly expire together). */
type FreshStatus = (entry: MirrorEntry) => Promise<Result<AssemblyStatus>> | null;

/**
 * The download, and when its URL has expired, once more at the URL a fresh status record gives; refused
 * again, or no longer in the record, RESULT_EXPIRED saying so per file.
 */
async function downloadFresh(entry: MirrorEntry, temp: string, opts: MirrorOptions, fresh: FreshStatus, onBytes: (n: number) => void): Promise<{ md5: string; verified: boolean }> {
  const name = entry.relPath.split('/').pop() ?? entry.relPath;
  try {
    return await download(entry, entry.url, temp, opts, onBytes);
  } catch (cause) {
    if (!(cause instanceof ExpiredUrlError)) throw cause;
    const reading = fresh(entry);
    if (!reading) throw new MirrorFileError(RESULT_EXPIRED, `${name} has expired on the service (its result host answered HTTP ${cause.status}). Results are kept for a limited time; replay the Assembly to make it again.`);
    const status = await reading;
    if (!status.ok) throw new MirrorFileError(RESULT_EXPIRED, `${name} has expired on the service (its result host answered HTTP ${cause.status}), and the Assembly could not be read again for a fresh URL: ${status.error.message}`);
    const url = freshUrlOf(entry.file, status.value);
    if (!url) throw new MirrorFileError(RESULT_EXPIRED, `${name} has expired on the service: its result host answered HTTP ${cause.status} and the Assembly's record no longer lists it. Replay the Assembly to make it again.`);
    try {
      return await download(entry, url, temp, opts, onBytes);
    } catch (again) {
      if (!(again instanceof ExpiredUrlError)) throw again;
      throw new MirrorFileError(RESULT_EXPIRED, `${name} has expired on the service: its result host answered HTTP ${again.status}, also at the fresh URL the Assembly's record gave. Results are kept for a limited time; replay the Assembly to make it again.`);
    }
  }
}

/** One entry: conflict check, download to a temp file, verify, place by the policy. Never leaves a partial file. */
async function mirrorOne(entry: MirrorEntry, opts: MirrorOptions, fresh: FreshStatus, onBytes: (n: number) => void): Promise<FileOutcome> {
  const target = insideRoot(opts.outputDir, entry.relPath);
  if (!target) return { kind: 'failed', code: MirrorErrorCode.path, message: `${entry.relPath} would leave the output folder.` };
  try {
    await mkdir(path.dirname(target), { recursive: true });
    if (opts.conflict === 'skip' && (await exists(target))) return { kind: 'skipped', path: target };
    const temp = path.join(path.dirname(target), `.${path.basename(target).slice(0, 100)}.${randomBytes(6).toString('hex')}.part`);
    try {
      const got = await downloadFresh(entry, temp, opts, fresh, onBytes);
      if (opts.conflict === 'overwrite') {
        await rename(temp, target);
        return { kind: 'written', path: target, ...got };
      }
      if (await placeExclusive(temp, target)) return { kind: 'written', path: target, ...got };
      // Someone wrote the target meanwhile (or keep-both found it taken).
      if (opts.conflict === 'skip') return { kind: 'skipped', path: target };
      for (let n = 2; n < 10_000; n++) {
        const other = insideRoot(opts.outputDir, numberedName(entry.relPath, n));
        if (other && (await placeExclusive(temp, other))) return { kind: 'written', path: other, ...got };
      }
      throw new MirrorFileError(MirrorErrorCode.write, 'No free name for a second copy.');
    } finally {
      await rm(temp, { force: true });
    }
  } catch (cause) {
    if (opts.signal?.aborted) throw cause;
    if (cause instanceof MirrorFileError) return { kind: 'failed', code: cause.code, message: cause.message };
    return { kind: 'failed', code: MirrorErrorCode.write, message: cause instanceof Error ? cause.message : String(cause) };
  }
}

/**
 * Mirrors the results of status records into `outputDir` (the channel `results:mirror`, and watch folders
 * for each processed item): plan by layout, at most `concurrency` downloads at once, each verified and
 * placed by the conflict policy. Resolves with the final counts; a canceled mirror resolves with
 * `state: 'canceled'` after removing its temp files (files already placed stay).
 */
export async function mirrorResults(sources: readonly MirrorSource[], opts: MirrorOptions): Promise<Omit<MirrorProgress, 'mirrorId'>> {
  const { entries, unfetchable } = planMirror(sources, opts.layout);
  const p: Omit<MirrorProgress, 'mirrorId'> = {
    folder: path.resolve(opts.outputDir),
    state: 'running',
    filesTotal: entries.length + unfetchable.length,
    filesDone: unfetchable.length,
    bytesTotal: entries.reduce((sum, e) => sum + (e.size ?? 0), 0),
    bytesDone: 0,
    written: 0,
    skipped: 0,
    verified: 0,
    failed: unfetchable.length,
    errors: unfetchable.slice(0, 20).map((u) => ({ path: `${u.step}/${u.name}`, code: MirrorErrorCode.noUrl, message: 'The record gives no URL for this result.' })),
  };
  const every = opts.progressEveryMs ?? 250;
  let last = 0;
  const report = (force = false) => {
    const now = Date.now();
    if (!force && now - last < every) return;
    last = now;
    opts.onProgress?.({ ...p, errors: [...p.errors] });
  };
  report(true);
  const statusOf = new Map(sources.map((source) => [source.assemblyId, source.status]));
  const reads = new Map<string, Promise<Result<AssemblyStatus>>>();
  const fresh: FreshStatus = (entry) => {
    const status = statusOf.get(entry.assemblyId);
    if (!opts.readStatus || !status) return null;
    let reading = reads.get(entry.assemblyId);
    if (!reading) reads.set(entry.assemblyId, (reading = opts.readStatus(status)));
    return reading;
  };
  let next = 0;
  const worker = async () => {
    while (next < entries.length && !opts.signal?.aborted) {
      const entry = entries[next++]!;
      let counted = 0;
      const outcome = await mirrorOne(entry, opts, fresh, (n) => {
        counted += n;
        p.bytesDone += n;
        report();
      }).catch((cause: unknown) => {
        if (opts.signal?.aborted) return null;
        throw cause;
      });
      if (!outcome) return;
      // A skipped file, or one that failed part-way, counts as done for the bytes bar.
      p.bytesDone += Math.max(0, (entry.size ?? counted) - counted);
      p.filesDone++;
      if (outcome.kind === 'written') {
        p.written++;
        if (outcome.verified) p.verified++;
      } else if (outcome.kind === 'skipped') p.skipped++;
      else {
        p.failed++;
        if (p.errors.length < 20) p.errors.push({ path: entry.relPath, code: outcome.code, message: outcome.message });
      }
      opts.onFile?.(entry, outcome);
      report();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 4, 16)) }, worker));
  p.state = opts.signal?.aborted ? 'canceled' : 'done';
  report(true);
  return p;
}
