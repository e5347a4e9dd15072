import { describe, expect, it } from 'vitest';
import { rootForPickedFile, topSegment, uniqueInOrder } from './picked-roots';

describe('rootForPickedFile', () => {
  it('returns the dropped folder for a file deep inside it', () => {
    expect(rootForPickedFile('/home/me/photos/sub/a.jpg', 'photos/sub/a.jpg')).toBe('/home/me/photos');
  });
  it('returns the file itself for a loose file', () => {
    expect(rootForPickedFile('/home/me/a.jpg', 'a.jpg')).toBe('/home/me/a.jpg');
  });
  it('understands Windows separators', () => {
    expect(rootForPickedFile('C:\\Users\\me\\photos\\sub\\a.jpg', 'photos/sub/a.jpg')).toBe('C:\\Users\\me\\photos');
  });
  it('never strips past the filesystem root', () => {
    expect(rootForPickedFile('/a.jpg', 'x/y/z/a.jpg')).toBe('/a.jpg');
  });
});

describe('uniqueInOrder and topSegment', () => {
  it('keeps each root once, in the order the user picked', () => {
    expect(uniqueInOrder(['/b', '/a', '/b'])).toEqual(['/b', '/a']);
  });
  it('finds the top folder of a relative path', () => {
    expect(topSegment('photos/sub/a.jpg')).toBe('photos');
    expect(topSegment('a.jpg')).toBe('a.jpg');
  });
});
