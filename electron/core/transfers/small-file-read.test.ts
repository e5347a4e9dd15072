import fc from 'fast-check';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSmallFile } from './small-file-read';

// Invariant: a small file is sent only with exactly the bytes it had when it was added; a file that grew or
// shrank since is said to have changed, with its size now.
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-small-read-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readSmallFile', () => {
  it('gives the bytes of a file of the size it was added with, and the size now of one that changed', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 70_000 }), fc.integer({ min: -3, max: 3 }), async (content, delta) => {
        const file = path.join(dir, `f${n++}`);
        await writeFile(file, content);
        const added = Math.max(0, content.length + delta);
        const read = await readSmallFile(file, added);
        if (added === content.length) expect(read).toEqual({ ok: true, bytes: Buffer.from(content) });
        else expect(read).toEqual({ ok: false, sizeNow: content.length });
      }),
      { numRuns: 150 },
    );
  });

  it('rejects with the error of the open for a file that is gone', async () => {
    await expect(readSmallFile(path.join(dir, 'gone'), 10)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
