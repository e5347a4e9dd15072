import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';

/**
 * A media team's day in the transfer engine, driven through the real UI, core and local service: a folder
 * tree of 2,000 small files, OS litter and one large file goes in through the folder picker; the
 * pre-flight says what Start will do; Transfers shows it move; the user pauses and resumes, cancels a
 * batch, cancels one file and sends it again, and changes concurrency mid-run.
 */

const SMALL_FILES = 2_000;
const BIG_BYTES = 200 * 1024 * 1024;

/** `media/day-NN/clip-NNNN.txt` (1–5 KB each), two .DS_Store files and a sparse 200 MB master. */
const makeMediaFolder = async (workDir: string): Promise<string> => {
  const root = path.join(workDir, 'media');
  for (let day = 0; day < 10; day += 1) {
    const dir = path.join(root, `day-${String(day).padStart(2, '0')}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: SMALL_FILES / 10 }, (_, i) => {
        const n = day * (SMALL_FILES / 10) + i;
        return writeFile(path.join(dir, `clip-${String(n).padStart(4, '0')}.txt`), `clip ${n}\n`.repeat(100 + (n % 400)));
      }),
    );
  }
  await writeFile(path.join(root, '.DS_Store'), 'litter');
  await writeFile(path.join(root, 'day-00', '.DS_Store'), 'litter');
  const big = await open(path.join(root, 'master.mov'), 'w');
  await big.truncate(BIG_BYTES);
  await big.close();
  return root;
};

/** Renderer long tasks, from a PerformanceObserver in the page (P3 is checked in bench/, this records). */
const watchLongTasks = (ui: Page) =>
  ui.evaluate(() => {
    const w = globalThis as unknown as { __longTasks: number[]; PerformanceObserver: new (cb: (list: { getEntries(): { duration: number }[] }) => void) => { observe(o: object): void } };
    w.__longTasks = [];
    new w.PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
const longTasks = (ui: Page) => ui.evaluate(() => (globalThis as unknown as { __longTasks: number[] }).__longTasks);

/** Both themes. `animations: 'disabled'` ends the colour transitions, else the dark shot catches them halfway. */
const shoot = async (ui: Page, name: string) => {
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath(`${name}.png`), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath(`${name}-dark.png`), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });
};

test('a media team queues a folder tree and a large file, steers the transfer and sees it through', async ({ ui, workDir }) => {
  test.setTimeout(600_000);
  const root = await makeMediaFolder(workDir);
  await watchLongTasks(ui);

  // The folder goes to core as a draft; the page shows a live count, then the list.
  await ui.getByLabel('Choose folder').setInputFiles(root);
  await expect(ui.getByLabel('Selection totals')).toHaveText(/^2,003 files · \d+ MB$/, { timeout: 120_000 });
  await expect(ui.getByTestId('drop-status')).toHaveText('Drop files or folders here');
  await expect(ui.getByTestId('file-row').first()).toBeVisible();
  await expect(ui.getByText(/No files yet/)).toHaveCount(0);

  // Store only, in Assemblies of 500 files.
  await ui.getByText('Just store the originals').click();
  await ui.getByText('Assemblies and skip rules').click();
  await ui.getByLabel('Make one Assembly').selectOption('every-n');
  const batchSize = ui.getByLabel('At most files per Assembly');
  await batchSize.fill('500');
  await batchSize.press('Enter');

  // The pre-flight, before a byte is sent: the litter is left out, 2,001 files in 5 Assemblies.
  const preflight = ui.getByTestId('preflight');
  await expect(preflight.getByTestId('preflight-files')).toHaveText(/^2,001 files · .* → 5 Assemblies$/);
  await expect(preflight.getByTestId('preflight-skipped')).toHaveText('Left out: 2 hidden or system files');
  await expect(preflight.getByTestId('preflight-methods')).toHaveText('2,000 small files, many per request · 1 file by tus (resumable)');
  await expect(ui.getByTestId('field-warning')).toHaveCount(0);
  await shoot(ui, 'upload-preflight');

  await ui.getByRole('button', { name: 'Start · 2,001 files' }).click();

  // Transfers: one list grouped by batch, live totals, a badge in the sidebar.
  await expect(ui.getByRole('heading', { name: 'Transfers' })).toBeVisible();
  const list = ui.getByRole('grid', { name: 'Files in the transfer queue' });
  await expect(list.getByTestId('transfer-batch').first()).toBeVisible();
  await expect(ui.getByRole('button', { name: /^All 2,001$/ })).toBeVisible();
  await expect(ui.getByTestId('transfers-badge')).toBeVisible();

  // Pause everything; the time left says so.
  await ui.getByRole('button', { name: 'Pause all' }).click();
  await expect(ui.getByRole('button', { name: 'Resume all' })).toBeVisible();
  await expect(ui.getByTestId('transfer-eta')).toHaveText('Paused');
  await shoot(ui, 'transfers-paused');

  // Cancel one batch that has not finished: Files 1,501–2,000 (the list is windowed, so find it by a file of it;
  // the first batch holds the master, which the walk meets first).
  const search = ui.getByRole('searchbox', { name: 'Search paths' });
  await search.fill('clip-1500.txt');
  await expect(list.getByTestId('transfer-row')).toHaveCount(1);
  const cancelBatch = list.getByRole('button', { name: /^Cancel batch / });
  await expect(cancelBatch).toHaveCount(1);
  // Its header line says which Assembly of the drop it is ("Assembly 4 of 5 · Files 1,501–2,000"): found by that once canceled.
  const which = (await list.getByTestId('transfer-batch').filter({ has: ui.getByRole('button', { name: /^Cancel batch / }) }).getByTestId('batch-which').textContent()) ?? '';
  expect(which).toMatch(/^Assembly \d of \d · Files /);
  await cancelBatch.click();
  const canceledBatch = list.getByTestId('transfer-batch').filter({ has: ui.getByText(which, { exact: true }) });
  await expect(canceledBatch.getByTestId('batch-state')).toHaveText('Canceled');
  await expect(ui.getByRole('button', { name: /^Canceled [1-9]/ })).toBeVisible();
  await search.fill('');

  // Cancel one file of another batch, then send it again.
  await search.fill('clip-0007.txt');
  const row = list.getByTestId('transfer-row').filter({ hasText: 'clip-0007.txt' });
  await expect(row).toHaveCount(1);
  const cancelFile = row.getByRole('button', { name: 'Cancel media/day-00/clip-0007.txt' });
  if ((await cancelFile.count()) > 0) {
    await cancelFile.click();
    // Had its batch's Assembly been created before the pause, the app asks first what would be sent again.
    const resend = ui.getByRole('dialog', { name: /^Cancel media\/day-00\/clip-0007\.txt\? / });
    await expect(list.locator('[data-testid="transfer-row"][data-state="canceled"]').filter({ hasText: 'clip-0007.txt' }).or(resend)).toBeVisible();
    if (await resend.isVisible()) await resend.getByRole('button', { name: /^Cancel it and send / }).click();
    await expect(row).toHaveAttribute('data-state', 'canceled');
  }
  await row.getByRole('button', { name: 'Retry media/day-00/clip-0007.txt' }).click();
  await expect(row).toHaveAttribute('data-state', /queued|paused|uploading|uploaded|verified/);
  await search.fill('');

  // Two files at once from now on, while the queue runs.
  await ui.getByRole('button', { name: 'Resume all' }).click();
  await expect(ui.getByRole('button', { name: 'Pause all' })).toBeVisible();
  await ui.getByRole('button', { name: 'Settings' }).click();
  const concurrency = ui.getByLabel('Files at once');
  await concurrency.fill('2');
  await concurrency.press('Enter');
  await shoot(ui, 'transfers-settings');
  await ui.getByRole('button', { name: 'Close' }).click();
  await ui.getByRole('button', { name: 'Settings' }).click();
  await expect(ui.getByLabel('Files at once')).toHaveValue('2');
  await ui.getByRole('button', { name: 'Close' }).click();
  await shoot(ui, 'transfers-running');

  // Everything not canceled arrives, verified; nothing failed.
  await expect(ui.getByTestId('transfer-eta')).toHaveText('Done', { timeout: 480_000 });
  await expect(ui.getByRole('button', { name: /^Failed 0$/ })).toBeVisible();
  await ui.getByRole('button', { name: /^Done / }).click();
  await expect(list.getByTestId('transfer-row').first()).toHaveAttribute('data-state', /verified|skipped/);
  // The canceled batch's 500 files did not go; the master and the file sent again did, once each.
  await expect(ui.getByRole('button', { name: /^Done 1,501$/ })).toBeVisible();
  await expect(ui.getByRole('button', { name: /^Canceled 500$/ })).toBeVisible();
  for (const name of ['master.mov', 'clip-0007.txt']) {
    await search.fill(name);
    await expect(list.getByTestId('transfer-row')).toHaveCount(1);
    await expect(list.getByTestId('transfer-row')).toHaveAttribute('data-state', 'verified');
  }
  await search.fill('');
  await ui.getByRole('button', { name: /^All / }).click();
  await shoot(ui, 'transfers-done');

  // A finished batch opens its Assembly: told as it is, results windowed.
  await search.fill('master.mov');
  await list.getByRole('button', { name: /^Open the Assembly of / }).first().click();
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
  const cards = ui.getByTestId('result-card');
  if ((await cards.count()) > 0) expect(await cards.count()).toBeLessThan(60);

  const tasks = await longTasks(ui);
  test.info().annotations.push({ type: 'renderer long tasks', description: `${tasks.length}, longest ${Math.round(Math.max(0, ...tasks))} ms` });
});
