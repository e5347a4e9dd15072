import { describe, expect, it } from 'vitest';
import { excludedFolders, isIgnoredRelativePath, isInside, nthName, retiredAfterEdit, withExtension } from './watch-paths';

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

  it('keeps passing over a former output or move-to folder inside the watched one after an edit', () => {
    const keep = { kind: 'keep' };
    expect(excludedFolders({ output: '/w/out', afterSuccess: { kind: 'move', folder: '/w/done' }, retiredFolders: ['/w/old'] })).toEqual(['/w/out', '/w/done', '/w/old']);
    // The old output lay inside the watched folder: its results stay out of the watch.
    expect(retiredAfterEdit('/w', { output: '/w/out', afterSuccess: keep }, { output: '/elsewhere', afterSuccess: keep })).toEqual(['/w/out']);
    // Outside the watched folder: nothing to remember.
    expect(retiredAfterEdit('/w', { output: '/a', afterSuccess: { kind: 'move', folder: '/b' } }, { output: '/c', afterSuccess: keep })).toEqual([]);
    // Back in use (as output or move-to folder): no longer retired, and nothing is listed twice.
    expect(retiredAfterEdit('/w', { output: '/w/new', afterSuccess: keep, retiredFolders: ['/w/out', '/w/new'] }, { output: '/w/out', afterSuccess: keep })).toEqual(['/w/new']);
    expect(retiredAfterEdit('/w', { output: '/w/out', afterSuccess: { kind: 'move', folder: '/w/done' }, retiredFolders: ['/w/done'] }, { output: '/w/out', afterSuccess: keep })).toEqual(['/w/done']);
  });
});
