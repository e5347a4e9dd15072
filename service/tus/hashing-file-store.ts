// @tus/file-store whose PATCH path hashes the bytes as they are written (service/files/stream-hash.ts),
// with a larger write buffer than the library's, so a finished upload's md5 is known without reading it.

import { FileStore } from '@tus/file-store';
import type { Upload } from '@tus/server';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resolveInside } from '../files/inside-dir';
import { TooManyBytes, hashPrefix, hashTap, type FileDigests, type StreamHash } from '../files/stream-hash';
import { SNIFF_BYTES } from '../robots/extract-meta';
import { CachedConfigstore } from './cached-configstore';
import { PartChains, removeStaleJoins } from './part-chain';
import { isPartialUploadId } from './tus-acceptance';

/** What @tus/file-store throws for a failed write (its ERRORS.FILE_WRITE_ERROR), so @tus/server answers the same. */
const FILE_WRITE_ERROR = { status_code: 500, body: 'Something went wrong receiving the file\n' };

/** Bytes buffered per write to disk: fewer, larger writes than the 16 KiB default. */
const WRITE_BUFFER_BYTES = 1024 * 1024;
/** A partial upload's chain (part-chain.ts) hears of its progress at most once per this many bytes (and at the end of each write). */
const CHAIN_WAKE_BYTES = 1024 * 1024;

/** A partial upload's id starts with its Assembly's. */
const assemblyOfPart = (id: string): string => id.slice(0, 32);

interface RunningHash {
  hash: StreamHash;
  /** Bytes hashed so far: the upload's offset when the hash is usable. */
  offset: number;
  /** The upload's first bytes (up to SNIFF_BYTES) as they arrived; null when not seen (a resumed upload). */
  head: Buffer | null;
}

/** What the store knows of a finished upload without reading it. */
export interface UploadDigest {
  digests: Promise<FileDigests | null>;
  /** Its first SNIFF_BYTES bytes (all of a shorter file), or null. */
  head: Buffer | null;
}

export interface HashingFileStoreOptions {
  directory: string;
  /** True (once) when this upload's stored bytes must be corrupted: the test-only fault. */
  corrupt?: (uploadId: string) => boolean;
}

export class HashingFileStore extends FileStore {
  private readonly hashes = new Map<string, RunningHash>();
  private readonly corrupt: (uploadId: string) => boolean;
  private readonly dirReady: Promise<unknown>;
  private readonly infos: CachedConfigstore;
  /** The running hashes of partial uploads, per Assembly, in the order they will likely be joined. */
  readonly parts: PartChains;

  constructor(o: HashingFileStoreOptions) {
    const infos = new CachedConfigstore(o.directory);
    super({ directory: o.directory, configstore: infos });
    this.infos = infos;
    this.corrupt = o.corrupt ?? (() => false);
    // Joined files of chains a stopped service was following are of no use: no chain survives a restart.
    this.dirReady = mkdir(o.directory, { recursive: true, mode: 0o777 }).then(() => removeStaleJoins(o.directory));
    // Its failure is the failure of the first upload that waits for it, not an unhandled rejection.
    this.dirReady.catch(() => undefined);
    this.parts = new PartChains(o.directory, {
      partInfo: async (id) => {
        const u = await this.getUpload(id).catch(() => null);
        return u?.size === undefined ? null : { size: u.size, metadata: u.metadata ?? {} };
      },
    });
  }

  /** Settles when the folder is made (or could not be): a service stopping right after its start waits for it. */
  ready(): Promise<void> {
    return this.dirReady.then(
      () => undefined,
      () => undefined,
    );
  }

  /** The length an upload was created with, when known at once (its info in memory, its length not deferred). */
  knownLength(id: string): number | undefined {
    return this.infos.peek(id)?.size;
  }

  override async remove(id: string): Promise<void> {
    if (isPartialUploadId(id)) this.parts.removed(assemblyOfPart(id), id);
    await super.remove(id);
  }

  /** As the library's, with the folder made once instead of on every upload, and both files written at once. */
  override async create(file: Upload): Promise<Upload> {
    await this.dirReady;
    const localPath = resolveInside(this.directory, file.id);
    await Promise.all([writeFile(localPath, ''), this.configstore.set(file.id, file)]);
    file.storage = { type: 'file', path: localPath };
    return file;
  }

  override write(readable: Readable, id: string, offset: number): Promise<number> {
    return isPartialUploadId(id) ? this.writeUnhashed(readable, id, offset) : this.writeHashed(readable, id, offset);
  }

  /**
   * Appends `readable` at `offset`, hashing on the way. More than `maxBytes` fails with TooManyBytes (what was
   * written stays, as with the library); any other failure with the library's FILE_WRITE_ERROR. `onBytes`
   * hears the upload's running offset.
   */
  async writeHashed(readable: Readable, id: string, offset: number, o: { maxBytes?: number; onBytes?: (offset: number) => void } = {}): Promise<number> {
    const localPath = resolveInside(this.directory, id);
    let running = this.hashes.get(id);
    // Unknown here (a restart) or out of step (a PATCH that failed midway): hash what is on disk once.
    if (!running || running.offset !== offset) {
      running?.hash.drop();
      running = { hash: await hashPrefix(localPath, offset), offset, head: offset === 0 ? Buffer.alloc(0) : null };
    }
    // Not usable while bytes are in flight; put back only when they are all on disk.
    this.hashes.delete(id);
    const onBytes = o.onBytes;
    const known = running.head;
    const tap = hashTap(running.hash, {
      headBytes: known ? Math.max(0, SNIFF_BYTES - known.length) : 0,
      corrupt: offset === 0 && this.corrupt(id),
      ...(o.maxBytes !== undefined ? { maxBytes: o.maxBytes } : {}),
      ...(onBytes ? { onBytes: (n: number) => onBytes(offset + n) } : {}),
    });
    const out = createWriteStream(localPath, { flags: 'r+', start: offset, highWaterMark: WRITE_BUFFER_BYTES });
    try {
      await pipeline(readable, tap.transform, out);
    } catch (e) {
      running.hash.drop();
      throw e instanceof TooManyBytes ? e : FILE_WRITE_ERROR;
    }
    running.offset = offset + tap.bytes();
    if (known) running.head = known.length < SNIFF_BYTES ? Buffer.concat([known, tap.head()]) : known;
    this.hashes.set(id, running);
    return running.offset;
  }

  /**
   * Appends `readable` at `offset` of a partial upload (tus concatenation) without hashing here: its
   * Assembly's chain (part-chain.ts) reads the bytes from disk, in the order the parts will be joined, as
   * they land. Same limits and failures as writeHashed.
   */
  async writeUnhashed(readable: Readable, id: string, offset: number, o: { maxBytes?: number; onBytes?: (offset: number) => void } = {}): Promise<number> {
    const localPath = resolveInside(this.directory, id);
    const max = o.maxBytes ?? Number.POSITIVE_INFINITY;
    const assemblyId = assemblyOfPart(id);
    const parts = this.parts;
    let seen = 0;
    let woken = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        if (seen + chunk.length > max) return cb(new TooManyBytes(`more than ${String(max)} bytes`));
        seen += chunk.length;
        o.onBytes?.(offset + seen);
        // The bytes before this chunk have been handed to the file (the chain reads only what is on disk).
        if (seen - woken >= CHAIN_WAKE_BYTES) {
          woken = seen;
          parts.wrote(assemblyId, id);
        }
        cb(null, chunk);
      },
    });
    try {
      await pipeline(readable, count, createWriteStream(localPath, { flags: 'r+', start: offset, highWaterMark: WRITE_BUFFER_BYTES }));
    } catch (e) {
      throw e instanceof TooManyBytes ? e : FILE_WRITE_ERROR;
    } finally {
      parts.wrote(assemblyId, id);
    }
    return offset + seen;
  }

  /** The md5 and sha256 (and first bytes) of an upload of `size` bytes whose every byte went through this store since it started, else null. */
  takeDigest(id: string, size: number): UploadDigest {
    const running = this.hashes.get(id);
    this.hashes.delete(id);
    if (running && running.offset === size) {
      const head = running.head && running.head.length >= Math.min(SNIFF_BYTES, size) ? running.head : null;
      return { digests: running.hash.digest(), head };
    }
    running?.hash.drop();
    return { digests: Promise.resolve(null), head: null };
  }

  forget(id: string): void {
    this.hashes.get(id)?.hash.drop();
    this.hashes.delete(id);
  }
}

// The library's constructor makes the folder with a callback that throws when that fails: an uncaught
// exception that ends the service. The folder is made once, in dirReady, instead.
Object.defineProperty(HashingFileStore.prototype, 'checkOrCreateDirectory', { value: () => undefined });
