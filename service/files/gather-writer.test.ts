// The gathering writer of a tus upload's bytes: whatever the chunking and the starting offset, the file
// holds exactly the bytes written, at their place; a writer destroyed midway (a client that went away)
// still leaves every byte it was handed on disk.
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/service-fixture';
import { GATHER_BYTES, gatherWriter, writerClosed } from './gather-writer';

const pieces = (data: Buffer, sizes: number[]): Buffer[] => {
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = Math.max(1, sizes[i % Math.max(1, sizes.length)] ?? data.length);
    out.push(data.subarray(at, at + n));
    at += n;
  }
  return out;
};

describe('gather-writer', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('writes every byte at its place after the given start, whatever the chunking, across several gatherings', async () => {
    const dir = await tempDir('gather-');
    dirs.push(dir);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 * GATHER_BYTES + 5 }),
        fc.array(fc.integer({ min: 1, max: 1024 * 1024 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 100_000 }),
        async (size, sizes, start) => {
          const file = join(dir, `f${String(run++)}`);
          const prefix = randomBytes(start);
          await writeFile(file, prefix);
          const data = randomBytes(size);
          await pipeline(Readable.from(pieces(data, sizes)), gatherWriter(file, start));
          expect((await readFile(file)).equals(Buffer.concat([prefix, data]))).toBe(true);
          await rm(file);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('keeps a clean prefix of the stream, all but at most the chunk in hand, when the stream is cut before its end', async () => {
    const dir = await tempDir('gather-');
    dirs.push(dir);
    const file = join(dir, 'cut');
    await writeFile(file, '');
    const data = randomBytes(GATHER_BYTES + 300_000);
    const writer = gatherWriter(file, 0);
    const cut = new Error('client went away');
    const source = Readable.from(
      (function* () {
        yield* pieces(data, [65_536]);
        throw cut;
      })(),
    );
    await expect(pipeline(source, writer)).rejects.toBe(cut);
    await writerClosed(writer);
    const kept = await readFile(file);
    expect(kept.length).toBeGreaterThanOrEqual(data.length - 65_536);
    expect(kept.equals(data.subarray(0, kept.length))).toBe(true);
  });

  it('fails with the file system\'s error when the file is not there', async () => {
    const dir = await tempDir('gather-');
    dirs.push(dir);
    await expect(pipeline(Readable.from([Buffer.from('x')]), gatherWriter(join(dir, 'missing'), 0))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
