import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { startLocalService } from '../../service/index';
import { runUsageAssemblies } from '../../service/testing/usage-runs';
import { priceListSchema } from '../../service/usage/price-list';
import { expect, test, type RunningApp } from '../fixtures/app';
import { bytesText } from '../fixtures/format';
import { screenshotPath } from '../fixtures/paths';
import { useCustomSteps } from '../fixtures/steps-editor';
import { startTransfer } from '../fixtures/transfers';

/**
 * Usage and Statistics show what this test sent through the app: it uploads real photos (one Assembly
 * resizes two of them, one fails on a third), computes the bytes itself from the files it made and the
 * results' sizes from the status records, and finds the same figures on both screens. Then the local
 * service is killed: the last figures stay on screen, marked stale, until the service is back.
 * Browser host only (playwright.config.ts): it reads status records and kills the service through core.
 */

const GB = 1024 ** 3;

const browserHost = (running: RunningApp) => {
  if (running.kind !== 'browser-host') throw new Error('usage-statistics.spec.ts reads status records through the browser host core');
  return running.app;
};

const nav = (ui: Page, name: string) => ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

async function photo(dir: string, name: string, width: number, height: number, background: string): Promise<{ file: string; size: number }> {
  const file = path.join(dir, name);
  await sharp({ create: { width, height, channels: 3, background } }).jpeg({ quality: 90 }).toFile(file);
  return { file, size: (await stat(file)).size };
}

async function runSteps(ui: Page, files: string[], steps: unknown, label: string): Promise<void> {
  await nav(ui, 'Upload').click();
  await ui.getByLabel('Choose files').setInputFiles(files);
  await expect(ui.getByTestId('file-row')).toHaveCount(files.length);
  await useCustomSteps(ui, steps);
  await startTransfer(ui, label);
}

/** Three significant digits below 1 GB, as the Usage screen promises in docs/account.md. */
const gbText = (bytes: number): string => `${(bytes / GB).toLocaleString('en-US', { maximumSignificantDigits: 3 })} GB`;

test('Usage and Statistics show the bytes and outcomes the test sent, in both themes, and keep them, marked stale, while the service is away', async ({ ui, running, workDir }) => {
  test.setTimeout(240_000);
  const app = browserHost(running);
  const harbour = await photo(workDir, 'harbour.jpg', 900, 600, '#2a7d5f');
  const dunes = await photo(workDir, 'dunes.jpg', 640, 480, '#c0a040');
  const big = await photo(workDir, 'too-big.jpg', 480, 320, '#5050c0');

  // One Assembly resizes two photos; one fails: its filter declines the photo and is set to fail on that.
  await runSteps(ui, [harbour.file, dunes.file], { ':original': { robot: '/upload/handle' }, small: { robot: '/image/resize', use: ':original', width: 64 } }, 'Start · 2 files');
  await runSteps(
    ui,
    [big.file],
    { ':original': { robot: '/upload/handle' }, tiny_only: { robot: '/file/filter', use: ':original', accepts: [['${file.size}', '<', 100]], error_on_decline: true } },
    'Start · 1 file',
  );
  // Both runs ended (read from core, as the Assembly view would show them).
  await expect
    .poll(async () => {
      const runs = await app.core.handlers['runs:list']({});
      return runs.ok ? runs.value.map((r) => r.state).sort() : [];
    }, { timeout: 120_000 })
    .toEqual(['ASSEMBLY_COMPLETED', 'FILE_FILTER_DECLINED_FILE']);

  // The test's own figures: bytes from the files it made, result sizes from the status records.
  const runs = await app.core.handlers['runs:list']({});
  const ids = runs.ok ? runs.value.map((r) => r.assemblyId!) : [];
  const statuses = await Promise.all(ids.map(async (id) => (await (await fetch(`${app.core.localServiceUrl!}/assemblies/${id}`)).json()) as { results?: Record<string, { size: number }[]> }));
  const resultBytes = statuses.flatMap((s) => Object.values(s.results ?? {}).flat()).reduce((n, f) => n + f.size, 0);
  expect(resultBytes).toBeGreaterThan(0);
  const uploaded = harbour.size + dunes.size + big.size;
  const resized = harbour.size + dunes.size;

  // ---- Usage: this month, not invoiced; used = uploads + resized input (factor 1 in the free price list).
  await nav(ui, 'Usage').click();
  await expect(ui.getByRole('heading', { name: 'Usage', exact: true })).toBeVisible();
  await expect(ui.getByTestId('bill-state')).toHaveText('Current month — not invoiced yet');
  const used = ui.getByTestId('bill-used-gb');
  await expect(used).toHaveText(gbText(uploaded + resized));
  expect(Number(await used.getAttribute('data-gb')) * GB).toBeCloseTo(uploaded + resized, 3);
  const robot = (name: string) => ui.getByTestId('robot-row').and(ui.locator(`[data-robot="${name}"]`));
  await expect(robot('/assemblies').getByTestId('robot-raw-gb')).toHaveText(gbText(uploaded));
  expect(Number(await robot('/assemblies').getAttribute('data-raw-gb')) * GB).toBeCloseTo(uploaded, 3);
  await expect(robot('/image/resize').getByTestId('robot-raw-gb')).toHaveText(gbText(resized));
  expect(Number(await robot('/image/resize').getAttribute('data-raw-gb')) * GB).toBeCloseTo(resized, 3);
  // The filter failed its job: nothing billed for it.
  await expect(robot('/file/filter')).toHaveCount(0);
  await expect(ui.getByTestId('usage-days-chart-caption')).toContainText(`over 1 of ${new Date().getUTCDate()} days (2 Assemblies)`);
  await expect(ui.getByTestId('usage-days-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await ui.screenshot({ path: screenshotPath('usage.png'), animations: 'disabled', fullPage: true });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('usage-dark.png'), animations: 'disabled', fullPage: true });
  await ui.emulateMedia({ colorScheme: 'light' });

  // Months by keyboard: ← to last month (empty here), → back, never past this month.
  const thisMonth = new Date().toISOString().slice(0, 7);
  await ui.getByRole('button', { name: 'Previous month' }).focus();
  await ui.keyboard.press('ArrowLeft');
  await expect(ui.getByTestId('month-label')).not.toHaveAttribute('data-month', thisMonth);
  await expect(ui.getByText(/^No usage in /)).toBeVisible();
  await ui.keyboard.press('ArrowRight');
  await ui.keyboard.press('ArrowRight');
  await expect(ui.getByTestId('month-label')).toHaveAttribute('data-month', thisMonth);
  await expect(ui.getByRole('button', { name: 'Next month' })).toBeDisabled();
  await expect(used).toHaveText(gbText(uploaded + resized));

  // ---- Statistics: the last 24 hours, this workspace's region.
  await nav(ui, 'Statistics').click();
  const total = (id: string) => ui.getByTestId(`stats-total-${id}`);
  await expect(total('assemblies')).toHaveText('2');
  await expect(total('successful')).toHaveText('1');
  await expect(total('erroneous')).toHaveText('1');
  await expect(total('canceled')).toHaveText('0');
  await expect(total('requestAborted')).toHaveText('0');
  await expect(total('uploaded')).toHaveText(bytesText(uploaded));
  await expect(total('results')).toHaveText(bytesText(resultBytes));
  await expect(ui.getByTestId('stats-resolution')).toHaveText('By the hour · region local');
  await expect(ui.getByTestId('stats-assemblies-chart-caption')).toContainText('2 Assemblies: 1 successful, 0 canceled, 1 erroneous, 0 request aborted.');
  await expect(ui.getByTestId('stats-bytes-chart-caption')).toHaveText(`${bytesText(uploaded)} uploaded, ${bytesText(resultBytes)} of results.`);
  await expect(ui.getByTestId('stats-error-row')).toHaveCount(1);
  await expect(ui.getByTestId('stats-error-row')).toHaveAttribute('data-error', 'FILE_FILTER_DECLINED_FILE');
  // The figures behind a chart, by keyboard.
  const chart = ui.getByTestId('stats-assemblies-chart');
  await chart.getByRole('button', { name: 'Show table' }).focus();
  await ui.keyboard.press('Enter');
  const table = chart.getByRole('table', { name: 'Assemblies by outcome' });
  await expect(table).toBeVisible();
  expect(await table.getByRole('row').count()).toBeGreaterThanOrEqual(25);
  await chart.getByRole('button', { name: 'Show chart' }).click();
  await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
  // The chart itself by keyboard: focus it, → walks the buckets with the tooltip.
  const surface = chart.getByRole('application');
  await surface.focus();
  await ui.keyboard.press('ArrowRight');
  await expect(chart.locator('.recharts-tooltip-wrapper')).toContainText('Successful');
  await ui.screenshot({ path: screenshotPath('statistics.png'), animations: 'disabled', fullPage: true });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('statistics-dark.png'), animations: 'disabled', fullPage: true });
  await ui.emulateMedia({ colorScheme: 'light' });

  // ---- The service goes away: the figures stay, marked stale with the reason; a retry brings them back.
  process.kill(app.core.localServicePid()!, 'SIGKILL');
  await ui.getByRole('button', { name: 'Refresh', exact: true }).click();
  const stale = ui.getByTestId('stale-notice');
  await expect(stale).toContainText(/LOCAL_SERVICE_UNAVAILABLE|NETWORK_ERROR/);
  await expect(total('assemblies')).toHaveText('2');
  await ui.screenshot({ path: screenshotPath('statistics-stale.png'), animations: 'disabled' });
  // Once the service is back the app reads every screen again: the notice goes by itself.
  await expect(ui.getByRole('alert', { name: 'Connection' })).toHaveCount(0, { timeout: 60_000 });
  await expect(stale).toHaveCount(0);
  await expect(total('assemblies')).toHaveText('2');
});

test('a remote workspace with a priced plan: over its allowance, additional GB and fee, VAT; its statistics count a canceled Assembly', async ({ ui, workDir }) => {
  // A second deployment of the API whose operator charges: ~1 KB included, then 100,000 a GB, 20 % VAT.
  const remote = await startLocalService({
    dataDir: path.join(workDir, 'priced-service'),
    priceList: priceListSchema.parse({
      plan: { id: 'studio', price_per_month: 20, gb_included: 0.000001, price_per_gb: 100_000, gb_limit: null, has_lifetime_limit: false },
      vat_rate: 0.2,
    }),
  });
  try {
    // Another client's Assemblies there: one completed, one failed, one canceled mid-upload.
    const run = await runUsageAssemblies(remote);
    await nav(ui, 'Workspaces').click();
    await ui.getByRole('button', { name: 'Add workspace' }).click();
    await ui.getByLabel('Workspace name').fill('Studio');
    await ui.getByLabel('API endpoint').fill(remote.url);
    await ui.getByLabel('Workspace slug').fill('studio');
    await ui.getByLabel('Auth Key', { exact: true }).fill(remote.authKey);
    await ui.getByLabel('Auth Secret', { exact: true }).fill(remote.authSecret);
    await ui.getByRole('button', { name: 'Save workspace' }).click();
    await expect(ui.getByTestId('workspace-row')).toHaveCount(2);
    await ui.getByLabel('Switch workspace').selectOption({ label: 'Studio' });
    await expect(ui.locator('.workspace-url')).toHaveText(remote.url);

    // The bill, computed here from the bytes the runs sent and the price list.
    const usedGb = (run.uploadedBytes + run.resizeInputBytes) / GB;
    const cents = (n: number) => Math.round(n * 100) / 100;
    const fee = cents((usedGb - 0.000001) * 100_000);
    const subTotal = cents(20 + fee);
    const vat = cents(subTotal * 0.2);
    const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    await nav(ui, 'Usage').click();
    await expect(ui.getByTestId('bill-plan')).toContainText('studio · 20.00 a month');
    await expect(ui.getByTestId('bill-used-gb')).toHaveText(gbText(run.uploadedBytes + run.resizeInputBytes));
    await expect(ui.getByTestId('allowance-bar')).toHaveAttribute('data-tone', 'danger');
    await expect(ui.getByTestId('bill-additional')).toHaveText(`${gbText(run.uploadedBytes + run.resizeInputBytes - 0.000001 * GB)} · ${money(fee)}`);
    await expect(ui.getByTestId('bill-total')).toHaveText(money(cents(subTotal + vat)));
    await expect(ui.getByTestId('bill-breakdown')).toHaveText(`Subtotal ${money(subTotal)} · VAT ${money(vat)}`);
    await ui.screenshot({ path: screenshotPath('usage-remote-over.png'), animations: 'disabled', fullPage: true });

    await nav(ui, 'Statistics').click();
    const total = (id: string) => ui.getByTestId(`stats-total-${id}`);
    await expect(total('assemblies')).toHaveText('3');
    await expect(total('successful')).toHaveText('1');
    await expect(total('canceled')).toHaveText('1');
    await expect(total('erroneous')).toHaveText('1');
    await expect(total('uploaded')).toHaveText(bytesText(run.uploadedBytes));
    await expect(total('results')).toHaveText(bytesText(run.outputBytes));
  } finally {
    await remote.close();
  }
});
