// md5 of an upload computed while its bytes stream to disk, so recording the upload never reads the file
// again. A running hash cannot be persisted in Node, so after a restart (or a PATCH that failed midway)
// the prefix already on disk is hashed once and streaming goes on from there.

import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';

/** md5 of the first `length` bytes of a file (a resumed upload's prefix). */
export async function hashPrefix(localPath: string, length: number): Promise<Hash> {
  const md5 = createHash('md5');
  if (length <= 0) return md5;
  await new Promise<void>((resolve, reject) => {
    createReadStream(localPath, { start: 0, end: length - 1, highWaterMark: 1024 * 1024 })
      .on('data', (chunk) => md5.update(chunk))
      .on('error', reject)
      .on('end', resolve);
  });
  return md5;
}

/** One byte flipped (the test-only corruption fault); a new buffer, the input is left alone. */
export function flipFirstByte(chunk: Buffer): Buffer {
  if (chunk.length === 0) return chunk;
  const out = Buffer.from(chunk);
  out[0] = out[0]! ^ 0xff;
  return out;
}

export interface HashTap {
  transform: Transform;
  /** Bytes that went through. */
  bytes(): number;
}

/**
 * A pass-through that feeds `md5` with every chunk on its way to disk. With `corrupt`, the first non-empty
 * chunk has one byte flipped before it is hashed and stored (ASSEMBLYLINE_TEST_FAULT_CORRUPT).
 */
export function hashTap(md5: Hash, corrupt = false): HashTap {
  let seen = 0;
  let flip = corrupt;
  const transform = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      let out = chunk;
      if (flip && chunk.length > 0) {
        out = flipFirstByte(chunk);
        flip = false;
      }
      seen += out.length;
      md5.update(out);
      cb(null, out);
    },
  });
  return { transform, bytes: () => seen };
}
