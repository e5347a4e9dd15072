import { describe, expect, it } from 'vitest';
import { isCdnUrl } from './preview-cdn-url';

describe('which URLs the CDN preview fetches', () => {
  it('takes the workspace endpoint\'s /file/ URLs and https *.tlcdn.com, nothing else', () => {
    const local = 'http://127.0.0.1:4000';
    expect(isCdnUrl('http://127.0.0.1:4000/file/local/t/a.jpg?sig=x', local)).toBe(true);
    expect(isCdnUrl('https://ws.tlcdn.com/t/a.jpg?sig=x', 'https://api2.transloadit.com')).toBe(true);
    expect(isCdnUrl('http://127.0.0.1:4000/assemblies', local)).toBe(false);
    expect(isCdnUrl('http://127.0.0.1:4001/file/local/t/a.jpg', local)).toBe(false);
    expect(isCdnUrl('http://ws.tlcdn.com/t/a.jpg', local)).toBe(false);
    expect(isCdnUrl('https://tlcdn.com.evil.example/t/a.jpg', local)).toBe(false);
    expect(isCdnUrl('http://user:pw@127.0.0.1:4000/file/local/t/a.jpg', local)).toBe(false);
    expect(isCdnUrl('not a url', local)).toBe(false);
  });
});
