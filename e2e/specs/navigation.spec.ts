import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { launchConnected, quitApp } from '../fixtures/relaunch';
import { openAssembly, startTransfer, transferList } from '../fixtures/transfers';
import { setStepsText, stepsText } from '../fixtures/steps-editor';

/**
 * Screens remember where the user was: the screen and the item are in the URL (reload, Back and Forward
 * land there), and the Upload view's draft — files, steps, Template and fields — is kept by core, across a
 * reload and a restart of the app.
 */

async function setTransferSettings(ui: Page, values: readonly (readonly [string, string])[]): Promise<void> {
  await ui.getByRole('button', { name: 'Settings' }).click();
  for (const [label, value] of values) {
    const field = ui.getByLabel(label);
    await field.fill(value);
    await field.press('Enter');
  }
  await ui.getByRole('button', { name: 'Close' }).click();
}

const hashOf = (ui: Page) => new URL(ui.url()).hash;

test('the screen and the run are in the URL: a reload mid-run lands on the run; Back and Forward retrace the way', async ({ ui, workDir }) => {
  test.setTimeout(120_000);
  // 6 MB at 1 MB/s by tus: still uploading when the page reloads.
  const clip = path.join(workDir, 'clip.bin');
  await writeFile(clip, randomBytes(6 * 1024 * 1024));

  await ui.getByRole('button', { name: /^Transfers/ }).click();
  await expect.poll(() => hashOf(ui)).toBe('#/transfers');
  await setTransferSettings(ui, [
    ['Bandwidth limit', '1'],
    ['Send files up to this size many per request', '0'],
  ]);
  await ui.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => hashOf(ui)).toBe('#/upload');
  await ui.getByLabel('Choose files').setInputFiles(clip);
  await expect(ui.getByLabel('Selection totals')).toHaveText(/^1 file · /);
  await ui.getByText('Just store the originals').click();
  await startTransfer(ui, 'Start · 1 file');
  await expect.poll(() => hashOf(ui)).toBe('#/transfers');
  await openAssembly(ui);
  // One view per Assembly: the batch's link opens #/assemblies/<id>.
  await expect.poll(() => hashOf(ui)).toMatch(/^#\/assemblies\/[0-9a-f]{32}$/);
  const runUrl = ui.url();
  await expect(ui.getByTestId('assembly-state')).toHaveText(/Uploading|Processing|Completed/);

  // Reload while it uploads: the same run, still going, and it finishes.
  await ui.reload();
  await expect(ui).toHaveURL(runUrl);
  await expect(ui.getByRole('button', { name: 'Activity' })).toHaveAttribute('aria-current', 'page');
  await expect(ui.getByTestId('assembly-state')).toHaveText(/Uploading|Processing|Completed/);
  await expect(ui.getByTestId('assembly-facts')).toContainText(new URL(runUrl).hash.slice('#/assemblies/'.length));
  await ui.screenshot({ path: screenshotPath('navigation-run-after-reload.png') });
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 60_000 });

  // Back: Transfers, then Upload (the Settings dialog added no entry). Forward: Transfers, the run.
  await ui.goBack();
  await expect(ui.getByRole('heading', { name: 'Transfers' })).toBeVisible();
  expect(hashOf(ui)).toBe('#/transfers');
  await ui.goBack();
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  expect(hashOf(ui)).toBe('#/upload');
  await ui.goForward();
  await expect(ui.getByRole('heading', { name: 'Transfers' })).toBeVisible();
  await ui.goForward();
  await expect(ui).toHaveURL(runUrl);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');

  // One batch of Transfers is in the URL too: a reload keeps the filter.
  await ui.getByTestId('files-in-transfers').getByRole('button', { name: 'Show its files in Transfers' }).click();
  await expect(ui.getByTestId('batch-filter')).toContainText(/^Batch: \S/);
  const batch = await ui.getByTestId('batch-filter').textContent();
  await expect.poll(() => hashOf(ui)).toMatch(/^#\/transfers\?batch=.+/);
  await ui.reload();
  await expect(ui.getByTestId('batch-filter')).toHaveText(batch ?? '');
  await expect(transferList(ui).getByTestId('transfer-row')).toHaveCount(1);

  // A run core does not know (its data wiped, a stale link): a clear "not found" and a way back.
  await ui.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/run/run-that-never-was';
  });
  const missing = ui.getByRole('alert').filter({ hasText: 'Could not load this Assembly' });
  await expect(missing).toBeVisible();
  await expect(missing.locator('code')).toHaveText('NOT_FOUND');
  await ui.screenshot({ path: screenshotPath('navigation-run-not-found.png') });
  await missing.getByRole('button', { name: 'Back to Activity' }).click();
  await expect(ui.getByRole('list', { name: 'Recent Assemblies' })).toBeVisible();
  expect(hashOf(ui)).toBe('#/activity');

  // A hash that names no screen is the Upload view (replaced, not a dead end).
  await ui.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/no-such-screen';
  });
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  await expect.poll(() => hashOf(ui)).toBe('#/upload');
});

interface Bridge {
  invoke(channel: string, request: object): Promise<{ ok: boolean; value?: unknown }>;
}
/** What core keeps of the steps choice (the page saves it a moment after the last change). */
const keptChoice = (ui: Page) =>
  ui.evaluate(async () => {
    const bridge = (globalThis as unknown as { assemblyline: Bridge }).assemblyline;
    return (await bridge.invoke('drafts:choice', {})).value as { presetId: string; customText: string; templateId: string | null; templateFields: Record<string, string> } | null;
  });

const CUSTOM = '{\n  ":original": { "robot": "/upload/handle" },\n  "kept": { "robot": "/file/filter", "use": ":original" }\n}';

test('the Upload draft — files, custom steps, Template and fields — survives a reload and a restart', async ({ browser, workDir }) => {
  test.setTimeout(180_000);
  const shoot = path.join(workDir, 'shoot');
  await mkdir(path.join(shoot, 'sub'), { recursive: true });
  for (const name of ['a.txt', 'b.txt', 'sub/c.txt']) await writeFile(path.join(shoot, name), `the bytes of ${name}`);
  await writeFile(path.join(workDir, 'notes.txt'), 'a loose file');
  const dataDir = path.join(workDir, 'app-data');
  const rows = (ui: Page) => ui.getByTestId('file-row');
  const expectDraft = async (ui: Page) => {
    await expect(ui.getByLabel('Selection totals')).toHaveText(/^3 files · /);
    for (const name of ['shoot/a.txt', 'shoot/sub/c.txt', 'notes.txt']) await expect(rows(ui).filter({ hasText: name })).toHaveCount(1);
    await expect(rows(ui).filter({ hasText: 'shoot/b.txt' })).toHaveCount(0);
  };

  const first = await launchConnected(browser, dataDir);
  let templateId = '';
  try {
    const ui = first.ui;
    await ui.getByLabel('Choose folder').setInputFiles(shoot);
    await expect(ui.getByLabel('Selection totals')).toHaveText(/^3 files · /);
    await ui.getByLabel('Choose files').setInputFiles(path.join(workDir, 'notes.txt'));
    await expect(ui.getByLabel('Selection totals')).toHaveText(/^4 files · /);
    await ui.getByRole('button', { name: 'Remove shoot/b.txt' }).click();
    await ui.getByRole('radio', { name: /Custom steps \(JSON\)/ }).check();
    await setStepsText(ui, CUSTOM);
    await expect.poll(async () => (await keptChoice(ui))?.customText).toBe(CUSTOM);

    // A reload: the same files, Custom chosen, the text as typed.
    await ui.reload();
    await expectDraft(ui);
    await expect(ui.getByRole('radio', { name: /Custom steps \(JSON\)/ })).toBeChecked();
    await expect.poll(() => stepsText(ui)).toBe(CUSTOM);

    // Then a Template with a field of the user's own.
    await ui.getByRole('radio', { name: /A Template/ }).check();
    const select = ui.getByTestId('template-select');
    await expect(select.locator('option')).not.toHaveCount(1);
    templateId = await select.locator('option').nth(1).getAttribute('value') ?? '';
    await select.selectOption(templateId);
    await ui.getByLabel('New field name').fill('title');
    await ui.getByRole('button', { name: 'Add field' }).click();
    await ui.getByLabel('Field title').fill('Summer shoot');
    await expect.poll(async () => (await keptChoice(ui))?.templateFields).toEqual({ title: 'Summer shoot' });
  } finally {
    await quitApp(first);
  }

  // A restart on the same data dir: core picks the roots again (the browser host's staged copies were
  // kept), and the page finds the Template and its field as they were.
  const second = await launchConnected(browser, dataDir);
  try {
    const ui = second.ui;
    await expectDraft(ui);
    await expect(ui.getByRole('radio', { name: /A Template/ })).toBeChecked();
    await expect(ui.getByTestId('template-select')).toHaveValue(templateId);
    await expect(ui.getByLabel('Field title')).toHaveValue('Summer shoot');
    await ui.screenshot({ path: screenshotPath('navigation-draft-after-restart.png') });
    // The custom text was kept beside the Template.
    await ui.getByRole('radio', { name: /Custom steps \(JSON\)/ }).check();
    await expect.poll(() => stepsText(ui)).toBe(CUSTOM);

    // The restored files are real: they upload.
    await ui.getByText('Just store the originals').click();
    await startTransfer(ui, 'Start · 3 files');
    await expect(ui.getByTestId('transfer-eta')).toHaveText('Done', { timeout: 60_000 });
    await expect(transferList(ui).getByTestId('batch-state').first()).toHaveText('Completed');
    await expect(ui.getByRole('button', { name: /^Done 3$/ })).toBeVisible();
  } finally {
    await quitApp(second);
  }
});

test('the selected Template is in the URL: a reload shows it again, and selecting adds no history entry', async ({ ui }) => {
  const created = await ui.evaluate(async () => {
    const bridge = (globalThis as unknown as { assemblyline: Bridge }).assemblyline;
    const content = { steps: { ':original': { robot: '/upload/handle' }, small: { robot: '/image/resize', use: ':original', width: 320, height: 240 } } };
    const made = [];
    for (const name of ['Wedding previews', 'Catalogue stills']) made.push((await bridge.invoke('templates:create', { name, content })).value as { id: string });
    return made.map((t) => t.id);
  });
  await ui.getByRole('button', { name: 'Activity' }).click();
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.locator('.template-row', { hasText: 'Wedding previews' }).click();
  await ui.locator('.template-row', { hasText: 'Catalogue stills' }).click();
  await expect.poll(() => hashOf(ui)).toBe(`#/templates/${created[1] ?? ''}`);
  await expect(ui.getByTestId('template-detail')).toContainText('Catalogue stills');

  await ui.reload();
  await expect(ui.getByTestId('template-detail')).toContainText('Catalogue stills');
  await expect(ui.getByRole('button', { name: 'Templates' })).toHaveAttribute('aria-current', 'page');

  // Back leaves the screen (Activity), not the previous selection.
  await ui.goBack();
  await expect(ui.getByRole('list', { name: 'Recent Assemblies' }).or(ui.getByText('No Assemblies yet'))).toBeVisible();
  expect(hashOf(ui)).toBe('#/activity');
});
