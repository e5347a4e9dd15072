import { describe, expect, it } from 'vitest';
import { dragOutData } from './drag-out';

describe('drag-out data', () => {
  it('says type, name and URL, as Chromium saves a dropped DownloadURL, and the URL for other apps', () => {
    expect(dragOutData({ url: 'http://127.0.0.1:5000/r/abc/photo.webp', name: 'photo.webp', mime: 'image/webp' })).toEqual({
      DownloadURL: 'image/webp:photo.webp:http://127.0.0.1:5000/r/abc/photo.webp',
      'text/uri-list': 'http://127.0.0.1:5000/r/abc/photo.webp',
      'text/plain': 'http://127.0.0.1:5000/r/abc/photo.webp',
    });
  });

  it('keeps colons and folders out of the name, and falls back to a generic type', () => {
    const data = dragOutData({ url: 'https://cdn.example/x', name: 'take 1: final/cut.mp4', mime: 'not a mime' });
    expect(data.DownloadURL).toBe('application/octet-stream:take 1_ final_cut.mp4:https://cdn.example/x');
    expect(dragOutData({ url: 'https://cdn.example/x', name: ' ', mime: null }).DownloadURL).toBe('application/octet-stream:result:https://cdn.example/x');
  });
});
