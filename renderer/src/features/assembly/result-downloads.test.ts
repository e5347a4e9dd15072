import { describe, expect, it } from 'vitest';
import { downloadTallyText, resultDownloads } from './result-downloads';

describe('result downloads', () => {
  it('lists every result with a URL once, in step order, named as the run view names files', () => {
    const shared = { id: 'r1', name: 'a.jpg', ssl_url: 'https://cdn.example/a.jpg' };
    expect(
      resultDownloads({
        small: [shared, { id: 'r2', basename: 'b', url: 'http://cdn.example/b' }, { id: 'r3', name: 'no-url.jpg' }],
        again: [shared, { id: 'r4', ssl_url: 'https://cdn.example/r4' }],
      }),
    ).toEqual([
      { step: 'small', url: 'https://cdn.example/a.jpg', name: 'a.jpg' },
      { step: 'small', url: 'http://cdn.example/b', name: 'b' },
      { step: 'again', url: 'https://cdn.example/r4', name: 'r4' },
    ]);
    expect(resultDownloads({})).toEqual([]);
  });

  it('says how far it is, then what was saved and the first failure with its code', () => {
    expect(downloadTallyText({ total: 7, saved: 2, failed: [] }, true)).toBe('Downloading 3 of 7…');
    expect(downloadTallyText({ total: 1, saved: 1, failed: [] }, false)).toBe('Saved 1 file.');
    expect(downloadTallyText({ total: 3, saved: 2, failed: [{ name: 'c.jpg', code: 'NETWORK_ERROR', message: 'HTTP 404' }] }, false)).toBe(
      'Saved 2 of 3 files; 1 failed (c.jpg: NETWORK_ERROR — HTTP 404).',
    );
  });
});
