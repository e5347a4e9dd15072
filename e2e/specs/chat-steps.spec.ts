import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { setStepsText } from '../fixtures/steps-editor';
import { openAssembly, startTransfer } from '../fixtures/transfers';

const chatSteps = (extra: Record<string, unknown> = {}) => ({
  ':original': { robot: '/upload/handle' },
  summary: { robot: '/ai/chat', use: ':original', messages: 'Summarize this file in one line.', ...extra },
});

async function uploadNotesWithChat(ui: Page, workDir: string, steps: unknown): Promise<void> {
  const notes = path.join(workDir, 'notes.txt');
  await writeFile(notes, 'Shot list for Saturday: harbour at dawn, market at noon.\n');
  await ui.getByLabel('Choose files').setInputFiles(notes);
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
  await ui.getByText('Custom steps (JSON)').click();
  await setStepsText(ui, JSON.stringify(steps, null, 2));
  await expect(ui.getByTestId('steps-error')).toHaveCount(0);
  await startTransfer(ui, 'Start · 1 file');
  await openAssembly(ui);
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

  test('a chat step answers about an uploaded text file and its JSON result shows in the run view', async ({ ui, workDir }) => {
    await uploadNotesWithChat(ui, workDir, chatSteps());
    await expect(ui.getByTestId('run-state')).toHaveText('Completed');
    const card = ui.getByTestId('result-card');
    await expect(card).toHaveCount(1);
    await expect(card).toHaveAttribute('aria-label', 'notes.json');
    await expect(card).toContainText('application/json');
    await expect(ui.getByTestId('upload-outcome').filter({ hasText: 'notes.txt' })).toContainText('1 result');
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
  await expect(ui.getByTestId('run-state')).toHaveText('Failed');
  const panel = ui.getByTestId('run-error');
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
