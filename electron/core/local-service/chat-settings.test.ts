import { describe, expect, it } from 'vitest';
import { modelsUrl, parseModelList } from './chat-models';
import { effectiveChat, parseSavedChat } from './chat-settings';
import { initialState, transition } from './supervisor-state';

describe('chat settings, pure parts', () => {
  it('finds the model list beside the chat endpoint, whichever form the user typed', () => {
    expect(modelsUrl('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1/models');
    expect(modelsUrl(' http://127.0.0.1:11434/v1/ ')).toBe('http://127.0.0.1:11434/v1/models');
    expect(modelsUrl('https://llm.example.com/openai/v1/chat/completions')).toBe('https://llm.example.com/openai/v1/models');
  });

  it('reads an OpenAI-compatible model list, sorted and without duplicates, and refuses anything else', () => {
    expect(parseModelList({ object: 'list', data: [{ id: 'qwen' }, { id: 'llama' }, { id: 'qwen' }] })).toEqual(['llama', 'qwen']);
    expect(parseModelList({ data: [] })).toEqual([]);
    expect(parseModelList({ models: [{ name: 'llama' }] })).toBeNull(); // Ollama's own /api/tags shape
    expect(parseModelList({ data: [{ name: 'x' }] })).toBeNull();
    expect(parseModelList('<html>')).toBeNull();
  });

  it('starts the service with the saved settings, the key only with an endpoint, and the environment as a whole when it sets any', () => {
    const saved = { endpoint: 'http://127.0.0.1:11434/v1', model: 'qwen', timeoutMs: 5_000, toolServerHosts: [] };
    const { toolServerHosts: _none, ...savedOptions } = saved;
    expect(effectiveChat(saved, 'sk-1', undefined)).toEqual({ ...savedOptions, apiKey: 'sk-1' });
    expect(effectiveChat({ endpoint: '', model: 'qwen', timeoutMs: null, toolServerHosts: [] }, 'sk-1', undefined)).toEqual({ model: 'qwen' });
    expect(effectiveChat({ endpoint: '', model: '', timeoutMs: null, toolServerHosts: [] }, null, undefined)).toBeUndefined();
    const env = { endpoint: 'http://10.0.0.2:8080/v1' };
    expect(effectiveChat(saved, 'sk-1', env)).toEqual(env);
    // ASSEMBLYLINE_OWN_DOMAINS alone is not a chat model: the saved one still applies, with those domains.
    expect(effectiveChat(saved, null, { ownDomains: ['example.com'] })).toEqual({ ...savedOptions, ownDomains: ['example.com'] });
    // So is the tool-server allow-list: it always reaches the service, with saved settings too.
    expect(effectiveChat(saved, null, { toolServerHosts: ['loopback'] })).toEqual({ ...savedOptions, toolServerHosts: ['loopback'] });
    // The saved list, unless ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS sets one; empty = the service's default.
    const withHosts = { ...saved, toolServerHosts: ['tools.example.com'] };
    expect(effectiveChat(withHosts, null, undefined)).toEqual({ ...savedOptions, toolServerHosts: ['tools.example.com'] });
    expect(effectiveChat({ ...withHosts, endpoint: '', model: '', timeoutMs: null }, null, undefined)).toEqual({ toolServerHosts: ['tools.example.com'] });
    expect(effectiveChat(withHosts, null, { toolServerHosts: ['*'] })).toEqual({ ...savedOptions, toolServerHosts: ['*'] });
  });

  it('reads a damaged settings file as far as it is sound', () => {
    const none = { endpoint: '', model: '', timeoutMs: null, toolServerHosts: [] };
    expect(parseSavedChat(null)).toEqual(none);
    expect(parseSavedChat('{not json')).toEqual(none);
    expect(parseSavedChat(JSON.stringify({ endpoint: 'ftp://x', model: 'm', timeoutMs: 1.5 }))).toEqual({ ...none, model: 'm' });
    // A hand-edited list with a bad rule is the default (the safe side), not a start the service refuses.
    expect(parseSavedChat(JSON.stringify({ toolServerHosts: ['loopback', 'http://x'] }))).toEqual(none);
    expect(parseSavedChat(JSON.stringify({ toolServerHosts: ['tools.example.com'] }))).toEqual({ ...none, toolServerHosts: ['tools.example.com'] });
  });

  it('replaces a running service child at once (no crash backoff) when new settings need one', () => {
    const policy = { maxHealthFailures: 2, backoffBaseMs: 100, backoffMaxMs: 1_000 };
    const running = transition(initialState(0), { type: 'ready', url: 'http://127.0.0.1:4000', port: 4000 }, policy).state;
    const replacing = transition(running, { type: 'replace', reason: 'Restarting with new settings.' }, policy);
    expect(replacing.state).toMatchObject({ phase: 'restarting', message: 'Restarting with new settings.', retryInMs: 0 });
    expect(replacing.effects).toEqual([{ type: 'replace-child' }]);
    expect(transition(replacing.state, { type: 'restart-due' }, policy).effects).toEqual([{ type: 'spawn', port: 4000 }]);
    expect(transition({ ...running, phase: 'stopped' }, { type: 'replace', reason: 'x' }, policy).effects).toEqual([]);
  });
});
