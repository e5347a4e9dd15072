import { describe, expect, it } from 'vitest';
import { isOwnHost, toolServerHeaders } from './tool-server-auth';

describe('isOwnHost', () => {
  const own = ['127.0.0.1', 'example.com'];
  it('counts the own domains and their subdomains over HTTPS, any port', () => {
    expect(isOwnHost('https://example.com/mcp', own)).toBe(true);
    expect(isOwnHost('https://mcp.example.com:8443/mcp', own)).toBe(true);
    expect(isOwnHost('https://EXAMPLE.com./mcp', own)).toBe(true);
  });
  it('refuses other hosts, look-alikes and plain http except on loopback', () => {
    expect(isOwnHost('https://notexample.com/mcp', own)).toBe(false);
    expect(isOwnHost('https://example.com.evil.net/mcp', own)).toBe(false);
    expect(isOwnHost('http://example.com/mcp', own)).toBe(false);
    expect(isOwnHost('http://127.0.0.1:8080/mcp', own)).toBe(true);
    // Loopback but not named as ours.
    expect(isOwnHost('http://localhost:8080/mcp', own)).toBe(false);
    expect(isOwnHost('not a url', own)).toBe(false);
  });
});

describe('toolServerHeaders', () => {
  const own = ['example.com'];
  let minted = 0;
  const mint = () => `tok${++minted}`;
  it('adds a Bearer token only for auth "service" on an own host without an Authorization header', () => {
    expect(toolServerHeaders({ type: 'http', url: 'https://example.com/m', auth: 'service', headers: { X: '1' } }, own, mint)).toEqual({ headers: { X: '1', Authorization: 'Bearer tok1' }, injected: true });
    expect(toolServerHeaders({ type: 'http', url: 'https://other.org/m', auth: 'service' }, own, mint).headers).toEqual({});
    expect(toolServerHeaders({ type: 'http', url: 'https://example.com/m' }, own, mint).headers).toEqual({});
    expect(toolServerHeaders({ type: 'http', url: 'https://example.com/m', auth: 'service', headers: { authorization: 'Basic abc' } }, own, mint).headers).toEqual({ authorization: 'Basic abc' });
    // Minted only when sent.
    expect(minted).toBe(1);
  });
});
