// A small file read whole, for the create request's parts (issue 27). With fs/promises a 10 KB file cost
// ~110–150 µs of CPU (a FileHandle, a promise per call, and a stat); with callbacks and no stat ~70–90 µs.
// Both stay off the event loop (the core shares its thread with the app's windows); a synchronous read
// would cost ~20 µs but block it for as long as a slow disk or a network share takes.
import { close, fstat, open, read } from 'node:fs';

/** The file's bytes when it has exactly `size` of them; otherwise its size now (read again by stat, to say how it changed). */
export type SmallRead = { ok: true; bytes: Buffer } | { ok: false; sizeNow: number };

/**
 * Reads `size` bytes of `path` (one open, read and close), checking that the file has no more and no
 * fewer: one byte more is asked for. Rejects with the error of the open or read (ENOENT, EACCES…).
 */
export function readSmallFile(path: string, size: number): Promise<SmallRead> {
  return new Promise((resolve, reject) => {
    open(path, 'r', (openError, fd) => {
      if (openError) return reject(openError);
      const bytes = Buffer.allocUnsafe(size + 1);
      const done = (error: Error | null, result?: SmallRead): void =>
        close(fd, () => (error ? reject(error) : resolve(result!)));
      // A read of a regular file returns less than asked for only at its end: `size` bytes then mean it has no more.
      const next = (at: number): void => {
        read(fd, bytes, at, size + 1 - at, at, (readError, n) => {
          if (readError) return done(readError);
          const got = at + n;
          if (n > 0 && got < size) return next(got);
          if (got === size) return done(null, { ok: true, bytes: bytes.subarray(0, size) });
          // Grown or shrunk since it was added: its size now, for the message.
          fstat(fd, (statError, st) => done(statError, statError ? undefined : { ok: false, sizeNow: st.size }));
        });
      };
      next(0);
    });
  });
}
