// A part's bytes land on disk exactly, whether it is held and written in one call or streams on past the
// limit; a part cut off mid-way fails its pipeline (the caller then drops it).
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/service-fixture';
import { SMALL_FILE_BYTES, smallFileWriter } from './small-file-writer';

describe('smallFileWriter', () => {
  let dir: string;
  beforeAll(async () => (dir = await tempDir('small-writer-')));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('stores every byte in order, below, at and above the one-call limit', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.integer({ min: 0, max: 3 * SMALL_FILE_BYTES }), fc.integer({ min: SMALL_FILE_BYTES - 2, max: SMALL_FILE_BYTES + 2 })), fc.integer({ min: 1, max: 40_000 }), async (size, chunk) => {
        const data = randomBytes(size);
        const file = join(dir, `f${String(n++)}`);
        const parts = Array.from({ length: Math.ceil(size / chunk) }, (_, i) => data.subarray(i * chunk, (i + 1) * chunk));
        await pipeline(Readable.from(parts), smallFileWriter(file));
        expect((await readFile(file)).equals(data)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('fails when its source fails, small or large', async () => {
    for (const size of [100, 3 * SMALL_FILE_BYTES]) {
      const source = new Readable({ read() {} });
      const done = pipeline(source, smallFileWriter(join(dir, `cut-${String(size)}`)));
      source.push(randomBytes(size));
      source.destroy(new Error('connection reset'));
      await expect(done).rejects.toThrow('connection reset');
    }
  });
});
