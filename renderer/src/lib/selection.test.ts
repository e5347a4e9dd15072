import { describe, expect, it } from 'vitest';
import { isImageFile, mediaKindOf } from './selection';

describe('isImageFile', () => {
  it('recognises images by MIME type or, without one, by extension', () => {
    expect(isImageFile({ mime: 'image/png', name: 'x.bin' })).toBe(true);
    expect(isImageFile({ mime: 'video/mp4', name: 'x.jpg' })).toBe(false);
    expect(isImageFile({ mime: null, name: 'IMG_1.JPEG' })).toBe(true);
  });
});

describe('mediaKindOf', () => {
  it('tells images, videos and audio apart by type, else by extension', () => {
    expect(mediaKindOf({ mime: 'video/quicktime', name: 'a.bin' })).toBe('video');
    expect(mediaKindOf({ mime: 'audio/mpeg', name: 'a.mp4' })).toBe('audio');
    expect(mediaKindOf({ mime: 'application/pdf', name: 'a.mp4' })).toBe('other');
    expect(mediaKindOf({ mime: null, name: 'clip.MOV' })).toBe('video');
    expect(mediaKindOf({ mime: undefined, name: 'song.flac' })).toBe('audio');
    expect(mediaKindOf({ mime: null, name: 'notes.txt' })).toBe('other');
  });
});
