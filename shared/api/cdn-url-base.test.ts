import { describe, expect, it } from 'vitest';
import { cdnUrlBase, isLoopbackEndpoint } from './cdn-url-base';

describe('where content-delivery URLs start', () => {
  it('at the hosted Smart CDN for a hosted endpoint', () => {
    expect(cdnUrlBase({ endpoint: 'https://api2.transloadit.com', slug: 'my-team' })).toBe('https://my-team.tlcdn.com');
  });
  it("at the local service's /file/{slug} for an endpoint on this computer, or the Local workspace", () => {
    expect(cdnUrlBase({ endpoint: 'http://127.0.0.1:9443/', slug: 'my-team' })).toBe('http://127.0.0.1:9443/file/my-team');
    expect(cdnUrlBase({ endpoint: 'http://localhost:5000', slug: 'a b' })).toBe('http://localhost:5000/file/a%20b');
    expect(cdnUrlBase({ endpoint: 'http://192.168.1.5:9443', slug: 's', local: true })).toBe('http://192.168.1.5:9443/file/s');
    for (const e of ['http://[::1]:80', 'https://127.1.2.3']) expect(isLoopbackEndpoint(e)).toBe(true);
    for (const e of ['https://localhost.example.com', 'https://127.0.0.1.evil.com', 'https://api2.transloadit.com']) expect(isLoopbackEndpoint(e)).toBe(false);
  });
});
