// /file/decompress: the files of a zip, tar (plain or gzipped) or gzip archive, each a result of the step,
// named as in the archive (`meta.relative_path`: the folder it was in). Entries are read as streams and
// written by this service under safe names (output-path.ts), never by an extractor that trusts the names:
// an entry that would land outside the archive's folder (`../`, an absolute path), a link that points out
// of it, or more bytes or entries than an archive of this size can honestly hold (a bomb) fails the step
// with FILE_DECOMPRESS_INVALID_INPUT and keeps nothing. Other formats the vendor unpacks (7z, RAR, bzip2,
// xz…) are said to be beyond the local service.

import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { posix } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { describeResult, newFileId, type StoredFile } from './file-record';
import { outputDir, outputFile } from './output-path';
import type { RobotFileOutcome, RobotRunner } from './robot-types';

/** At most this many files from one archive. */
export const MAX_ENTRIES = 10_000;
/** At most this many bytes out of one archive: 1 GiB, plus 100 times the archive's size, up to 10 GiB. */
export const maxOutputBytes = (archiveBytes: number): number => Math.min(10 * 1024 ** 3, 1024 ** 3 + 100 * archiveBytes);

const fail = (code: string, message: string): RobotFileOutcome => ({ ok: false, code, message });

/** Something in the archive this robot will not unpack: the whole step fails with it. */
export class RefusedArchive extends Error {
  constructor(
    message: string,
    readonly code = 'FILE_DECOMPRESS_INVALID_INPUT',
  ) {
    super(message);
  }
}

export type ArchiveFormat = 'zip' | 'tar' | 'tar.gz' | 'gzip';

/** The format from the first bytes (and, for gzip, the first unpacked block). Pure. */
export function sniffFormat(head: Buffer, unpackedHead?: Buffer): ArchiveFormat | { unsupported: string } | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  const isTar = (b: Buffer | undefined) => b !== undefined && b.length >= 262 && b.subarray(257, 262).toString('latin1') === 'ustar';
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06)) return 'zip';
  if (starts(0x1f, 0x8b)) return isTar(unpackedHead) ? 'tar.gz' : 'gzip';
  if (isTar(head)) return 'tar';
  if (starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)) return { unsupported: '7-Zip' };
  if (starts(0x52, 0x61, 0x72, 0x21)) return { unsupported: 'RAR' };
  if (starts(0x42, 0x5a, 0x68)) return { unsupported: 'bzip2' };
  if (starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) return { unsupported: 'xz' };
  return null;
}

/**
 * An entry's path inside the archive, normalized (`a/./b` → `a/b`, backslashes as folders), or why it is
 * refused: absolute, a drive, or climbing out with `..`. Pure.
 */
export function entryPath(raw: string): string | { refused: string } {
  const unified = raw.replace(/\\/g, '/');
  if (unified.startsWith('/') || /^[a-z]:/i.test(unified)) return { refused: `"${raw}" is an absolute path` };
  const normal = posix.normalize(unified);
  if (normal === '..' || normal.startsWith('../')) return { refused: `"${raw}" would be written outside the archive's folder` };
  return normal === '.' ? '' : normal.replace(/\/$/, '');
}

/** Whether a link at `path` pointing to `target` stays inside the archive's folder. Pure. */
export function linkStaysInside(path: string, target: string): boolean {
  if (target.startsWith('/') || /^[a-z]:/i.test(target)) return false;
  const resolved = posix.normalize(posix.join(posix.dirname(path), target.replace(/\\/g, '/')));
  return resolved !== '..' && !resolved.startsWith('../');
}

/** Counts bytes and entries across one archive, refusing past the limits. */
class Budget {
  private bytes = 0;
  private entries = 0;
  constructor(private readonly maxBytes: number) {}
  entry(): void {
    if (++this.entries > MAX_ENTRIES) throw new RefusedArchive(`it holds more than ${MAX_ENTRIES} files`);
  }
  meter(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.bytes += chunk.length;
        done(this.bytes > this.maxBytes ? new RefusedArchive(`it unpacks to more than ${this.maxBytes} bytes (an archive bomb, or bigger than the local service unpacks)`) : null, chunk);
      },
    });
  }
}

interface Unpacked {
  localPath: string;
  name: string;
  /** The folder inside the archive ('' at its top). */
  folder: string;
}

/** Writes one entry's bytes below the step's folder under a safe name. */
async function keep(outDir: string, path: string, body: Readable, budget: Budget, signal: AbortSignal): Promise<Unpacked> {
  const name = posix.basename(path);
  const localPath = outputFile(await outputDir(outDir, newFileId()), name);
  await pipeline(body, budget.meter(), createWriteStream(localPath), { signal });
  return { localPath, name, folder: posix.dirname(path) === '.' ? '' : posix.dirname(path) };
}

async function unzip(archive: string, outDir: string, budget: Budget, password: boolean, signal: AbortSignal): Promise<Unpacked[]> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    // Names are checked here (entryPath), not by yauzl, so a refusal names the entry; sizes are checked against the directory.
    yauzl.open(archive, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true, autoClose: true }, (e, z) => (e ? reject(e) : resolve(z))),
  );
  const out: Unpacked[] = [];
  try {
    // The central directory says how many entries there are: a bomb of many files is refused before one is written.
    if (zip.entryCount > MAX_ENTRIES) throw new RefusedArchive(`it holds more than ${MAX_ENTRIES} files (${zip.entryCount})`);
    for (;;) {
      const entry = await new Promise<Entry | null>((resolve, reject) => {
        zip.once('entry', resolve);
        zip.once('end', () => resolve(null));
        zip.once('error', (e: Error) =>
          // yauzl checks names itself before handing an entry over: its refusal is ours too.
          reject(/invalid relative path|absolute path|invalid characters in fileName/.test(e.message) ? new RefusedArchive(`an entry would be written outside the archive's folder (${e.message})`) : e),
        );
        zip.readEntry();
      });
      zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
      if (!entry) return out;
      const path = entryPath(entry.fileName);
      if (typeof path !== 'string') throw new RefusedArchive(`the entry ${path.refused}`);
      if (entry.fileName.endsWith('/') || path === '') continue;
      budget.entry();
      if (entry.isEncrypted()) {
        throw password
          ? new RefusedArchive('password-protected zips cannot be unpacked by the local service', 'FILE_DECOMPRESS_VALIDATION')
          : new RefusedArchive(`"${path}" is encrypted: give the archive's password`, 'FILE_DECOMPRESS_PASSWORD_REQUIRED');
      }
      const body = await new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (e, s) => (e ? reject(e) : resolve(s))));
      // Unix mode in the upper half of the external attributes: a symbolic link's data is its target.
      if (((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000) {
        let target = '';
        for await (const c of body) target += (c as Buffer).toString();
        if (!linkStaysInside(path, target)) throw new RefusedArchive(`the link "${path}" points outside the archive's folder (${target})`);
        continue;
      }
      out.push(await keep(outDir, path, body, budget, signal));
    }
  } finally {
    zip.close();
  }
}

async function untar(archive: string, gzipped: boolean, outDir: string, budget: Budget, signal: AbortSignal): Promise<Unpacked[]> {
  const out: Unpacked[] = [];
  const writes: Promise<void>[] = [];
  let refused: Error | null = null;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      const take = async (): Promise<void> => {
        const path = entryPath(entry.path);
        if (typeof path !== 'string') throw new RefusedArchive(`the entry ${path.refused}`);
        if (entry.type === 'SymbolicLink' || entry.type === 'Link') {
          if (!linkStaysInside(path, entry.linkpath ?? '')) throw new RefusedArchive(`the link "${path}" points outside the archive's folder (${entry.linkpath ?? ''})`);
          entry.resume();
          return;
        }
        if ((entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') || path === '') {
          entry.resume();
          return;
        }
        budget.entry();
        out.push(await keep(outDir, path, entry as unknown as Readable, budget, signal));
      };
      writes.push(
        take().catch((e: Error) => {
          refused ??= e;
          entry.resume();
          parser.abort(e);
        }),
      );
    },
  });
  const source = createReadStream(archive, { signal });
  try {
    await (gzipped ? pipeline(source, createGunzip(), parser) : pipeline(source, parser));
  } catch (e) {
    if (!refused) throw e;
  }
  await Promise.all(writes);
  if (refused) throw refused;
  return out;
}

async function gunzip(archive: string, name: string, outDir: string, budget: Budget, signal: AbortSignal): Promise<Unpacked[]> {
  budget.entry();
  const inner = name.replace(/\.(gz|tgz|gzip)$/i, (m) => (m.toLowerCase() === '.tgz' ? '.tar' : '')) || 'file';
  return [await keep(outDir, inner, createReadStream(archive).pipe(createGunzip()), budget, signal)];
}

/** The first bytes of the file, and of its gzip stream when it is one (a tar inside?). */
async function heads(path: string): Promise<{ head: Buffer; unpacked?: Buffer }> {
  const fh = await open(path, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(512);
    const { bytesRead } = await fh.read(buf, 0, 512, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) return { head };
  const unpacked = await new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stream = createReadStream(path).pipe(createGunzip());
    stream.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size >= 512) {
        stream.destroy();
        resolve(Buffer.concat(chunks));
      }
    });
    stream.on('error', () => resolve(Buffer.concat(chunks)));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  });
  return { head, unpacked };
}

export const runFileDecompress: RobotRunner = async ({ params, input, outDir, signal }) => {
  const { head, unpacked } = await heads(input.localPath);
  const format = sniffFormat(head, unpacked);
  if (format === null) return { ok: false, code: 'FILE_DECOMPRESS_INVALID_INPUT', message: `Not an archive: /file/decompress skips ${input.mime ?? 'this file'} (zip, tar, tar.gz and gzip are unpacked here)`, unsuitableInput: true };
  if (typeof format !== 'string') return fail('FILE_DECOMPRESS_INVALID_INPUT', `/file/decompress: "${input.name}" is a ${format.unsupported} archive; the local service unpacks zip, tar, tar.gz and gzip (the hosted service unpacks ${format.unsupported} too).`);
  const budget = new Budget(maxOutputBytes(input.size));
  const dir = await outputDir(outDir, input.id);
  let files: Unpacked[];
  try {
    files =
      format === 'zip'
        ? await unzip(input.localPath, dir, budget, typeof params.password === 'string' && params.password !== '', signal)
        : format === 'gzip'
          ? await gunzip(input.localPath, input.name, dir, budget, signal)
          : await untar(input.localPath, format === 'tar.gz', dir, budget, signal);
  } catch (e) {
    // Nothing of a refused or broken archive is kept.
    await rm(dir, { recursive: true, force: true });
    if (e instanceof RefusedArchive) return fail(e.code, `/file/decompress refused "${input.name}": ${e.message}.`);
    if (signal.aborted) throw e;
    return fail('FILE_DECOMPRESS_INVALID_INPUT', `/file/decompress could not unpack "${input.name}": ${(e as Error).message}`);
  }
  const results: StoredFile[] = [];
  for (const f of files) {
    const file = await describeResult(input, f.localPath, f.name, { relative_path: f.folder, archive_directory: f.folder.split('/')[0] ?? '' });
    results.push(file);
  }
  return { ok: true, files: results };
};
