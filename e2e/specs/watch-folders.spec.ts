import { access, mkdir, open, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';
import { axeOn, showTheme, WCAG_TAGS } from '../fixtures/axe';
import { screenshotPath } from '../fixtures/paths';
import { launchConnected, quitApp } from '../fixtures/relaunch';

/**
 * Watch folders as a user meets them: a watch added in the UI on a real folder; files copied in — one
 * written slowly in three parts, with pauses shorter than the settle time — are processed once each, their
 * results land in the output folder; after a restart nothing is processed again; a changed file is. A watch
 * edited to another output folder sends its next file there and does not process the earlier one again; set
 * to keep both, a changed file's new result lands beside the earlier one.
 */

const jpeg = (width: number, height: number, colour: string) => sharp({ create: { width, height, channels: 3, background: colour } }).jpeg({ quality: 90 }).toBuffer();
const sizeOf = async (file: string) => {
  const meta = await sharp(file).metadata();
  return `${meta.width}x${meta.height}`;
};
const card = (ui: Page) => ui.getByTestId('watch-card');
const cardSummary = async (ui: Page) => {
  const counts = await card(ui).getByTestId('watch-counts').textContent();
  const errors = await card(ui).getByRole('list', { name: 'Latest errors' }).allTextContents();
  return [counts, ...errors].join(' | ');
};

test('a watch folder processes files copied into it (one slowly, in parts), skips them after a restart, reprocesses a changed one', async ({ browser, workDir }) => {
  test.setTimeout(150_000);
  const inbox = path.join(workDir, 'inbox');
  const output = path.join(workDir, 'results');
  const dataDir = path.join(workDir, 'app-data');
  await mkdir(inbox, { recursive: true });

  const first = await launchConnected(browser, dataDir);
  try {
    const ui = first.ui;
    await ui.getByRole('button', { name: 'Watch folders', exact: true }).click();
    await expect(ui.getByText('No watch folders')).toBeVisible();
    await ui.getByRole('button', { name: 'Add watch folder' }).click();
    const dialog = ui.getByRole('dialog', { name: 'Add a watch folder' });
    await dialog.getByLabel('Folder to watch').fill(inbox);
    await dialog.getByLabel('Output folder').fill(output);
    await expect(dialog.getByLabel('Process each file with')).toHaveValue('preset:resize-1024');
    await dialog.getByLabel('Wait until a file is unchanged for (seconds)').fill('1');
    await dialog.screenshot({ path: screenshotPath('watch-folders-add.png') });
    await dialog.getByRole('button', { name: 'Start watching' }).click();
    await expect(card(ui).getByTestId('watch-state')).toHaveText('Watching');

    // One copied at once, one written in three parts 300 ms apart (settle: 1 s), as a slow copy would.
    await writeFile(path.join(inbox, 'beach.jpg'), await jpeg(2048, 1536, '#2a7fbf'));
    const slow = await jpeg(1600, 1200, '#c0603a');
    const handle = await open(path.join(inbox, 'city.jpg'), 'w');
    const third = Math.ceil(slow.length / 3);
    for (let i = 0; i < 3; i++) {
      await handle.write(slow.subarray(i * third, (i + 1) * third));
      if (i < 2) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await handle.close();

    // Polled with the card's latest errors, so a failure says why the file failed.
    await expect.poll(() => cardSummary(ui), { timeout: 60_000 }).toMatch(/^2 done · 0 failed · 0 queued · 0 skipped/);
    // The results are real images, fitted inside 1024 px, under <output>/<step>/<relative path>.
    expect(await sizeOf(path.join(output, 'resized', 'beach.jpg'))).toBe('1024x768');
    expect(await sizeOf(path.join(output, 'resized', 'city.jpg'))).toBe('1024x768');
    await card(ui).getByRole('button', { name: 'Show files' }).click();
    await expect(ui.getByTestId('watch-item')).toHaveCount(2);
    await expect(ui.getByTestId('watch-item').filter({ hasText: 'city.jpg' })).toContainText('resized/city.jpg');
    await ui.screenshot({ path: screenshotPath('watch-folders.png') });
    // Each file went through the transfer queue (one Assembly each).
    await ui.getByRole('button', { name: /^Transfers/ }).click();
    await expect(ui.getByRole('button', { name: /^Done 2$/ })).toBeVisible();
  } finally {
    await quitApp(first);
  }
  const before = (await stat(path.join(output, 'resized', 'city.jpg'))).mtimeMs;

  // Next start: the watch resumes, catches up, and passes over the two unchanged files.
  const second = await launchConnected(browser, dataDir);
  try {
    const ui = second.ui;
    await ui.getByRole('button', { name: 'Watch folders', exact: true }).click();
    await expect(card(ui).getByTestId('watch-state')).toHaveText('Watching');
    await expect(card(ui).getByTestId('watch-counts')).toHaveText(/^2 done · 0 failed · 0 queued · 2 skipped/);
    // The screen passes axe (WCAG 2.1 AA, serious and critical) in both themes, its file list open.
    await card(ui).getByRole('button', { name: 'Show files' }).click();
    await expect(ui.getByTestId('watch-item')).toHaveCount(2);
    for (const colorScheme of ['light', 'dark'] as const) {
      await showTheme(ui, colorScheme);
      const { violations } = await axeOn(ui).withTags(WCAG_TAGS).analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${colorScheme}: ${v.id} at ${v.nodes.map((n) => n.target.join(' > ')).join(', ')}`)).toEqual([]);
    }
    await ui.screenshot({ path: screenshotPath('watch-folders-dark.png') });
    await ui.emulateMedia({ colorScheme: 'light' });

    // A changed file is processed again; the other is not touched.
    await writeFile(path.join(inbox, 'beach.jpg'), await jpeg(3072, 1024, '#3c9d4e'));
    await expect.poll(() => sizeOf(path.join(output, 'resized', 'beach.jpg')).catch(() => ''), { timeout: 60_000 }).toBe('1024x341');
    await expect(card(ui).getByTestId('watch-counts')).toHaveText(/^2 done · 0 failed · 0 queued · 2 skipped/);
    expect((await stat(path.join(output, 'resized', 'city.jpg'))).mtimeMs).toBe(before);
    await ui.getByRole('button', { name: /^Transfers/ }).click();
    await expect(ui.getByRole('button', { name: /^Done 3$/ })).toBeVisible();
  } finally {
    await quitApp(second);
  }
});

test('editing a watch: the next file lands in the new output folder, an earlier one is not processed again', async ({ ui, workDir }) => {
  test.setTimeout(60_000);
  const inbox = path.join(workDir, 'inbox');
  const [outA, outB] = [path.join(workDir, 'out-a'), path.join(workDir, 'out-b')];
  await mkdir(inbox, { recursive: true });
  await ui.getByRole('button', { name: 'Watch folders', exact: true }).click();
  await ui.getByRole('button', { name: 'Add watch folder' }).click();
  const add = ui.getByRole('dialog', { name: 'Add a watch folder' });
  await add.getByLabel('Folder to watch').fill(inbox);
  await add.getByLabel('Output folder').fill(outA);
  await add.getByLabel('Process each file with').selectOption('preset:store-originals');
  await add.getByLabel('Wait until a file is unchanged for (seconds)').fill('0.3');
  await add.getByRole('button', { name: 'Start watching' }).click();
  await expect(card(ui).getByTestId('watch-state')).toHaveText('Watching');
  await writeFile(path.join(inbox, 'first.txt'), 'first');
  await expect(card(ui).getByTestId('watch-counts')).toHaveText(/^1 done · 0 failed · 0 queued/, { timeout: 20_000 });

  // Edit, by keyboard: the dialog opens pre-filled, the watched folder fixed.
  await card(ui).getByRole('button', { name: 'Edit' }).focus();
  await ui.keyboard.press('Enter');
  const edit = ui.getByRole('dialog', { name: 'Edit watch folder' });
  await expect(edit.getByLabel('Folder to watch')).toHaveValue(inbox);
  await expect(edit.getByLabel('Folder to watch')).not.toBeEditable();
  await expect(edit.getByLabel('Output folder')).toHaveValue(outA);
  await expect(edit.getByLabel('Process each file with')).toHaveValue('preset:store-originals');
  await expect(edit.getByLabel('Wait until a file is unchanged for (seconds)')).toHaveValue('0.3');
  // Refused as on add, at the field: the watched folder cannot lie inside the output folder.
  await edit.getByLabel('Output folder').fill(workDir);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByRole('alert')).toHaveText('The watched folder cannot lie inside the output folder (results would be processed again). (WATCH_FOLDER_INVALID)');
  await expect(edit.getByLabel('Output folder')).toHaveAttribute('aria-invalid', 'true');
  await edit.getByLabel('Output folder').fill(outB);
  await expect(edit.getByRole('alert')).toBeHidden();
  // When a result is already there: keep both (the default was replace).
  const policy = edit.getByRole('radiogroup', { name: 'When a result is already there' });
  await expect(policy.getByRole('radio', { name: 'Replace' })).toBeChecked();
  await policy.getByRole('radio', { name: 'Keep both' }).check();
  for (const colorScheme of ['light', 'dark'] as const) {
    await ui.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await edit.screenshot({ path: screenshotPath(`watch-folders-edit-${colorScheme}.png`) });
  }
  await ui.emulateMedia({ colorScheme: 'light' });
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(card(ui)).toContainText(`→ ${outB}`);

  await writeFile(path.join(inbox, 'second.txt'), 'second');
  await expect(card(ui).getByTestId('watch-counts')).toHaveText(/^2 done · 0 failed · 0 queued/, { timeout: 20_000 });
  expect(await readFile(path.join(outB, 'original', 'second.txt'), 'utf8')).toBe('second');
  // first.txt was not processed again: its result stays in the old output only.
  expect(await readFile(path.join(outA, 'original', 'first.txt'), 'utf8')).toBe('first');
  await expect(access(path.join(outB, 'original', 'first.txt'))).rejects.toThrow();
  await expect(access(path.join(outA, 'original', 'second.txt'))).rejects.toThrow();
  // second.txt changed: its new result is kept beside the earlier one, and its row says so.
  await writeFile(path.join(inbox, 'second.txt'), 'second, changed');
  await card(ui).getByRole('button', { name: 'Show files' }).click();
  await expect(ui.getByTestId('watch-item').filter({ hasText: 'second.txt' }).getByTestId('watch-item-note')).toHaveText('1 result kept beside an earlier one', { timeout: 20_000 });
  await ui.screenshot({ path: screenshotPath('watch-folders-kept-beside.png') });
  expect(await readFile(path.join(outB, 'original', 'second (2).txt'), 'utf8')).toBe('second, changed');
  expect(await readFile(path.join(outB, 'original', 'second.txt'), 'utf8')).toBe('second');
});
