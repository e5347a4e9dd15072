// /file/hash: a checksum of the whole file or of its first/last bytes, in meta.hash (service-facts §8).

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parseIntParam } from '../instructions/robot-params';
import { newFileId } from './file-record';
import type { RobotRunner } from './robot-types';

const NODE_ALGORITHM: Record<string, string> = {
  b2: 'blake2b512', md5: 'md5', sha1: 'sha1', sha224: 'sha224', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512',
};

/** Byte ranges (inclusive ends) to hash for a `partial` mode. */
export function hashRanges(size: number, partial: string, partialSize: number): { start: number; end: number }[] {
  if (size === 0) return [];
  const first = { start: 0, end: Math.min(size, partialSize) - 1 };
  const last = { start: Math.max(0, size - partialSize), end: size - 1 };
  switch (partial) {
    case 'first': return [first];
    case 'last': return [last];
    // Overlapping halves of a small file would count bytes twice: hash it whole instead.
    case 'both': return size <= 2 * partialSize ? [{ start: 0, end: size - 1 }] : [first, last];
    default: return [{ start: 0, end: size - 1 }];
  }
}

export async function hashFile(localPath: string, size: number, algorithm: string, partial: string, partialSize: number): Promise<string> {
  const hash = createHash(NODE_ALGORITHM[algorithm] ?? 'sha256');
  for (const range of hashRanges(size, partial, partialSize)) {
    await new Promise<void>((resolve, reject) => {
      createReadStream(localPath, range).on('data', (c) => hash.update(c)).on('error', reject).on('end', resolve);
    });
  }
  return hash.digest('hex');
}

export const runFileHash: RobotRunner = async ({ params, input }) => {
  const algorithm = typeof params.algorithm === 'string' ? params.algorithm : 'sha256';
  const partial = typeof params.partial === 'string' ? params.partial : 'full';
  const partialSize = parseIntParam(params.partial_size) ?? 1_048_576;
  const hash = await hashFile(input.localPath, input.size, algorithm, partial, partialSize);
  // The bytes are unchanged, so the result shares the input's file on disk.
  return { ok: true, files: [{ ...input, id: newFileId(), meta: { ...input.meta, hash } }] };
};
