import { describe, expect, it } from 'vitest';
import { parseParentMessage } from './child-messages';
import { chatEndpointProblem, chatOptionsFromEnv, chatTimeoutProblem } from './chat-option';
import { parseToolServerHosts } from './tool-server-hosts-option';

describe('chat options for the embedded service', () => {
  it('says what is wrong with a typed endpoint or timeout (the settings form and the environment share these)', () => {
    expect(chatEndpointProblem('http://127.0.0.1:11434/v1')).toBeNull();
    expect(chatEndpointProblem('')).toBeNull();
    expect(chatEndpointProblem('127.0.0.1:11434')).toBe('An http(s) URL such as http://127.0.0.1:11434/v1');
    expect(chatTimeoutProblem('120000')).toBeNull();
    expect(chatTimeoutProblem(' ')).toBeNull();
    for (const bad of ['0', '-5', '1.5', 'soon']) expect(chatTimeoutProblem(bad)).toBe('A whole number of milliseconds, at least 1');
  });

  it('reads ASSEMBLYLINE_CHAT_* and ASSEMBLYLINE_OWN_DOMAINS; nothing set is undefined', () => {
    expect(chatOptionsFromEnv({})).toBeUndefined();
    expect(
      chatOptionsFromEnv({
        ASSEMBLYLINE_CHAT_ENDPOINT: 'http://127.0.0.1:11434/v1',
        ASSEMBLYLINE_CHAT_MODEL: 'llama3',
        ASSEMBLYLINE_CHAT_API_KEY: 'sk-x',
        ASSEMBLYLINE_CHAT_TIMEOUT_MS: '30000',
        ASSEMBLYLINE_OWN_DOMAINS: 'example.com,api.example.org',
      }),
    ).toEqual({ endpoint: 'http://127.0.0.1:11434/v1', model: 'llama3', apiKey: 'sk-x', timeoutMs: 30000, ownDomains: ['example.com', 'api.example.org'] });
  });

  it('names the variable that is malformed', () => {
    expect(() => chatOptionsFromEnv({ ASSEMBLYLINE_CHAT_ENDPOINT: 'localhost:11434' })).toThrow(/ASSEMBLYLINE_CHAT_ENDPOINT must be an http\(s\) URL/);
    expect(() => chatOptionsFromEnv({ ASSEMBLYLINE_CHAT_TIMEOUT_MS: '-1' })).toThrow(/ASSEMBLYLINE_CHAT_TIMEOUT_MS/);
  });

  it('reads ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS, and refuses a list with a URL, a port or no host, naming the variable', () => {
    expect(chatOptionsFromEnv({ ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS: ' Loopback, *.Tools.example.com,10.0.0.5, [::1] ' })).toEqual({ toolServerHosts: ['loopback', '*.tools.example.com', '10.0.0.5', '[::1]'] });
    expect(chatOptionsFromEnv({ ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS: '*' })).toEqual({ toolServerHosts: ['*'] });
    expect(() => chatOptionsFromEnv({ ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS: 'loopback, https://tools.example.com/mcp' })).toThrow(
      'ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS has a bad entry: "https://tools.example.com/mcp" is a URL, not a host: use tools.example.com.',
    );
    expect(() => chatOptionsFromEnv({ ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS: 'tools.example.com:8080, *.*' })).toThrow(
      'has bad entries: "tools.example.com:8080" has a port: use tools.example.com (any port is allowed); "*.*" may hold "*" only as a whole label at the start',
    );
    expect(() => chatOptionsFromEnv({ ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS: ' , ' })).toThrow('ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS lists no host');
    for (const bad of ['tools.*.com', '*example.com', 'a b']) expect(parseToolServerHosts(bad)).toEqual({ problem: expect.stringContaining(`has a bad entry: "${bad}"`) });
  });

  it('travels in the start message; malformed keys are dropped', () => {
    const start = { type: 'start', dataDir: '/d', port: 0 };
    expect(parseParentMessage({ ...start, chat: { endpoint: 'http://127.0.0.1:9/v1', timeoutMs: 5 } })).toEqual({ ...start, chat: { endpoint: 'http://127.0.0.1:9/v1', timeoutMs: 5 } });
    expect(parseParentMessage({ ...start, chat: { endpoint: 'ftp://x', timeoutMs: 'soon' } })).toEqual(start);
    expect(parseParentMessage({ ...start, chat: { toolServerHosts: ['loopback', '*.example.com'] } })).toEqual({ ...start, chat: { toolServerHosts: ['loopback', '*.example.com'] } });
    // A list of names goes on as given (the service checks each rule and refuses to start with a bad one);
    // anything but a non-empty list of strings is dropped, so the service keeps its safe default.
    expect(parseParentMessage({ ...start, chat: { toolServerHosts: ['http://x'] } })).toEqual({ ...start, chat: { toolServerHosts: ['http://x'] } });
    for (const bad of [[], 'loopback', [1]]) expect(parseParentMessage({ ...start, chat: { toolServerHosts: bad } })).toEqual(start);
  });
});
