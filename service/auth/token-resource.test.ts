import { describe, expect, it } from 'vitest';
import { audienceOfResource, resourceMismatch } from './token-resource';

const own = ['http://127.0.0.1:9090', 'https://media.example.com/base'];

describe('the resource of a token request', () => {
  it('names the API (api2) or the tool endpoint under /mcp (mcp) of this service only', () => {
    expect(audienceOfResource('http://127.0.0.1:9090', own)).toEqual({ aud: 'api2' });
    expect(audienceOfResource('http://localhost:9090/', own)).toEqual({ aud: 'api2' });
    expect(audienceOfResource('https://media.example.com', own)).toEqual({ aud: 'api2' });
    expect(audienceOfResource('http://127.0.0.1:9090/mcp', own)).toEqual({ aud: 'mcp' });
    expect(audienceOfResource('http://127.0.0.1:9090/mcp/tools', own)).toEqual({ aud: 'mcp' });
    expect(audienceOfResource('http://127.0.0.1:9090/mcpx', own)).toEqual({ aud: 'api2' });
  });

  it('refuses other hosts, ports, schemes, relative names and fragments, saying why', () => {
    const problem = (r: string) => {
      const a = audienceOfResource(r, own);
      return 'problem' in a ? a.problem : null;
    };
    expect(problem('https://evil.example/')).toBe('resource https://evil.example is not this service: name its API origin (http://127.0.0.1:9090) or leave resource out.');
    expect(problem('http://127.0.0.1:9091')).toMatch(/is not this service/);
    expect(problem('https://127.0.0.1:9090')).toMatch(/is not this service/);
    expect(problem('ftp://127.0.0.1:9090')).toMatch(/http\(s\) URL/);
    expect(problem('/mcp')).toMatch(/absolute URL/);
    expect(problem('http://127.0.0.1:9090/#x')).toMatch(/fragment/);
  });

  it('matches a grant: omitted is the grant\'s own, named must be the same audience', () => {
    expect(resourceMismatch(undefined, 'api2', own)).toBeNull();
    expect(resourceMismatch('', 'mcp', own)).toBeNull();
    expect(resourceMismatch('http://127.0.0.1:9090', 'api2', own)).toBeNull();
    expect(resourceMismatch('http://127.0.0.1:9090/mcp', 'api2', own)).toMatch(/granted for aud=api2/);
    expect(resourceMismatch('https://evil.example', 'api2', own)).toMatch(/is not this service/);
  });
});
