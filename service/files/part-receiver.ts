// A multipart part's bytes to disk with their md5, sha256 and first bytes. Most parts of a folder upload
// are small, and for them every stream object, pipeline and promise cost more CPU than the bytes (issue
// 27: a pipeline's AbortController, its DOMException on finish, a Transform and a Writable per 10 KB file
// were a quarter of the service's time). So a part is first only read: its chunks are held (busboy hands
// out chunks it never reuses: a slice of the request's chunk or a copy of its own look-behind buffer)
// until it ends, then hashed on this thread and written in one synchronous call (open, write, close: a
// third of the CPU of fs.promises.writeFile, and ~50 µs for 64 KiB on the event loop). A part that grows
// past SMALL_PART_BYTES goes on as a stream: a write stream, both hashes on their worker threads.
import { createHash } from 'node:crypto';
import { createWriteStream, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { flipFirstByte, hashTap, streamHash, type FileDigests } from './stream-hash';

/** Parts up to this size are held and written in one call; longer ones stream. */
export const SMALL_PART_BYTES = 64 * 1024;

export interface ReceivedPart {
  bytes: number;
  /** The first `headBytes` bytes (all of a shorter part), a copy. */
  head: Buffer;
  /** null: a hashing thread failed (the caller reads the file instead). */
  digests: FileDigests | null;
}

export interface ReceivePartOptions {
  /** Flip one byte of the first non-empty chunk before it is hashed and stored (the test-only corruption fault). */
  corrupt?: boolean;
  headBytes?: number;
}

/** A part the request cut off (the request ended or was refused): nothing of it counts. */
export class PartCutError extends Error {}

const headOf = (chunks: Buffer[], n: number): Buffer => {
  if (n <= 0) return Buffer.alloc(0);
  const first = chunks[0];
  if (first && first.length >= n) return Buffer.from(first.subarray(0, n));
  return Buffer.from(Buffer.concat(chunks).subarray(0, n));
};

/** Reads `source` to `localPath`; rejects when the source fails or is destroyed before its end. */
export function receivePart(source: Readable, localPath: string, o: ReceivePartOptions = {}): Promise<ReceivedPart> {
  const headBytes = o.headBytes ?? 0;
  let flip = o.corrupt === true;
  return new Promise<ReceivedPart>((resolve, reject) => {
    const held: Buffer[] = [];
    let heldBytes = 0;
    let ended = false;
    const detach = (): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
    };
    const onError = (e: Error): void => {
      detach();
      reject(e);
    };
    const onClose = (): void => {
      if (ended) return;
      detach();
      reject(new PartCutError('the part was cut off'));
    };
    const onEnd = (): void => {
      ended = true;
      detach();
      try {
        const bytes = held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes);
        writeFileSync(localPath, bytes);
        const md5 = createHash('md5').update(bytes).digest('hex');
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        resolve({ bytes: heldBytes, head: headOf([bytes], Math.min(headBytes, heldBytes)), digests: { md5, sha256 } });
      } catch (e) {
        reject(e as Error);
      }
    };
    const onData = (chunk: Buffer): void => {
      if (flip && chunk.length > 0) {
        chunk = flipFirstByte(chunk);
        flip = false;
      }
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes <= SMALL_PART_BYTES) return;
      // Too long to hold: stream the rest (the source waits, paused, until the pipeline reads it).
      source.pause();
      detach();
      streamOn(source, localPath, held, heldBytes, headBytes).then(resolve, reject);
    };
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
    source.once('close', onClose);
  });
}

async function streamOn(source: Readable, localPath: string, held: Buffer[], heldBytes: number, headBytes: number): Promise<ReceivedPart> {
  const hash = streamHash();
  const out = createWriteStream(localPath);
  for (const chunk of held) {
    hash.update(chunk);
    out.write(chunk);
  }
  const head = headOf(held, Math.min(headBytes, heldBytes));
  const tap = hashTap(hash, { headBytes: headBytes - head.length });
  try {
    await pipeline(source, tap.transform, out);
  } catch (e) {
    hash.drop();
    throw e;
  }
  return { bytes: heldBytes + tap.bytes(), head: Buffer.concat([head, tap.head()]), digests: await hash.digest() };
}
