import { describe, expect, it } from 'vitest';
import { mcpServersProblem } from './mcp-servers';

const ok = { type: 'http', url: 'https://api.example.com/mcp' };
const problem = (servers: unknown) => mcpServersProblem({ robot: '/ai/chat', mcp_servers: servers });

describe('mcpServersProblem', () => {
  it('accepts absent, empty and well-formed tool servers', () => {
    expect(mcpServersProblem({ robot: '/ai/chat' })).toBeNull();
    expect(problem([])).toBeNull();
    expect(problem([ok, { ...ok, url: 'http://127.0.0.1:9/mcp', auth: 'service', headers: { 'X-A': 'b' } }])).toBeNull();
  });

  it('names the first bad entry and key, each rule with its code', () => {
    expect(problem({})?.code).toBe('MCP_SERVERS_NOT_A_LIST');
    expect(problem([ok, 'x'])).toMatchObject({ code: 'MCP_SERVER_NOT_AN_OBJECT', problem: expect.stringContaining('mcp_servers[1]') });
    expect(problem([{ ...ok, type: 'sse' }])?.code).toBe('MCP_SERVER_INVALID_TYPE');
    expect(problem([{ url: ok.url }])?.code).toBe('MCP_SERVER_INVALID_TYPE');
    expect(problem([{ type: 'http', url: '' }])?.code).toBe('MCP_SERVER_MISSING_URL');
    expect(problem([{ type: 'http', url: 'not a url' }])?.code).toBe('MCP_SERVER_INVALID_URL');
    expect(problem([{ type: 'http', url: 'file:///etc/passwd' }])?.code).toBe('MCP_SERVER_INVALID_URL');
    expect(problem([{ type: 'http', url: 42 }])?.code).toBe('MCP_SERVER_INVALID_URL');
    expect(problem([{ ...ok, auth: 'transloadit' }])?.code).toBe('MCP_SERVER_INVALID_AUTH');
    expect(problem([{ ...ok, headers: ['Authorization: x'] }])?.code).toBe('MCP_SERVER_INVALID_HEADERS');
    expect(problem([{ ...ok, headers: { A: null } }])?.problem).toContain('headers["A"] must be a string');
    expect(problem({})).toMatchObject({ parameter: 'mcp_servers', path: [] });
    expect(problem([ok, { ...ok, auth: 'x' }])?.path).toEqual(['1', 'auth']);
  });

  it('leaves values still holding ${…} to be checked once interpolated', () => {
    const deferred = (v: unknown) => typeof v === 'string' && v.includes('${');
    expect(mcpServersProblem({ mcp_servers: [{ type: 'http', url: '${fields.tools}' }] }, deferred)).toBeNull();
    expect(mcpServersProblem({ mcp_servers: [{ type: 'http', url: '${fields.tools}' }] })?.code).toBe('MCP_SERVER_INVALID_URL');
  });
});
