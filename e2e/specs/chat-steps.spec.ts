import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { useCustomSteps } from '../fixtures/steps-editor';
import { startAndOpenAssembly } from '../fixtures/transfers';

const chatSteps = (extra: Record<string, unknown> = {}) => ({
  ':original': { robot: '/upload/handle' },
  summary: { robot: '/ai/chat', use: ':original', messages: 'Summarize this file in one line.', ...extra },
});

async function uploadNotesWithChat(ui: Page, workDir: string, steps: unknown): Promise<void> {
  const notes = path.join(workDir, 'notes.txt');
  await writeFile(notes, 'Shot list for Saturday: harbour at dawn, market at noon.\n');
  await ui.getByLabel('Choose files').setInputFiles(notes);
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
  await useCustomSteps(ui, steps);
  await startAndOpenAssembly(ui, 'Start · 1 file');
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  let s = '';
  for await (const chunk of req) s += String(chunk);
  return s;
};

test.describe('with a model server configured', () => {
  /** What the loopback model server was asked. */
  const asked: { model: string; prompt: string }[] = [];
  test.use({
    // A real OpenAI-compatible server on loopback, started before the app so its URL is the app's setting.
    // eslint-disable-next-line no-empty-pattern
    chat: async ({}, use) => {
      const server = createServer((req, res) => {
        void readBody(req).then((raw) => {
          const body = JSON.parse(raw) as { model: string; messages: { role: string; content: string }[] };
          const prompt = body.messages.at(-1)?.content ?? '';
          asked.push({ model: body.model, prompt });
          const answer = { summary: prompt.includes('harbour') ? 'Harbour at dawn, market at noon.' : 'No file seen.' };
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(answer) } }] }));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      await use({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, model: 'tiny-local', timeoutMs: 10_000 });
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  });

  test('a chat step answers about an uploaded text file and its JSON result shows in the Assembly view', async ({ ui, workDir }) => {
    await uploadNotesWithChat(ui, workDir, chatSteps());
    await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
    const card = ui.getByTestId('result-card');
    await expect(card).toHaveCount(1);
    await expect(card).toHaveAttribute('aria-label', 'notes.json');
    await expect(card).toContainText('application/json');
    await expect(ui.getByTestId('file-row').filter({ hasText: 'notes.txt' })).toContainText('1 result');
    // The model was asked with the operator's model name, the prompt and the file's text.
    expect(asked).toHaveLength(1);
    expect(asked[0]!.model).toBe('tiny-local');
    expect(asked[0]!.prompt).toContain('Summarize this file in one line.');
    expect(asked[0]!.prompt).toContain('harbour at dawn');
    for (const scheme of ['light', 'dark'] as const) {
      await ui.emulateMedia({ colorScheme: scheme });
      await ui.screenshot({ path: screenshotPath(`chat-result-${scheme}.png`), animations: 'disabled' });
    }
  });
});

test('without a model server a chat step fails with AI_CHAT_NOT_CONFIGURED and says how to configure one', async ({ ui, workDir }) => {
  await uploadNotesWithChat(ui, workDir, chatSteps());
  await expect(ui.getByTestId('assembly-state')).toHaveText('Failed');
  const panel = ui.getByTestId('assembly-error');
  await expect(panel.locator('code', { hasText: 'AI_CHAT_NOT_CONFIGURED' })).toBeVisible();
  await expect(panel).toContainText('--chat-endpoint');
  await expect(panel).toContainText('summary');
});

test('the Template editor marks a bad tool server of a chat step at its line, with its code', async ({ ui }) => {
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await ui.getByTestId('template-name').fill('Chat with tools');
  const text = JSON.stringify({ steps: chatSteps({ mcp_servers: [{ type: 'http', url: 'ftp://tools.example.com/mcp', auth: 'service' }] }) }, null, 2);
  const editor = ui.getByTestId('template-editor').locator('.cm-content');
  await editor.click();
  await ui.keyboard.press('ControlOrMeta+a');
  await ui.keyboard.press('Delete');
  await ui.keyboard.insertText(text);
  // Marked at the entry's "url", the very line to fix.
  const line = text.split('\n').findIndex((l) => l.includes('"url"')) + 1;
  const check = ui.getByTestId('template-check');
  await expect(check).toContainText(`Line ${line}: Step "summary" (/ai/chat): mcp_servers[0].url must be an http(s) URL (got "ftp://tools.example.com/mcp")`);
  await expect(check).toContainText('MCP_SERVER_INVALID_URL');
  await expect(ui.getByRole('button', { name: 'Save Template' })).toBeDisabled();
  await ui.screenshot({ path: screenshotPath('chat-template-lint.png'), animations: 'disabled' });
});

test('a user points the local service at a model server from Workspaces: tests it, picks a model, saves, and a chat step uses it; the key stays in core', async ({ ui, workDir, pageTraffic }) => {
  const key = 'sk-e2e-5d1f0a9c';
  const asked: { model: string; authorization: string | undefined }[] = [];
  const server = createServer((req, res) => {
    const json = (status: number, body: unknown) => void res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${key}`) return json(401, { error: { message: 'Invalid API key' } });
    if (req.method === 'GET' && req.url === '/v1/models') return json(200, { object: 'list', data: [{ id: 'qwen2.5:0.5b' }, { id: 'gemma3:1b' }] });
    void readBody(req).then((raw) => {
      asked.push({ model: (JSON.parse(raw) as { model: string }).model, authorization: req.headers.authorization });
      json(200, { choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ summary: 'Harbour at dawn.' }) } }] });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  try {
    await ui.getByRole('button', { name: 'Workspaces' }).click();
    const section = ui.getByTestId('chat-model-settings');
    await section.getByLabel('Endpoint URL').fill('127.0.0.1:11434');
    await expect(section.getByText('An http(s) URL such as http://127.0.0.1:11434/v1')).toBeVisible();
    await section.getByLabel('Endpoint URL').fill(endpoint);
    await section.getByRole('button', { name: 'Test chat server' }).click();
    await expect(section.getByTestId('chat-test-error')).toContainText('it needs an API key');
    await section.getByLabel('API key').fill(key);
    await section.getByLabel('Timeout (ms)').fill('20000');
    await section.getByRole('button', { name: 'Test chat server' }).click();
    const models = section.getByRole('list', { name: 'Models on the server' });
    await expect(models.getByRole('button')).toHaveText(['gemma3:1b', 'qwen2.5:0.5b']);
    await models.getByRole('button', { name: 'qwen2.5:0.5b' }).click();
    await expect(section.getByLabel('Model', { exact: true })).toHaveValue('qwen2.5:0.5b');
    // The tool-server allow-list: each bad entry named at the field, Save waits until it is fixed.
    const hosts = section.getByLabel('Tool servers may be on');
    await hosts.fill('loopback, https://tools.example.com/mcp');
    await expect(section.getByText('"https://tools.example.com/mcp" is a URL, not a host: use tools.example.com.')).toBeVisible();
    await expect(hosts).toHaveAttribute('aria-invalid', 'true');
    await expect(section.getByRole('button', { name: 'Save' })).toBeDisabled();
    await section.screenshot({ path: screenshotPath('chat-model-hosts-error.png'), animations: 'disabled' });
    await hosts.fill('loopback, Tools.Example.com');
    for (const scheme of ['light', 'dark'] as const) {
      await ui.emulateMedia({ colorScheme: scheme });
      await section.screenshot({ path: screenshotPath(`chat-model-settings-${scheme}.png`), animations: 'disabled' });
    }
    await ui.emulateMedia({ colorScheme: 'light' });

    await section.getByRole('button', { name: 'Save' }).click();
    await expect(section.getByLabel('API key')).toHaveAttribute('placeholder', 'Stored — leave empty to keep it');
    await expect(section.getByLabel('API key')).toHaveValue('');
    await expect(section.getByRole('button', { name: 'Remove key' })).toBeVisible();

    // Saved across a reload of the page; the key went to core (in requests) and never came back.
    await ui.reload();
    await ui.getByRole('button', { name: 'Workspaces' }).click();
    await expect(section.getByLabel('Endpoint URL')).toHaveValue(endpoint);
    await expect(section.getByLabel('Model', { exact: true })).toHaveValue('qwen2.5:0.5b');
    await expect(section.getByLabel('Timeout (ms)')).toHaveValue('20000');
    await expect(section.getByLabel('Tool servers may be on')).toHaveValue('loopback, tools.example.com');
    expect(await ui.content()).not.toContain(key);
    expect(pageTraffic.filter((t) => t.includes(key) && !/^sent: .*"(service:chatModels|service:saveChatSettings)"/.test(t))).toEqual([]);

    // The restarted local service asks that server, with that model and key.
    await ui.getByRole('button', { name: 'Upload' }).click();
    await uploadNotesWithChat(ui, workDir, chatSteps());
    await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
    expect(asked).toEqual([{ model: 'qwen2.5:0.5b', authorization: `Bearer ${key}` }]);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
