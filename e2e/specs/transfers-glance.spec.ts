import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { writeHeic } from '../../service/robots/heic-file';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { openAssembly, transferList } from '../fixtures/transfers';

/**
 * Transfers read at a glance, as a user drives them (one app start): a 1,000-file drop shows its bytes,
 * files, speed and time left while its files stream many per request; the newest drop is first and named
 * for itself; the totals count the work under way; Clear finished empties the list; canceling one file of
 * a running tus batch asks first, naming what would be sent again; the small things on the way (a
 * .DS_Store marked as left out, numeric fields that say why, a HEIC photo and a small one resized).
 */

const FILES = 1_000;

async function makeHoliday(workDir: string): Promise<string> {
  const root = path.join(workDir, 'holiday');
  await mkdir(root, { recursive: true });
  // 1,000 files of 6–9 KB: one create request at the bandwidth limit below takes several seconds.
  await Promise.all(Array.from({ length: FILES }, (_, i) => writeFile(path.join(root, `IMG_${String(i).padStart(4, '0')}.txt`), `frame ${i}\n`.repeat(700 + (i % 300)))));
  await writeFile(path.join(root, '.DS_Store'), 'litter');
  return root;
}

test('a 1,000-file drop streams in view, named for itself; totals, Clear finished, cancel one file and the small things say what happens', async ({ ui, workDir }) => {
  test.setTimeout(480_000);
  const holiday = await makeHoliday(workDir);

  // Transfers' settings first: numbers that cannot be saved say why at the field; a bandwidth limit that
  // lets the drop be watched.
  await ui.getByRole('button', { name: 'Transfers', exact: true }).click();
  await ui.getByRole('button', { name: 'Settings' }).click();
  const atOnce = ui.getByLabel('Files at once');
  for (const [typed, why] of [
    ['0', '0 is too small: at least 1. Not saved.'],
    ['abc', '"abc" is not a number: enter a whole number, 1–32. Not saved.'],
    ['99', '99 is too large: at most 32. Not saved.'],
    ['-5', '-5 is too small: at least 1. Not saved.'],
  ] as const) {
    await atOnce.fill(typed);
    await atOnce.press('Tab');
    await expect(atOnce).toHaveValue(typed);
    await expect(ui.locator('[data-field="concurrency"]').getByTestId('field-error')).toHaveText(why);
  }
  await atOnce.fill('4');
  await atOnce.press('Tab');
  await expect(ui.locator('[data-field="concurrency"]').getByTestId('field-error')).toHaveCount(0);
  const largest = ui.getByLabel('Largest file');
  await largest.fill('1');
  await largest.press('Tab');
  const smallest = ui.getByLabel('Smallest file');
  await smallest.fill('2');
  await smallest.press('Tab');
  await expect(ui.locator('[data-field="minBytes"]').getByTestId('field-error')).toHaveText('Larger than the largest file (1 MB): every file would be left out. Not saved.');
  await smallest.fill('');
  await smallest.press('Tab');
  await largest.fill('');
  await largest.press('Tab');
  const limit = ui.getByLabel('Bandwidth limit');
  await limit.fill('0.5');
  await limit.press('Tab');
  await ui.getByRole('button', { name: 'Close' }).click();

  // The drop: the .DS_Store is listed, marked as left out.
  await ui.getByRole('button', { name: 'Upload', exact: true }).click();
  await ui.getByLabel('Choose folder').setInputFiles(holiday);
  await expect(ui.getByLabel('Selection totals')).toHaveText(/^1,001 files · /, { timeout: 60_000 });
  const litter = ui.getByTestId('file-row').filter({ hasText: '.DS_Store' });
  await expect(litter).toHaveAttribute('data-left-out', 'hidden');
  await expect(litter.getByTestId('left-out')).toHaveText('· Left out: hidden or system file');
  // A max_number_of_files below 1 is refused for what it is.
  await ui.getByRole('button', { name: /^Options/ }).click();
  const maxFiles = ui.getByLabel('Max files per Assembly');
  await maxFiles.fill('-5');
  await expect(ui.getByText('max_number_of_files is at least 1 (-5 would refuse every file).')).toBeVisible();
  await maxFiles.fill('');
  await ui.getByText('Just store the originals').click();
  await ui.getByRole('button', { name: `Start · ${FILES.toLocaleString('en-US')} files` }).click();

  // Transfers opens at the new drop, named for it; its files stream many per request and the totals move.
  await expect(ui.getByRole('heading', { name: 'Transfers' })).toBeVisible();
  const list = transferList(ui);
  const first = list.getByTestId('transfer-batch').first();
  await expect(first.getByTestId('batch-drop')).toHaveText(/^holiday · .+ · Just store the originals$/);
  await expect(first.getByTestId('batch-which')).toHaveText('Assembly 1 · Files 1–1,000');
  await expect(ui.getByTestId('transfer-totals')).toContainText(/ more sent/, { timeout: 60_000 });
  await expect(ui.getByTestId('transfer-speed')).not.toHaveText('—');
  await expect(list.locator('[data-testid="transfer-row"][data-state="uploading"]').first()).toBeVisible();
  await ui.screenshot({ path: screenshotPath('transfers-streaming.png'), animations: 'disabled' });
  // A real time left once the speed is known (never "Estimating…" to the end).
  await expect(ui.getByTestId('transfer-eta')).toHaveText(/ left$|^Almost done$/, { timeout: 60_000 });
  await ui.screenshot({ path: screenshotPath('transfers-streaming-eta.png'), animations: 'disabled' });
  await expect(ui.getByTestId('transfer-eta')).toHaveText('Done', { timeout: 180_000 });
  await expect(ui.getByRole('button', { name: /^Done 1,000$/ })).toBeVisible();

  // A second drop, slowed to a crawl: it is first, named for itself, and the totals count it alone (0 of 3
  // files, not the first drop's 1,000).
  await ui.getByRole('button', { name: 'Settings' }).click();
  await limit.fill('0.01');
  await limit.press('Tab');
  await ui.getByRole('button', { name: 'Close' }).click();
  const scans = path.join(workDir, 'scans');
  await mkdir(scans, { recursive: true });
  const small = path.join(scans, 'small.jpg');
  await sharp({ create: { width: 100, height: 68, channels: 3, background: '#3a6' } }).jpeg().toFile(small);
  await writeHeic(path.join(scans, 'IMG_5001.HEIC'));
  await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#a63', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toFile(path.join(scans, 'large.jpg'));
  await ui.getByRole('button', { name: 'Upload', exact: true }).click();
  await ui.getByLabel('Choose folder').setInputFiles(scans);
  await expect(ui.getByLabel('Selection totals')).toHaveText(/^3 files · /);
  await ui.getByText('Resize images to 1024 px').click();
  await ui.getByRole('button', { name: 'Start · 3 files' }).click();
  await expect(first.getByTestId('batch-drop')).toHaveText(/^scans · .+ · Resize images to 1024 px$/);
  await expect(ui.getByTestId('transfer-totals').getByText(/^0 of 3 files/)).toBeVisible();
  await ui.screenshot({ path: screenshotPath('transfers-newest-first.png'), animations: 'disabled' });
  await ui.getByRole('button', { name: 'Settings' }).click();
  await limit.fill('0');
  await limit.press('Tab');
  await ui.getByRole('button', { name: 'Close' }).click();
  await expect(ui.getByTestId('transfer-eta')).toHaveText('Done', { timeout: 60_000 });

  // "Resize images to 1024 px" keeps the small photo's size; the HEIC says why it was left out.
  await openAssembly(ui); // the newest drop's, first in the list
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 60_000 });
  await expect(ui.getByTestId('result-card').filter({ hasText: '100 × 68' })).toHaveCount(1);
  await expect(ui.getByTestId('result-card').filter({ hasText: '1024 × 768' })).toHaveCount(1);
  await expect(ui.getByText(/HEIC is not supported on this service/).first()).toBeVisible();
  await expect(ui.getByText('Unknown error')).toHaveCount(0);
  await ui.screenshot({ path: screenshotPath('run-heic-not-supported.png'), animations: 'disabled' });

  // Clear finished: both drops leave the list.
  await ui.getByRole('button', { name: 'Transfers', exact: true }).click();
  await ui.getByRole('button', { name: 'Clear finished' }).click();
  await expect(ui.getByText(/^Cleared 2 finished drops \(1,00[34] files\)\.$/)).toBeVisible();
  await expect(ui.getByText('Nothing is transferring')).toBeVisible();

  // Cancel one file of a running tus batch: asked first, with what would go again; Keep sending keeps it all.
  const big = path.join(workDir, 'masters');
  await mkdir(big, { recursive: true });
  for (const name of ['a.mov', 'b.mov', 'c.mov']) await writeFile(path.join(big, name), Buffer.alloc(6 * 1024 * 1024, name));
  await ui.getByRole('button', { name: 'Settings' }).click();
  await ui.getByLabel('Files at once').fill('2');
  await ui.getByLabel('Files at once').press('Tab');
  await limit.fill('2');
  await limit.press('Tab');
  await ui.getByRole('button', { name: 'Close' }).click();
  await ui.getByRole('button', { name: 'Upload', exact: true }).click();
  await ui.getByLabel('Choose folder').setInputFiles(big);
  await expect(ui.getByLabel('Selection totals')).toHaveText(/^3 files · /);
  await ui.getByText('Just store the originals').click();
  await ui.getByRole('button', { name: 'Start · 3 files' }).click();
  const row = (name: string) => list.getByTestId('transfer-row').filter({ hasText: name });
  await expect(row('a.mov').getByRole('progressbar')).not.toHaveAttribute('aria-valuenow', '0', { timeout: 60_000 });
  await row('c.mov').getByRole('button', { name: 'Cancel masters/c.mov' }).click();
  // How many of its batch-mates would go again depends on how far they got (one may be sent whole already):
  // the dialog names them, and those are the ones sent again.
  const ask = ui.getByRole('dialog', { name: /^Cancel masters\/c\.mov\? [12] other files? would be sent again$/ });
  await expect(ask.getByTestId('resend-files')).toContainText(/masters\/[ab]\.mov/);
  await expect(ask.getByTestId('resend-summary')).toContainText('already sent thrown away');
  await ui.screenshot({ path: screenshotPath('transfers-cancel-one-asks.png'), animations: 'disabled' });
  await ask.getByRole('button', { name: 'Keep sending' }).click();
  await expect(row('c.mov')).not.toHaveAttribute('data-state', 'canceled');
  await row('c.mov').getByRole('button', { name: 'Cancel masters/c.mov' }).click();
  await expect(ask.getByTestId('resend-files')).toContainText(/masters\/[ab]\.mov/);
  const named = (await ask.getByTestId('resend-files').locator('.tx-name').allTextContents()).map((n) => n.replace('masters/', ''));
  await ask.getByRole('button', { name: /^Cancel it and send [12] files? again$/ }).click();
  await expect(row('c.mov')).toHaveAttribute('data-state', 'canceled');
  for (const name of named) await expect(row(name).getByTestId('transfer-note')).toHaveText(/^Sent again \(you agreed\)/);
  await ui.getByRole('button', { name: 'Settings' }).click();
  await limit.fill('0');
  await limit.press('Tab');
  await ui.getByRole('button', { name: 'Close' }).click();
  await expect(ui.getByTestId('transfer-eta')).toHaveText('Done', { timeout: 120_000 });
  await expect(ui.getByRole('button', { name: /^Done 2$/ })).toBeVisible();
});
