import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { TokenBucket } from './token-bucket';

/**
 * md5 of a file computed from the bytes as they are read for upload, in order. A range read again (a tus
 * retry from the server's offset) is not hashed twice; a range that starts past what was hashed (a resume
 * after a restart) first hashes the skipped prefix, once.
 */
export interface HashCursor {
  readonly hash: Hash;
  /** Bytes hashed so far, from the start of the file. */
  upTo: number;
}

export const newCursor = (): HashCursor => ({ hash: createHash('md5'), upTo: 0 });

/** Feed a chunk that was read at `position`; the part already hashed is skipped. */
export function feed(cursor: HashCursor, chunk: Buffer, position: number): void {
  const end = position + chunk.length;
  if (end <= cursor.upTo || position > cursor.upTo) return;
  cursor.hash.update(position === cursor.upTo ? chunk : chunk.subarray(cursor.upTo - position));
  cursor.upTo = end;
}

const READ_CHUNK = 1024 * 1024;

/** Hash [cursor.upTo, until) of the file: the part a resumed upload does not read again. */
export async function hashPrefix(path: string, cursor: HashCursor, until: number): Promise<void> {
  if (until <= cursor.upTo) return;
  let position = cursor.upTo;
  for await (const chunk of createReadStream(path, { start: cursor.upTo, end: until - 1, highWaterMark: READ_CHUNK })) {
    feed(cursor, chunk as Buffer, position);
    position += (chunk as Buffer).length;
  }
}

/** Bytes [start, end) of a file as a stream: each chunk waits for the bandwidth limit and is hashed on its way. */
export function readRange(path: string, start: number, end: number, cursor: HashCursor, bucket: TokenBucket | null, onRead?: (bytes: number) => void): Readable {
  async function* chunks() {
    if (end <= start) return;
    let position = start;
    for await (const raw of createReadStream(path, { start, end: end - 1, highWaterMark: READ_CHUNK })) {
      const chunk = raw as Buffer;
      if (bucket) await bucket.take(chunk.length);
      feed(cursor, chunk, position);
      position += chunk.length;
      onRead?.(chunk.length);
      yield chunk;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** The finished md5 (hex); null when not every byte went through the cursor. */
export const digestOf = (cursor: HashCursor, size: number): string | null => (cursor.upTo === size ? cursor.hash.copy().digest('hex') : null);
