import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { openAssembly, startTransfer } from '../fixtures/transfers';

/**
 * The Upload view's Options end to end: a notify URL (a loopback receiver this test runs), max size, max
 * files and a field; an over-limit file is flagged before a byte is sent; the upload's Assemblies carry
 * the options in their params (the detail shows them) and notify the receiver. Then the Templates list
 * sorted by name, descending, kept in the URL across a reload.
 */

/** Records the Assembly ids of the notifications it receives. */
async function receiver(): Promise<{ server: Server; url: string; ids: string[] }> {
  const ids: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const status = new URLSearchParams(body).get('transloadit');
      if (status) ids.push((JSON.parse(status) as { assembly_id: string }).assembly_id);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, ids };
}

/** The page's bridge, as far as this spec calls it. */
interface Bridge {
  invoke(channel: string, request: unknown): Promise<{ ok: boolean; value?: unknown }>;
}

const hashOf = (ui: import('@playwright/test').Page) => ui.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash);

test('notify URL, limits and a field from the Upload options reach the Assembly; an over-limit file is flagged first', async ({ ui, workDir }) => {
  const hook = await receiver();
  try {
    const dir = path.join(workDir, 'trip');
    await mkdir(dir);
    for (const [name, color] of [['a.jpg', '#c04030'], ['b.jpg', '#30a040'], ['c.jpg', '#3040c0']] as const) {
      await sharp({ create: { width: 64, height: 48, channels: 3, background: color } }).jpeg().toFile(path.join(dir, name));
    }
    await writeFile(path.join(dir, 'huge.bin'), Buffer.alloc(300_000, 7));

    await ui.getByLabel('Choose folder').setInputFiles(dir);
    await expect(ui.getByTestId('file-row')).toHaveCount(4);
    await ui.getByText('Just store the originals').click();

    // Closed by default; each option is checked at its field and holds Start until it is fixed.
    const toggle = ui.getByRole('button', { name: /^Options/ });
    await expect(ui.getByTestId('options-summary')).toHaveText('None set');
    await toggle.click();
    await ui.getByRole('textbox', { name: 'Notify URL' }).fill(hook.url);
    const maxSize = ui.getByRole('textbox', { name: 'Max size per Assembly' });
    await maxSize.fill('lots');
    await expect(ui.getByText('Give a size such as 500 MB, 2 GiB or 1048576 (bytes).')).toBeVisible();
    await expect(ui.getByRole('button', { name: /^Start/ })).toBeDisabled();
    await expect(ui.locator('#start-reason')).toHaveText('Fix the max size in Options to start.');
    await maxSize.fill('100 KB');
    await expect(ui.getByText('100,000 bytes (max_size)')).toBeVisible();
    await ui.getByRole('textbox', { name: 'Max files per Assembly' }).fill('2');
    await ui.getByRole('button', { name: 'Add field' }).click();
    await ui.getByRole('textbox', { name: 'Field 1 name' }).fill('album');
    await ui.getByRole('textbox', { name: 'Field 1 value' }).fill('Trip 2026');

    // The file over max_size is flagged before anything is sent, with the code the service would stop on.
    const sizeWarning = ui.getByTestId('field-warning').filter({ hasText: 'MAX_SIZE_EXCEEDED' });
    await expect(sizeWarning).toContainText("larger than the Upload options' max_size of 100 KB (e.g. trip/huge.bin, 300 KB)");
    await expect(ui.getByTestId('field-warning').filter({ hasText: 'MAX_NUMBER_OF_FILES_EXCEEDED' })).toContainText("The Upload options' max_number_of_files allows 2 files per Assembly");
    await ui.getByTestId('upload-options').scrollIntoViewIfNeeded();
    await ui.screenshot({ path: screenshotPath('upload-options.png') });
    await ui.emulateMedia({ colorScheme: 'dark' });
    await ui.screenshot({ path: screenshotPath('upload-options-dark.png') });
    await ui.emulateMedia({ colorScheme: 'light' });
    await ui.getByRole('button', { name: 'Remove trip/huge.bin' }).click();
    await expect(ui.getByTestId('file-row')).toHaveCount(3);
    await expect(sizeWarning).toHaveCount(0);

    // Closed, it says what is set in one line.
    await toggle.click();
    await expect(ui.getByTestId('options-summary')).toHaveText('Notify 127.0.0.1:' + new URL(hook.url).port + ' · max 100 KB · max 2 files · 1 field');
    await ui.getByTestId('upload-options').screenshot({ path: screenshotPath('upload-options-closed.png') });

    // Three files, at most two per Assembly: two Assemblies, each with the options in its params.
    await startTransfer(ui, 'Start · 3 files');
    await openAssembly(ui);
    await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 30_000 });
    const assemblyId = (await ui.getByTestId('assembly-facts').textContent())?.match(/[0-9a-f]{32}/)?.[0];
    expect(assemblyId).toBeTruthy();
    await ui.evaluate((hash) => void ((globalThis as unknown as { location: { hash: string } }).location.hash = hash), `#/assemblies/${assemblyId}`);
    await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
    const facts = ui.getByTestId('assembly-params');
    await expect(facts).toContainText('Max size (max_size)100 KB · 100,000 bytes');
    await expect(facts).toContainText('Max files (max_number_of_files)2');
    await expect(ui.getByTestId('assembly-fields')).toContainText('albumTrip 2026');
    await expect(ui.getByTestId('assembly-facts')).toContainText(hook.url);
    await expect.poll(() => hook.ids.includes(assemblyId!), { timeout: 20_000 }).toBe(true);
    await facts.scrollIntoViewIfNeeded();
    await ui.screenshot({ path: screenshotPath('upload-options-assembly.png') });
  } finally {
    hook.server.close();
  }
});

test('the Templates list sorted by name, descending, stays so in the URL across a reload', async ({ ui }) => {
  await ui.evaluate(async () => {
    const bridge = (globalThis as unknown as { assemblyline: Bridge }).assemblyline;
    const content = { steps: { ':original': { robot: '/upload/handle' } } };
    for (const name of ['Bravo', 'Alpha', 'Charlie']) await bridge.invoke('templates:create', { name, content });
  });
  await ui.getByRole('button', { name: 'Templates' }).click();
  const names = ui.getByRole('list', { name: 'Template list' }).locator('.template-name');
  // Newest first by default (the service's created desc).
  await expect(names).toHaveText(['Charlie', 'Alpha', 'Bravo']);
  await ui.getByRole('combobox', { name: 'Sort by' }).selectOption('name');
  await expect(names).toHaveText(['Charlie', 'Bravo', 'Alpha']);
  await ui.getByRole('combobox', { name: 'Order' }).selectOption('asc');
  await expect(names).toHaveText(['Alpha', 'Bravo', 'Charlie']);
  await ui.getByRole('combobox', { name: 'Order' }).selectOption('desc');
  await expect(names).toHaveText(['Charlie', 'Bravo', 'Alpha']);
  await expect.poll(() => hashOf(ui)).toBe('#/templates?sort=name');
  await ui.getByRole('combobox', { name: 'Built-in Templates' }).selectOption('latest');
  await expect.poll(() => hashOf(ui)).toBe('#/templates?sort=name&builtins=latest');
  await expect(ui.locator('.template-row', { hasText: 'built-in' }).first()).toBeVisible();
  await ui.getByRole('combobox', { name: 'Built-in Templates' }).selectOption('none');
  await ui.reload();
  await expect(names).toHaveText(['Charlie', 'Bravo', 'Alpha']);
  await expect(ui.getByRole('combobox', { name: 'Sort by' })).toHaveValue('name');
  await ui.screenshot({ path: screenshotPath('templates-sorted.png') });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('templates-sorted-dark.png') });
});
