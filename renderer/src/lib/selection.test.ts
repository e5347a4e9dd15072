import { describe, expect, it } from 'vitest';
import { isImageFile, mergeSelection, removeFromSelection, selectionKey, totalBytesOf } from './selection';

const f = (path: string, size = 10, handle = 'fh_1') => ({ handle, relativePath: path.slice(1), name: path.split('/').pop() as string, size, mime: null });

describe('selection', () => {
  it('merges new files after the old ones and drops paths already selected', () => {
    const result = mergeSelection([f('/a'), f('/b')], [f('/b'), f('/c'), f('/c')]);
    expect(result.files.map((x) => x.relativePath)).toEqual(['a', 'b', 'c']);
    expect(result.added).toBe(1);
    expect(result.duplicates).toBe(2);
  });

  it('stays fast with many thousands of files', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => f(`/dir/${i}.jpg`));
    const started = performance.now();
    const result = mergeSelection(many, many.slice(0, 25_000).concat([f('/new')]));
    expect(result.added).toBe(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('keeps same-named files of two different picks apart', () => {
    const result = mergeSelection([f('/a', 10, 'fh_1')], [f('/a', 10, 'fh_2')]);
    expect(result.added).toBe(1);
  });

  it('removes by key and totals bytes', () => {
    const files = [f('/a', 5), f('/b', 7)];
    expect(removeFromSelection(files, selectionKey(f('/a'))).map((x) => x.relativePath)).toEqual(['b']);
    expect(totalBytesOf(files)).toBe(12);
  });

  it('recognises images by MIME type or, without one, by extension', () => {
    expect(isImageFile({ mime: 'image/png', name: 'x.bin' })).toBe(true);
    expect(isImageFile({ mime: 'video/mp4', name: 'x.jpg' })).toBe(false);
    expect(isImageFile({ mime: null, name: 'IMG_1.JPEG' })).toBe(true);
  });
});
