import { describe, expect, it } from 'vitest';
import { isImageFile } from './selection';

describe('isImageFile', () => {
  it('recognises images by MIME type or, without one, by extension', () => {
    expect(isImageFile({ mime: 'image/png', name: 'x.bin' })).toBe(true);
    expect(isImageFile({ mime: 'video/mp4', name: 'x.jpg' })).toBe(false);
    expect(isImageFile({ mime: null, name: 'IMG_1.JPEG' })).toBe(true);
  });
});
