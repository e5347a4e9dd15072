import { describe, expect, it } from 'vitest';
import { defaultToolServerHosts, refusedToolServer, toolServerAllowed } from './tool-server-hosts';

describe('tool-server hosts', () => {
  it('allows loopback and the own domains (with subdomains) by default, nothing on the LAN or the Internet', () => {
    const rules = defaultToolServerHosts(['127.0.0.1', '.Example.com.']);
    expect(rules).toEqual(['loopback', '127.0.0.1', 'example.com', '*.example.com']);
    for (const ok of ['http://127.0.0.1:9/mcp', 'http://localhost:3000/', 'http://[::1]:8/m', 'https://example.com/mcp', 'https://mcp.example.com./x']) expect(toolServerAllowed(ok, rules), ok).toBe(true);
    for (const no of ['http://192.168.1.5/mcp', 'http://10.0.0.1/', 'https://evil.com/mcp', 'https://example.com.evil.com/', 'https://notexample.com/']) expect(toolServerAllowed(no, rules), no).toBe(false);
  });

  it('"*" allows any host; an empty list none', () => {
    expect(toolServerAllowed('http://192.168.1.5/mcp', ['*'])).toBe(true);
    expect(toolServerAllowed('http://127.0.0.1/mcp', [])).toBe(false);
  });

  it('names the first refused entry, its host and the flag', () => {
    const servers = [
      { type: 'http' as const, url: 'http://localhost:1/a' },
      { type: 'http' as const, url: 'https://Tools.Example.org/mcp' },
    ];
    expect(refusedToolServer(servers, ['loopback'])).toBe(
      'mcp_servers[1] is on "tools.example.org", and this service calls tool servers only on loopback. To allow it, start the service with --tool-server-allow-hosts (or ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS; in the app: Workspaces, Chat model, "Tool servers may be on") listing "tools.example.org"; no request was sent to it.',
    );
    expect(refusedToolServer(servers, ['loopback', '*.example.org'])).toBeNull();
  });
});
