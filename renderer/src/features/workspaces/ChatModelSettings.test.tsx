import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatSettingsView } from '../../../../shared/ipc/chat-settings-models';
import { err, ok } from '../../../../shared/result';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { ChatModelSettings } from './ChatModelSettings';
import { chatFormToInput } from './chat-model-form';

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('Chat model settings of the local service', () => {
  afterEach(cleanup);

  it('checks the fields with the shared rules, tests the server, picks a listed model and saves with the key write-only', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<ChatModelSettings />, bridge);
    await waitFor(() => expect(field('Endpoint URL')).toBeTruthy());
    expect(button('Save').disabled).toBe(true);
    type('Endpoint URL', '127.0.0.1:11434');
    expect(screen.getByText('An http(s) URL such as http://127.0.0.1:11434/v1')).toBeTruthy();
    expect(field('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    expect(button('Test chat server').disabled).toBe(true);
    type('Endpoint URL', 'http://127.0.0.1:11434/v1');
    type('Timeout (ms)', '1.5');
    expect(screen.getByText('A whole number of milliseconds, at least 1')).toBeTruthy();
    expect(button('Save').disabled).toBe(true);
    type('Timeout (ms)', '60000');
    type('API key', 'sk-typed');

    fireEvent.click(button('Test chat server'));
    const list = await screen.findByRole('list', { name: 'Models on the server' });
    expect(screen.getByText('Connected: 2 models. Pick one:')).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'qwen2.5:0.5b' }));
    expect(field('Model').value).toBe('qwen2.5:0.5b');
    expect(bridge.calls.find((c) => c.channel === 'service:chatModels')?.request).toEqual({ endpoint: 'http://127.0.0.1:11434/v1', apiKey: 'sk-typed' });

    fireEvent.click(button('Save'));
    await waitFor(() => expect(field('API key').placeholder).toBe('Stored — leave empty to keep it'));
    expect(field('API key').value).toBe('');
    expect(bridge.calls.find((c) => c.channel === 'service:saveChatSettings')?.request).toEqual({
      endpoint: 'http://127.0.0.1:11434/v1',
      model: 'qwen2.5:0.5b',
      timeoutMs: 60_000,
      toolServerHosts: [],
      apiKey: 'sk-typed',
    });
    expect(screen.getByText(/Saving restarts the local service/)).toBeTruthy();
    // Another endpoint: the stored key is not kept for it (core drops it), and the field says so.
    type('Endpoint URL', 'http://10.0.0.9:8080/v1');
    expect(field('API key').placeholder).toBe('Type it again for this endpoint (the stored key is not sent elsewhere)');
    type('Endpoint URL', 'http://127.0.0.1:11434/v1/');
    expect(field('API key').placeholder).toBe('Stored — leave empty to keep it');
    // Remove key: marked, then saved.
    fireEvent.click(button('Remove key'));
    expect(field('API key').placeholder).toBe('Removed when you save');
    fireEvent.click(button('Save'));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove key' })).toBeNull());
  });

  it('shows the test error with its code, and the settings read-only when the environment decides', async () => {
    const view: ChatSettingsView = {
      endpoint: 'http://127.0.0.1:8080/v1',
      model: '',
      timeoutMs: null,
      hasApiKey: false,
      toolServerHosts: [],
      toolServerHostsFromEnvironment: ['loopback', 'tools.example.com'],
      environment: { endpoint: 'http://10.0.0.5:11434/v1', model: 'llama3', timeoutMs: null, hasApiKey: true },
      pendingRestart: { executing: 2 },
    };
    const bridge = createFakeBridge({
      'service:chatSettings': () => ok(view),
      'service:chatModels': () => err('AI_CHAT_ENDPOINT_ERROR', 'http://127.0.0.1:8080/v1/models refused the request (HTTP 401): it needs an API key.', { httpCode: 401 }),
    });
    renderWithBridge(<ChatModelSettings />, bridge);
    const note = await screen.findByTestId('chat-env-note');
    expect(note.textContent).toContain('http://10.0.0.5:11434/v1');
    expect(note.textContent).toContain('llama3');
    expect(field('Endpoint URL').closest('fieldset')?.disabled).toBe(true);
    // ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS is shown where the list is set, and said to win.
    expect(note.textContent).toContain('loopback, tools.example.com');
    expect(field('Tool servers may be on').value).toBe('loopback, tools.example.com');
    expect(field('Tool servers may be on').disabled).toBe(true);
    expect(screen.getByText(/which wins over this setting/)).toBeTruthy();
    expect(screen.getByTestId('chat-restart-pending').textContent).toContain('the 2 executing Assemblies have finished');
    fireEvent.click(button('Test chat server'));
    const error = await screen.findByTestId('chat-test-error');
    // What runs is tested: the environment's endpoint (core uses its key), not the saved one.
    expect(bridge.calls.find((c) => c.channel === 'service:chatModels')?.request).toEqual({ endpoint: 'http://10.0.0.5:11434/v1' });
    expect(error.textContent).toContain('AI_CHAT_ENDPOINT_ERROR');
    expect(error.textContent).toContain('it needs an API key');
  });

  it('checks "Tool servers may be on" entry by entry before saving, and saves the list the service will match', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<ChatModelSettings />, bridge);
    await waitFor(() => expect(field('Tool servers may be on')).toBeTruthy());
    expect(screen.getByText(/Empty: loopback and the local service's own domains/)).toBeTruthy();
    type('Tool servers may be on', 'loopback, https://tools.example.com/mcp, *.*');
    const problem = 'is a URL, not a host: use tools.example.com; "*.*" may hold "*" only as a whole label at the start, as in *.example.com.';
    expect(screen.getByText(`"https://tools.example.com/mcp" ${problem}`)).toBeTruthy();
    expect(field('Tool servers may be on').getAttribute('aria-invalid')).toBe('true');
    expect(button('Save').disabled).toBe(true);
    type('Tool servers may be on', 'loopback, Tools.Example.com, *.example.org');
    expect(field('Tool servers may be on').getAttribute('aria-invalid')).toBe('false');
    fireEvent.click(button('Save'));
    await waitFor(() => expect(field('Tool servers may be on').value).toBe('loopback, tools.example.com, *.example.org'));
    expect(bridge.calls.find((c) => c.channel === 'service:saveChatSettings')?.request).toMatchObject({ toolServerHosts: ['loopback', 'tools.example.com', '*.example.org'] });
  });

  it('sends the key only when typed, and an empty timeout and host list as the defaults', () => {
    expect(chatFormToInput({ endpoint: ' http://h/v1 ', model: ' m ', timeout: '', toolServerHosts: ' ' }, '', false)).toEqual({ endpoint: 'http://h/v1', model: 'm', timeoutMs: null, toolServerHosts: [] });
    expect(chatFormToInput({ endpoint: '', model: '', timeout: '5', toolServerHosts: '*' }, 'k', true)).toEqual({ endpoint: '', model: '', timeoutMs: 5, toolServerHosts: ['*'], removeApiKey: true });
  });
});
