import { describe, expect, it } from 'vitest';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { matchInputs, planMirror } from './mirror-plan';

const status: AssemblyStatus = {
  ok: 'ASSEMBLY_COMPLETED',
  uploads: [
    { id: 'u1', name: 'beach.jpg', size: 100, md5hash: 'aa', field: 'file_0' },
    { id: 'u2', name: 'city.jpg', size: 300, md5hash: 'cc', user_meta: { relative_path: 'p/2024/summer/city.jpg' } },
    { id: 'u3', name: 'beach.jpg', size: 200, md5hash: 'bb', field: 'file_1' },
  ],
  results: {
    resized: [
      { id: 'r1', name: 'beach.jpg', ext: 'jpg', original_id: 'u1', ssl_url: 'http://h/r1', size: 10, md5hash: 'r1md5' },
      { id: 'r2', name: 'city.jpg', ext: 'jpg', original_id: 'u2', ssl_url: 'http://h/r2', size: 30, md5hash: 'r2md5', sha256: 'ABC' } as never,
      { id: 'r3', name: 'beach.jpg', ext: 'jpg', original_id: 'u3', ssl_url: 'http://h/r3', size: 20, md5hash: 'r3md5' },
    ],
    zipped: [{ id: 'z', name: 'all.zip', ssl_url: 'http://h/z', size: 5 }, { id: 'n', name: 'nourl.txt' }],
  },
};

describe('matchInputs', () => {
  it('pairs local files with uploads by carried path, else by name and size', () => {
    const inputs = matchInputs(
      [
        { relativePath: 'p/beach.jpg', size: 100 },
        { relativePath: 'p/2024/beach.jpg', size: 200 },
        { relativePath: 'p/2024/summer/city.jpg', size: 300 },
        { relativePath: 'p/never-sent.jpg', size: 5, error: 'FILE_UNREADABLE' },
      ],
      status,
    );
    expect(inputs.map((i) => [i.relativePath, i.uploadId, i.md5, i.error])).toEqual([
      ['p/beach.jpg', 'u1', 'aa', null],
      ['p/2024/beach.jpg', 'u3', 'bb', null],
      ['p/2024/summer/city.jpg', 'u2', 'cc', null],
      ['p/never-sent.jpg', null, null, 'FILE_UNREADABLE'],
    ]);
  });
  it('without local knowledge, the uploads are the inputs', () => {
    expect(matchInputs(null, status).map((i) => i.relativePath)).toEqual(['beach.jpg', 'p/2024/summer/city.jpg', 'beach.jpg']);
  });
});

describe('planMirror', () => {
  const inputs = matchInputs(
    [
      { relativePath: 'p/beach.jpg', size: 100 },
      { relativePath: 'p/2024/beach.jpg', size: 200 },
      { relativePath: 'p/2024/summer/city.jpg', size: 300 },
    ],
    status,
  );
  it('mirrors the input tree per step, keeps hashes, and lists results without a URL apart', () => {
    const plan = planMirror([{ assemblyId: 'a1', status, inputs }], 'by-step');
    expect(plan.entries.map((e) => [e.relPath, e.md5, e.size])).toEqual([
      ['resized/p/beach.jpg', 'r1md5', 10],
      ['resized/p/2024/summer/city.jpg', 'r2md5', 30],
      ['resized/p/2024/beach.jpg', 'r3md5', 20],
      ['zipped/all.zip', null, 5],
    ]);
    expect(plan.entries[1]!.sha256).toBe('abc');
    expect(plan.unfetchable).toEqual([{ assemblyId: 'a1', step: 'zipped', name: 'nourl.txt' }]);
  });
  it('two results on one path in the flat layout are both kept, as (2)', () => {
    const plan = planMirror([{ assemblyId: 'a1', status, inputs }], 'flat');
    expect(plan.entries.map((e) => e.relPath)).toEqual(['resized/beach.jpg', 'resized/city.jpg', 'resized/beach (2).jpg', 'zipped/all.zip']);
  });
});
