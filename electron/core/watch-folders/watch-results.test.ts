import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { writeResultsForWatch } from './watch-results';

const body = (url: string) => `bytes of ${url}`;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
/** A result as the service records it, with the size and md5 of what the test server sends for `url`. */
const result = (base: string, url: string, name: string, over: Record<string, unknown> = {}) => ({ ssl_url: `${base}${url}`, name, ext: path.extname(name).slice(1), size: body(url).length, md5hash: md5(body(url)), ...over });
const statusOf = (results: Record<string, unknown[]>): AssemblyStatus => ({ assembly_id: 'a'.repeat(32), uploads: [{ id: 'u1', name: 'a.png', size: 10 }], results }) as unknown as AssemblyStatus;

describe('watch results (through the results mirror)', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  it('writes <step>/<relative path with the result extension>, verified, by the watch\'s conflict policy (replace, keep both, skip), and says what failed', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/missing') return void res.writeHead(404).end();
      res.end(body(req.url ?? ''));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const output = await mkdtemp(path.join(tmpdir(), 'watch-results-'));
    dirs.push(output);
    try {
      const first = statusOf({ resized: [result(base, '/r1', 'a.jpg', { original_id: 'u1' })], thumbs: [result(base, '/t1', 'a_0.png', { original_id: 'u1' })] });
      expect(await writeResultsForWatch({ status: first, relativePath: 'sub/a.png', output, conflict: 'overwrite' })).toEqual({ written: ['resized/sub/a.jpg', 'thumbs/sub/a.png'], keptBeside: [], skipped: [] });
      const again = statusOf({ resized: [result(base, '/r2', 'a.jpg', { original_id: 'u1' })] });
      await writeResultsForWatch({ status: again, relativePath: 'sub/a.png', output, conflict: 'overwrite' });
      expect(await readFile(path.join(output, 'resized', 'sub', 'a.jpg'), 'utf8')).toBe('bytes of /r2');
      // Replaced in place: no second copy, no temp file left.
      expect(await readdir(path.join(output, 'resized', 'sub'))).toEqual(['a.jpg']);

      const corrupt = statusOf({ resized: [result(base, '/r3', 'b.jpg', { original_id: 'u1', md5hash: md5('something else') })] });
      await expect(writeResultsForWatch({ status: corrupt, relativePath: 'b.png', output, conflict: 'overwrite' })).rejects.toThrow('RESULT_CHECKSUM_MISMATCH');
      await expect(readdir(path.join(output, 'resized'))).resolves.toEqual(['sub']);
      const missing = statusOf({ x: [result(base, '/missing', 'c.jpg', { original_id: 'u1' })] });
      // A result host's 404 is an expired URL: said so (no status to read again here), not "HTTP 404".
      await expect(writeResultsForWatch({ status: missing, relativePath: 'c.png', output, conflict: 'overwrite' })).rejects.toThrow(/^RESULT_EXPIRED: x\/c\.jpg: c\.jpg has expired on the service \(its result host answered HTTP 404\)/);

      // Keep both: the newer result beside the earlier one, both intact, and said so.
      const third = statusOf({ resized: [result(base, '/r4', 'a.jpg', { original_id: 'u1' })], thumbs: [result(base, '/t4', 'a_0.png', { original_id: 'u1' })] });
      expect(await writeResultsForWatch({ status: third, relativePath: 'sub/a.png', output, conflict: 'keep-both' })).toEqual({ written: ['resized/sub/a (2).jpg', 'thumbs/sub/a (2).png'], keptBeside: ['resized/sub/a (2).jpg', 'thumbs/sub/a (2).png'], skipped: [] });
      expect(await readFile(path.join(output, 'resized', 'sub', 'a.jpg'), 'utf8')).toBe('bytes of /r2');
      expect(await readFile(path.join(output, 'resized', 'sub', 'a (2).jpg'), 'utf8')).toBe('bytes of /r4');
      // Skip: what is there stays; a result with a free path is still written.
      const fourth = statusOf({ resized: [result(base, '/r5', 'a.jpg', { original_id: 'u1' })], gifs: [result(base, '/g5', 'a.gif', { original_id: 'u1' })] });
      expect(await writeResultsForWatch({ status: fourth, relativePath: 'sub/a.png', output, conflict: 'skip' })).toEqual({ written: ['gifs/sub/a.gif'], keptBeside: [], skipped: ['resized/sub/a.jpg'] });
      expect(await readFile(path.join(output, 'resized', 'sub', 'a.jpg'), 'utf8')).toBe('bytes of /r2');
      expect((await readdir(path.join(output, 'resized', 'sub'))).sort()).toEqual(['a (2).jpg', 'a.jpg']);
    } finally {
      server.close();
    }
  });
});
