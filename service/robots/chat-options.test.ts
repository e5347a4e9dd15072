import { describe, expect, it } from 'vitest';
import { chatOptionsFrom } from './chat-options';

describe('chatOptionsFrom', () => {
  it('takes the flags, else the environment; the API key only from the environment', () => {
    const env = { ASSEMBLYLINE_CHAT_ENDPOINT: 'http://127.0.0.1:1/v1', ASSEMBLYLINE_CHAT_MODEL: 'm-env', ASSEMBLYLINE_CHAT_API_KEY: 'sk', ASSEMBLYLINE_OWN_DOMAINS: 'a.example, b.example' };
    expect(chatOptionsFrom({ 'chat-model': 'm-flag', 'chat-timeout-ms': '5000' }, env)).toEqual({
      endpoint: 'http://127.0.0.1:1/v1',
      model: 'm-flag',
      apiKey: 'sk',
      timeoutMs: 5000,
      ownDomains: ['a.example', 'b.example'],
    });
    expect(chatOptionsFrom({}, {})).toEqual({});
  });

  it('takes --tool-server-allow-hosts, else ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS; a bad or empty list names its source', () => {
    const env = { ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS: 'env.example.com' };
    expect(chatOptionsFrom({}, env)).toEqual({ toolServerHosts: ['env.example.com'] });
    expect(chatOptionsFrom({ 'tool-server-allow-hosts': 'loopback,*.Example.com' }, env)).toEqual({ toolServerHosts: ['loopback', '*.example.com'] });
    expect(() => chatOptionsFrom({ 'tool-server-allow-hosts': '' }, env)).toThrow('--tool-server-allow-hosts lists no host');
    expect(() => chatOptionsFrom({ 'tool-server-allow-hosts': 'loopback,192.168.1.5:3000' }, {})).toThrow(
      '--tool-server-allow-hosts has a bad entry: "192.168.1.5:3000" has a port: use 192.168.1.5 (any port is allowed)',
    );
    expect(() => chatOptionsFrom({}, { ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS: 'http://tools' })).toThrow('ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS has a bad entry: "http://tools" is a URL, not a host: use tools');
  });

  it('refuses a bad endpoint or timeout, naming the flag', () => {
    expect(() => chatOptionsFrom({ 'chat-endpoint': 'localhost:11434' }, {})).toThrow(/--chat-endpoint must be an http\(s\) URL/);
    expect(() => chatOptionsFrom({ 'chat-timeout-ms': 'soon' }, {})).toThrow(/--chat-timeout-ms/);
  });
});
