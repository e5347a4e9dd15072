import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import type { RunningApp } from '../fixtures/app';
import { localSdk as sdkFor } from '../fixtures/vendor-sdk';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';

/**
 * The Assets browser as a user meets it: Assemblies with a `/transloadit/store` step (run by the vendor's
 * Node SDK against the app's local service, like any other client) leave stored assets; the browser finds
 * them by folder, shows an older version with its own size and md5 and downloads its old bytes, moves a
 * folder of them (dialog) and one asset (drag onto the breadcrumb), deletes some, and runs an Assembly on
 * the rest ("Use as input"), which completes.
 */

const browserHost = (running: RunningApp) => {
  if (running.kind !== 'browser-host') throw new Error('assets.spec.ts reads the local key and the downloads folder through the browser host');
  return running;
};


const storeTo = (assetPath: string) => ({
  ':original': { robot: '/upload/handle' },
  stored: { robot: '/transloadit/store', use: ':original', path: assetPath, conflict_strategy: 'overwrite' },
});

async function photo(dir: string, name: string, colour: string): Promise<string> {
  const file = path.join(dir, name);
  await sharp({ create: { width: 160, height: 100, channels: 3, background: colour } }).jpeg().toFile(file);
  return file;
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

const assetRows = (ui: Page): Locator => ui.getByTestId('asset-row');
const folderRow = (ui: Page, folder: string): Locator => ui.locator(`[data-testid="asset-folder"][data-folder="${folder}"]`);
const assetRow = (ui: Page, name: string): Locator => assetRows(ui).filter({ hasText: name });
const crumb = (ui: Page, label: string): Locator => ui.getByTestId('asset-breadcrumb').getByRole('button', { name: label, exact: true });

test('stored assets are found by folder, an older version opens with its own bytes, a folder moves, some are deleted and the rest run an Assembly', async ({ ui, running, workDir }) => {
  const host = browserHost(running);
  const sdk = await sdkFor(running);
  const photos = [await photo(workDir, 'harbour.jpg', '#2a7d5f'), await photo(workDir, 'lighthouse.jpg', '#7d2a5f'), await photo(workDir, 'dunes.jpg', '#c9a14a')];
  const trip = await sdk.createAssembly({ files: { a: photos[0]!, b: photos[1]!, c: photos[2]! }, params: { steps: storeTo('trips/2026/${file.name}') }, waitForCompletion: true });
  expect(trip.ok).toBe('ASSEMBLY_COMPLETED');
  // The same path twice with different bytes: the second Assembly makes a new version.
  const oldNotes = Buffer.from('Day 1: harbour and lighthouse.\n');
  const newNotes = Buffer.from('Day 1: harbour and lighthouse.\nDay 2: the dunes, at low tide.\n');
  for (const [i, bytes] of [oldNotes, newNotes].entries()) {
    const file = path.join(workDir, `notes-${i}.txt`);
    await writeFile(file, bytes);
    const stored = await sdk.createAssembly({ files: { notes: file }, params: { steps: storeTo('trips/notes.txt') }, waitForCompletion: true });
    expect(stored.ok).toBe('ASSEMBLY_COMPLETED');
  }

  // The root: one folder, from the paths.
  await ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Assets' }).click();
  await expect(folderRow(ui, 'trips')).toBeVisible();
  await folderRow(ui, 'trips').getByRole('button', { name: 'trips' }).click();
  await expect(ui).toHaveURL(/#\/assets\?folder=trips$/);
  await expect(folderRow(ui, 'trips/2026')).toBeVisible();
  await expect(assetRows(ui)).toHaveCount(1);
  await expect(crumb(ui, 'trips')).toHaveAttribute('aria-current', 'location');

  // The notes: two versions; the older one shows its own size and md5, and downloads its own bytes.
  await assetRow(ui, 'notes.txt').click();
  const details = ui.getByTestId('asset-details');
  await expect(details.getByRole('heading', { name: 'notes.txt' })).toBeVisible();
  await expect(details.getByTestId('asset-version')).toHaveCount(2);
  await expect(details.locator('[data-fact="MD5"] dd')).toHaveText(md5(newNotes));
  await details.getByTestId('asset-version').nth(1).click();
  await expect(details.getByTestId('asset-older-version')).toBeVisible();
  await expect(details.locator('[data-fact="Size"] dd')).toHaveText(`${oldNotes.length} B (${oldNotes.length} bytes)`);
  await expect(details.locator('[data-fact="MD5"] dd')).toHaveText(md5(oldNotes));
  await details.getByRole('button', { name: 'Download this version' }).click();
  const saved = (await details.getByTestId('asset-download-path').locator('.mono').textContent()) ?? '';
  expect(path.dirname(saved)).toBe(host.downloadsDir);
  expect(await readFile(saved)).toEqual(oldNotes);
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath('assets-details-light.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('assets-details-dark.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });
  await details.getByRole('button', { name: 'Close' }).click();
  // Clicking the notes selected them too: start the next selection afresh.
  await ui.getByRole('button', { name: 'Clear selection' }).click();

  // Move the 2026 folder (three photos) into archive/ with the dialog.
  await folderRow(ui, 'trips/2026').getByRole('checkbox').check();
  await expect(ui.getByTestId('asset-selection-count')).toHaveText('1 folder selected');
  await ui.getByRole('button', { name: 'Move to…' }).click();
  const move = ui.getByRole('dialog', { name: 'Move 1 folder' });
  await move.getByLabel('Destination folder').fill('archive');
  await move.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(ui.getByRole('status').filter({ hasText: 'Moved 3 assets' })).toBeVisible();
  await expect(folderRow(ui, 'trips/2026')).toHaveCount(0);

  // Drag the notes onto the breadcrumb's root: it moves to the top level.
  await assetRow(ui, 'notes.txt').dragTo(crumb(ui, 'All assets'));
  await expect(ui.getByRole('status').filter({ hasText: 'Moved 1 asset' })).toBeVisible();
  await crumb(ui, 'All assets').click();
  await expect(folderRow(ui, 'archive')).toBeVisible();
  await expect(assetRow(ui, 'notes.txt')).toBeVisible();
  // trips/ is empty now, so it is gone from the listing.
  await expect(folderRow(ui, 'trips')).toHaveCount(0);

  // archive/2026 holds the photos, with previews; delete one (the confirmation states the count).
  await folderRow(ui, 'archive').getByRole('button', { name: 'archive' }).click();
  await folderRow(ui, 'archive/2026').getByRole('button', { name: '2026' }).click();
  await expect(assetRows(ui)).toHaveCount(3);
  await expect(assetRows(ui).first().getByTestId('asset-thumb')).toHaveAttribute('data-preview', 'ready');
  await ui.screenshot({ path: screenshotPath('assets-folder-light.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('assets-folder-dark.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });
  await assetRow(ui, 'dunes.jpg').getByRole('checkbox').check();
  await ui.getByRole('button', { name: 'Delete…' }).click();
  const confirm = ui.getByRole('dialog', { name: 'Delete 1 asset?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(assetRows(ui)).toHaveCount(2);
  await expect(assetRow(ui, 'dunes.jpg')).toHaveCount(0);

  // The rest (Ctrl+A on the list) go through an Assembly: it imports them and resizes both.
  await ui.getByRole('grid').focus();
  await ui.keyboard.press('ControlOrMeta+a');
  await expect(ui.getByTestId('asset-selection-count')).toHaveText('2 assets selected');
  await ui.getByRole('button', { name: 'Use as input…' }).click();
  const use = ui.getByRole('dialog', { name: 'Run an Assembly on 2 assets' });
  await use.getByLabel('Steps (JSON)').check();
  await use.getByRole('button', { name: 'Start Assembly' }).click();
  await expect(ui).toHaveURL(/#\/assemblies\/[0-9a-f]{32}$/);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 30_000 });
  await expect(ui.getByTestId('result-card')).toHaveCount(2);
});

test('the keyboard drives the browser: Enter opens a folder, Backspace goes up, F2 renames, Delete asks first', async ({ ui, running, workDir }) => {
  const sdk = await sdkFor(running);
  const file = await photo(workDir, 'pier.jpg', '#224488');
  const stored = await sdk.createAssembly({ files: { a: file }, params: { steps: storeTo('coast/${file.name}') }, waitForCompletion: true });
  expect(stored.ok).toBe('ASSEMBLY_COMPLETED');

  await ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Assets' }).click();
  const grid = ui.getByRole('grid');
  await expect(folderRow(ui, 'coast')).toBeVisible();
  await grid.focus();
  await ui.keyboard.press('ArrowDown');
  await ui.keyboard.press('Enter');
  await expect(ui).toHaveURL(/#\/assets\?folder=coast$/);
  await expect(assetRow(ui, 'pier.jpg')).toBeVisible();
  await expect(ui.getByRole('grid')).toBeFocused();
  await ui.keyboard.press('ArrowDown');
  await ui.keyboard.press('F2');
  const name = ui.getByRole('textbox', { name: 'New name for pier.jpg' });
  await expect(name).toBeFocused();
  await name.fill('pier at dusk.jpg');
  await name.press('Enter');
  await expect(assetRow(ui, 'pier at dusk.jpg')).toBeVisible();
  await ui.getByRole('grid').focus();
  await ui.keyboard.press('ArrowDown');
  await ui.keyboard.press('Delete');
  const confirm = ui.getByRole('dialog', { name: 'Delete 1 asset?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(assetRow(ui, 'pier at dusk.jpg')).toBeVisible();
  await ui.getByRole('grid').focus();
  await ui.keyboard.press('Backspace');
  await expect(ui).toHaveURL(/#\/assets$/);
  await expect(folderRow(ui, 'coast')).toBeVisible();
});
