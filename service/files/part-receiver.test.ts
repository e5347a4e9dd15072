// A part's bytes land on disk exactly, with the md5 and sha256 of those bytes and its first bytes, whether
// it is held and written in one call or streams on past the limit, however its chunks are cut; the
// corruption fault changes what is stored and hashed alike; a part cut off mid-way fails (the caller then
// drops it).
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/service-fixture';
import { receivePart, SMALL_PART_BYTES } from './part-receiver';

const hex = (algorithm: string, data: Buffer): string => createHash(algorithm).update(data).digest('hex');

describe('receivePart', () => {
  let dir: string;
  beforeAll(async () => (dir = await tempDir('part-receiver-')));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  let n = 0;

  it('stores and hashes every byte in order, below, at and above the one-call limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 0, max: 3 * SMALL_PART_BYTES }), fc.integer({ min: SMALL_PART_BYTES - 2, max: SMALL_PART_BYTES + 2 })),
        fc.integer({ min: 1, max: 40_000 }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.boolean(),
        async (size, chunk, headBytes, corrupt) => {
          const data = randomBytes(size);
          const file = join(dir, `f${String(n++)}`);
          const parts = Array.from({ length: Math.ceil(size / chunk) }, (_, i) => data.subarray(i * chunk, (i + 1) * chunk));
          const got = await receivePart(Readable.from(parts), file, { headBytes, corrupt });
          const want = Buffer.from(data);
          if (corrupt && size > 0) want[0] = want[0]! ^ 0xff;
          const stored = await readFile(file);
          expect(stored.equals(want)).toBe(true);
          expect(got.bytes).toBe(size);
          expect(got.digests).toEqual({ md5: hex('md5', want), sha256: hex('sha256', want) });
          expect(got.head.equals(want.subarray(0, headBytes))).toBe(true);
          // The caller's chunks are never changed (the fault works on a copy).
          expect(Buffer.concat(parts).equals(data)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('fails when its source fails or is destroyed, small or large', async () => {
    for (const size of [100, 3 * SMALL_PART_BYTES]) {
      for (const cause of [new Error('connection reset'), undefined]) {
        const source = new Readable({ read() {} });
        const done = receivePart(source, join(dir, `cut-${String(n++)}`));
        source.push(randomBytes(size));
        await new Promise((resolve) => setImmediate(resolve));
        source.destroy(cause);
        await expect(done).rejects.toThrow(cause ? 'connection reset' : /cut off|premature close/i);
      }
    }
  });
});
