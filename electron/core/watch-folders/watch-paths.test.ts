import { describe, expect, it } from 'vitest';
import { isIgnoredRelativePath, isInside, nthName, withExtension } from './watch-paths';

describe('watch paths', () => {
  it('ignores hidden, temporary and OS files, and takes ordinary ones', () => {
    for (const p of ['a/.hidden.jpg', '.git/x', 'movie.mp4.part', 'x.crdownload', '~$report.docx', 'sub/.DS_Store', 'Thumbs.db']) expect(isIgnoredRelativePath(p), p).toBe(true);
    for (const p of ['photo.jpg', 'sub/dir/clip.mov', 'part.jpg', 'my~file.png']) expect(isIgnoredRelativePath(p), p).toBe(false);
  });

  it('knows when the output folder lies inside the watched one', () => {
    expect(isInside('/w', '/w/out')).toBe(true);
    expect(isInside('/w', '/w')).toBe(true);
    expect(isInside('/w', '/wout')).toBe(false);
    expect(isInside('/w', '/other/out')).toBe(false);
  });

  it('gives a result the input path with its own extension, and numbers extra results', () => {
    expect(withExtension('a/b/photo.png', 'jpg')).toBe('a/b/photo.jpg');
    expect(withExtension('noext', 'jpg')).toBe('noext.jpg');
    expect(withExtension('a.b/file', '.webp')).toBe('a.b/file.webp');
    expect(withExtension('clip.mov', null)).toBe('clip.mov');
    expect(nthName('a/clip.jpg', 0)).toBe('a/clip.jpg');
    expect(nthName('a/clip.jpg', 2)).toBe('a/clip (2).jpg');
  });
});
