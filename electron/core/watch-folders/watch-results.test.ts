import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planResults, stepFolder, writeResultsForWatch } from './watch-results';

describe('watch results', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  it('lays results out as <step>/<relative path with the result extension>, numbering extra results of a step', () => {
    const plan = planResults(
      {
        results: {
          ':original': [{ ssl_url: 'https://x/o.png', ext: 'png' }],
          thumbs: [
            { ssl_url: 'https://x/t1.jpg', ext: 'jpg' },
            { url: 'http://x/t2.jpg', ext: 'jpg' },
          ],
          broken: [{ ext: 'jpg' }],
        },
      },
      'shoot/day 1/photo.png',
    );
    expect(plan).toEqual([
      { url: 'https://x/o.png', target: 'original/shoot/day 1/photo.png' },
      { url: 'https://x/t1.jpg', target: 'thumbs/shoot/day 1/photo.jpg' },
      { url: 'http://x/t2.jpg', target: 'thumbs/shoot/day 1/photo (1).jpg' },
    ]);
    expect(stepFolder('a/b:c')).toBe('a_b_c');
  });

  it('downloads each result over HTTP into place, replacing an earlier version and leaving no .part behind', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/missing') return void res.writeHead(404).end();
      res.end(`bytes of ${req.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const output = await mkdtemp(path.join(tmpdir(), 'watch-results-'));
    dirs.push(output);
    try {
      const status = { results: { resized: [{ ssl_url: `${base}/r1`, ext: 'jpg' }] } };
      expect(await writeResultsForWatch({ status, relativePath: 'sub/a.png', output })).toEqual(['resized/sub/a.jpg']);
      const again = { results: { resized: [{ ssl_url: `${base}/r2`, ext: 'jpg' }] } };
      await writeResultsForWatch({ status: again, relativePath: 'sub/a.png', output });
      expect(await readFile(path.join(output, 'resized', 'sub', 'a.jpg'), 'utf8')).toBe('bytes of /r2');
      expect(await readdir(path.join(output, 'resized', 'sub'))).toEqual(['a.jpg']);
      await expect(writeResultsForWatch({ status: { results: { x: [{ ssl_url: `${base}/missing`, ext: 'jpg' }] } }, relativePath: 'b.png', output })).rejects.toThrow('HTTP 404');
    } finally {
      server.close();
    }
  });
});
