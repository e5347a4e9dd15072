// A file writer for large streams that writes in few, large writev calls. fs.createWriteStream hands each
// 64 KiB socket chunk (or the few that queued meanwhile) to the thread pool on its own: ~16,000 writes
// per GiB, each waking a pool thread, which on a busy 2-core machine costs the receiving thread its core
// every time. Here chunks are gathered (held, not copied: a socket chunk is never reused once handed out)
// until GATHER_BYTES, then written with one writev while the next ones gather; the stream waits only when
// a full gathering is ready and the previous writev has not ended.

import { close, open, writev } from 'node:fs';
import { Writable } from 'node:stream';

/** Bytes gathered per writev. */
export const GATHER_BYTES = 4 * 1024 * 1024;
/** writev takes at most this many buffers per call (IOV_MAX is 1024 on Linux). */
const MAX_BUFFERS = 1024;

/** Resolves once `writer` has closed its file: a failed pipeline settles before a cut writer has written what it gathered. */
export const writerClosed = (writer: Writable): Promise<void> =>
  writer.closed ? Promise.resolve() : new Promise<void>((resolve) => writer.once('close', () => resolve()));

/**
 * Writes what it is given to `path` from byte `start` (the file must exist: flags r+). A destroyed writer
 * (a client that went away) still writes what it gathered before it closes the file, so the file keeps a
 * clean prefix of the stream: all of it but the chunk that was waiting (a resuming client's HEAD sees it).
 */
export function gatherWriter(path: string, start: number): Writable {
  let fd: number | null = null;
  let position = start;
  let gathered: Buffer[] = [];
  let gatheredBytes = 0;
  /** The writev in progress, if any. */
  let writing: Promise<void> | null = null;
  let failed: Error | null = null;

  const writeOut = (buffers: Buffer[], bytes: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const at = position;
      position += bytes;
      const step = (from: number, offset: number): void => {
        if (from >= buffers.length) return resolve();
        const batch = buffers.slice(from, from + MAX_BUFFERS);
        const size = batch.reduce((n, b) => n + b.length, 0);
        writev(fd!, batch, offset, (error, written) => {
          if (error) return reject(error);
          // A short write (rare: a full disk, a signal) is resumed from where it stopped.
          if (written < size) return step2(batch, written, from + batch.length, offset + written);
          step(from + batch.length, offset + size);
        });
      };
      const step2 = (batch: Buffer[], written: number, next: number, offset: number): void => {
        let skip = written;
        const rest: Buffer[] = [];
        for (const b of batch) {
          if (skip >= b.length) skip -= b.length;
          else {
            rest.push(skip > 0 ? b.subarray(skip) : b);
            skip = 0;
          }
        }
        buffers = [...rest, ...buffers.slice(next)];
        step(0, offset);
      };
      step(0, at);
    });

  /** Starts writing what was gathered, after the writev in progress. */
  const flush = (): Promise<void> => {
    const buffers = gathered;
    const bytes = gatheredBytes;
    gathered = [];
    gatheredBytes = 0;
    const previous = writing ?? Promise.resolve();
    const next = previous.then(() => (bytes > 0 ? writeOut(buffers, bytes) : undefined));
    writing = next.then(
      () => undefined,
      (e: unknown) => {
        failed ??= e instanceof Error ? e : new Error(String(e));
      },
    );
    return next;
  };

  return new Writable({
    // The gathering is the buffer: a chunk waiting here (its writev not started) would be lost if the
    // stream were cut, so the source pauses as soon as one waits.
    highWaterMark: 1,
    construct(cb) {
      open(path, 'r+', (error, opened) => {
        if (!error) fd = opened;
        cb(error);
      });
    },
    write(chunk: Buffer, _encoding, cb) {
      if (failed) return cb(failed);
      gathered.push(chunk);
      gatheredBytes += chunk.length;
      if (gatheredBytes < GATHER_BYTES) return cb();
      const previous = writing;
      const next = flush();
      // One writev in flight and one gathering: wait only for the older one.
      if (!previous) return cb();
      previous.then(
        () => cb(failed ?? undefined),
        () => cb(failed ?? undefined),
      );
      void next.catch(() => undefined);
    },
    final(cb) {
      flush().then(
        () => cb(failed ?? undefined),
        (e: Error) => cb(e),
      );
    },
    destroy(error, cb) {
      const done = (): void => {
        if (fd === null) return cb(error);
        close(fd, (closeError) => cb(error ?? closeError));
        fd = null;
      };
      if (fd === null) return done();
      flush().then(done, done);
    },
  });
}
