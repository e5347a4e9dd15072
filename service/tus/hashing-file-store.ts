// @tus/file-store whose PATCH path hashes the bytes as they are written (service/files/stream-hash.ts),
// with a larger write buffer than the library's, so a finished upload's md5 is known without reading it.

import { FileStore } from '@tus/file-store';
import { createWriteStream } from 'node:fs';
import type { Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resolveInside } from '../files/inside-dir';
import { hashPrefix, hashTap } from '../files/stream-hash';

/** What @tus/file-store throws for a failed write (its ERRORS.FILE_WRITE_ERROR), so @tus/server answers the same. */
const FILE_WRITE_ERROR = { status_code: 500, body: 'Something went wrong receiving the file\n' };

/** Bytes buffered per write to disk: fewer, larger writes than the 16 KiB default. */
const WRITE_BUFFER_BYTES = 1024 * 1024;

interface RunningHash {
  md5: Hash;
  /** Bytes hashed so far: the upload's offset when the hash is usable. */
  offset: number;
}

export interface HashingFileStoreOptions {
  directory: string;
  /** True (once) when this upload's stored bytes must be corrupted: the test-only fault. */
  corrupt?: (uploadId: string) => boolean;
}

export class HashingFileStore extends FileStore {
  private readonly hashes = new Map<string, RunningHash>();
  private readonly corrupt: (uploadId: string) => boolean;

  constructor(o: HashingFileStoreOptions) {
    super({ directory: o.directory });
    this.corrupt = o.corrupt ?? (() => false);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const localPath = resolveInside(this.directory, id);
    let running = this.hashes.get(id);
    // Unknown here (a restart) or out of step (a PATCH that failed midway): hash what is on disk once.
    if (!running || running.offset !== offset) running = { md5: await hashPrefix(localPath, offset), offset };
    // Not usable while bytes are in flight; put back only when they are all on disk.
    this.hashes.delete(id);
    const tap = hashTap(running.md5, offset === 0 && this.corrupt(id));
    const out = createWriteStream(localPath, { flags: 'r+', start: offset, highWaterMark: WRITE_BUFFER_BYTES });
    try {
      await pipeline(readable, tap.transform, out);
    } catch {
      throw FILE_WRITE_ERROR;
    }
    running.offset = offset + tap.bytes();
    this.hashes.set(id, running);
    return running.offset;
  }

  /** The md5 of an upload of `size` bytes whose every byte went through this store since it started, else null. */
  takeMd5(id: string, size: number): string | null {
    const running = this.hashes.get(id);
    this.hashes.delete(id);
    return running && running.offset === size ? running.md5.digest('hex') : null;
  }

  forget(id: string): void {
    this.hashes.delete(id);
  }
}
