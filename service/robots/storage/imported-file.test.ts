// An import's body can fail before the file it goes to exists (an FTP server answers 550 at once): the
// robot reports the failure, leaves nothing behind, and the service process does not die of it.
import { readdir, rm } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/service-fixture';
import { keepImported } from './imported-file';

describe('keeping an imported file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir('svc-import-');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('rejects with the error of a body that fails at once, without an uncaught error, and keeps no file', async () => {
    const body = new PassThrough();
    const kept = keepImported(dir, 'file.txt', body);
    // Before keepImported reaches its pipeline: an 'error' nobody listens to would end the process.
    body.destroy(new Error('550 No such file or directory.'));
    await expect(kept).rejects.toThrow('550 No such file or directory.');
    const left = await readdir(dir, { recursive: true, withFileTypes: true });
    expect(left.filter((e) => e.isFile()).map((e) => e.name)).toEqual([]);
  });

  it('keeps the bytes of a body that ends well', async () => {
    const body = new PassThrough();
    const kept = keepImported(dir, 'good.txt', body);
    body.end('all of it');
    const stored = await kept;
    expect(stored.size).toBe(9);
  });
});
