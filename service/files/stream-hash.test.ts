// md5 and sha256 (one pass) while bytes stream (on the hashing thread), a resumed upload's prefix hashed from disk, the head
// kept for sniffing, and the byte cap of a tus PATCH.
import { createHash, randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/service-fixture';
import { BATCH_BYTES, INLINE_HASH_BYTES, TooManyBytes, flipFirstByte, hashPrefix, hashTap, streamHash } from './stream-hash';

const digests = (data: Buffer) => ({ md5: createHash('md5').update(data).digest('hex'), sha256: createHash('sha256').update(data).digest('hex') });
const chunks = (data: Buffer, size: number): Buffer[] => Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size));
const sink = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });

describe('stream-hash', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('hashes what streams through, in order, and keeps the first bytes', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const hash = streamHash();
    const tap = hashTap(hash, { headBytes: 512 });
    await pipeline(Readable.from(chunks(data, 10_000)), tap.transform, sink());
    expect(tap.bytes()).toBe(data.length);
    expect(tap.head()).toEqual(data.subarray(0, 512));
    expect(await hash.digest()).toEqual(digests(data));
  });

  it('digests any size and chunking right, on either side of the inline limit, even when a chunk\'s memory is reused once written', async () => {
    const sizes = fc.oneof(fc.integer({ min: 0, max: 3 * INLINE_HASH_BYTES }), fc.integer({ min: INLINE_HASH_BYTES - 3, max: INLINE_HASH_BYTES + 3 }));
    await fc.assert(
      fc.asyncProperty(sizes, fc.integer({ min: 1, max: 70_000 }), fc.integer({ min: 0, max: 0xffff_ffff }), async (size, chunk, seed) => {
        const data = Buffer.alloc(size);
        for (let i = 0; i < size; i++) data[i] = (seed >>> (i % 24)) ^ (i * 31);
        const hash = streamHash();
        const tap = hashTap(hash, { headBytes: 512 });
        // The sink wipes every chunk once written (as a socket's read buffer may be refilled): what was kept must be a copy.
        const wipe = new Writable({ write: (c: Buffer, _e, cb) => (c.fill(0), cb()) });
        await pipeline(Readable.from(chunks(Buffer.from(data), chunk).map((c) => Buffer.from(c))), tap.transform, wipe);
        expect(tap.bytes()).toBe(size);
        expect(await hash.digest()).toEqual(digests(data));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps up with a stream far larger than what may be in flight (backpressure, not memory)', async () => {
    const block = randomBytes(1024 * 1024);
    const whole = createHash('md5');
    const whole256 = createHash('sha256');
    const hash = streamHash();
    const tap = hashTap(hash);
    const source = Readable.from((function* () {
      for (let i = 0; i < 96; i++) {
        whole.update(block);
        whole256.update(block);
        yield block;
      }
    })());
    await pipeline(source, tap.transform, sink());
    expect(await hash.digest()).toEqual({ md5: whole.digest('hex'), sha256: whole256.digest('hex') });
  });

  it('gives every one of several streams at once its own digests while their shared batches are filled again and again', async () => {
    // Streams interleaved chunk by chunk, some dropped midway: a batch reused before both threads hashed it, or
    // handed to the wrong stream, would show as a wrong digest here.
    const stream = fc.record({ size: fc.integer({ min: 0, max: 2 * BATCH_BYTES + 5 }), chunk: fc.integer({ min: 1000, max: 300_000 }), dropAt: fc.option(fc.nat(), { nil: undefined }) });
    await fc.assert(
      fc.asyncProperty(fc.array(stream, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 0xffff_ffff }), async (specs, seed) => {
        const runs = specs.map((spec, n) => {
          const data = Buffer.alloc(spec.size);
          for (let i = 0; i + 4 <= spec.size; i += 4096) data.writeUInt32LE((seed ^ (n * 0x9e3779b1) ^ i) >>> 0, i);
          if (spec.size > 0) data[spec.size - 1] = n;
          return { data, parts: chunks(data, spec.chunk), dropAt: spec.dropAt, hash: streamHash(), sent: 0 };
        });
        for (let step = 0; runs.some((r) => r.sent < r.parts.length); step++) {
          for (const r of runs) {
            if (r.sent >= r.parts.length) continue;
            if (r.dropAt !== undefined && r.sent === r.dropAt % r.parts.length) {
              r.hash.drop();
              r.sent = r.parts.length;
              continue;
            }
            // A copy that is wiped once handed over, as a socket's read buffer may be.
            const chunk = Buffer.from(r.parts[r.sent++]!);
            r.hash.update(chunk);
            chunk.fill(0xa5);
            if (r.hash.congested()) await r.hash.whenDrained();
          }
          // The threads' answers come in between (as between socket reads), so batches go back and are reused.
          await new Promise((go) => setImmediate(go));
        }
        for (const r of runs) {
          const got = await r.hash.digest();
          if (r.dropAt !== undefined && r.parts.length > 0) expect(got).toBeNull();
          else expect(got).toEqual(digests(r.data));
        }
      }),
      { numRuns: 10 },
    );
  });

  it('never fills a batch again while the slower hashing thread still reads it', async () => {
    // Whole batches sent one event-loop turn apart: the faster thread's answer comes back while the slower one
    // is still hashing, and the next batch is filled at once. A batch put back after one reader instead of
    // both would be overwritten under the slower thread, and its digest would be wrong.
    const data = randomBytes(12 * BATCH_BYTES);
    for (let round = 0; round < 3; round++) {
      const hash = streamHash();
      for (const part of chunks(data, BATCH_BYTES)) {
        const chunk = Buffer.from(part);
        hash.update(chunk);
        chunk.fill(0x5a);
        if (hash.congested()) await hash.whenDrained();
        await new Promise((go) => setTimeout(go, 2));
      }
      expect(await hash.digest()).toEqual(digests(data));
    }
  });

  it('continues a resumed upload from its prefix on disk', async () => {
    const dir = await tempDir('stream-hash-');
    dirs.push(dir);
    const data = randomBytes(200_000);
    const file = join(dir, 'upload');
    await writeFile(file, data.subarray(0, 70_000));
    const hash = await hashPrefix(file, 70_000);
    const tap = hashTap(hash);
    await pipeline(Readable.from(chunks(data.subarray(70_000), 4096)), tap.transform, sink());
    expect(await hash.digest()).toEqual(digests(data));
  });

  it('fails a stream that brings more than it may, and flips one byte when told to', async () => {
    const tooMany = hashTap(streamHash(), { maxBytes: 1000 });
    await expect(pipeline(Readable.from([randomBytes(600), randomBytes(600)]), tooMany.transform, sink())).rejects.toBeInstanceOf(TooManyBytes);
    const data = randomBytes(5000);
    const hash = streamHash();
    const corrupt = hashTap(hash, { corrupt: true, headBytes: 4 });
    await pipeline(Readable.from([Buffer.alloc(0), data]), corrupt.transform, sink());
    const stored = flipFirstByte(data);
    expect(stored[0]).toBe(data[0]! ^ 0xff);
    expect(stored.subarray(1)).toEqual(data.subarray(1));
    expect(corrupt.head()).toEqual(stored.subarray(0, 4));
    expect(await hash.digest()).toEqual(digests(stored));
  });
});
