import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { localSdk as sdkFor } from '../fixtures/vendor-sdk';
import { expect, test } from '../fixtures/app';
import { axeOn, showTheme, WCAG_TAGS } from '../fixtures/axe';
import { screenshotPath } from '../fixtures/paths';

/**
 * The Queue screen while a long video encode runs (issue 14, "Done when"): the slot it holds shows with
 * the Assembly's id and step, the id opens the Assembly (where it can be canceled), and once it ends the
 * screen says no job runs.
 */

/** A test-pattern clip: `seconds` of 25 fps video at `size`, made quickly (ultrafast). */
function video(dir: string, seconds = 40, size = '640x360'): string {
  const file = path.join(dir, `clip-${seconds}s.mp4`);
  execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${size}:rate=25`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
  return file;
}

test('the Queue screen shows the slot a video encode holds, links to its Assembly, where canceling it frees the slot', async ({ ui, running, workDir }) => {
  test.setTimeout(180_000);
  const sdk = await sdkFor(running);
  const nav = ui.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Queue' }).click();
  await expect(ui.getByRole('heading', { name: 'Queue', level: 1 })).toBeVisible();
  await expect(ui.getByText('No jobs running')).toBeVisible();
  await expect(ui.getByTestId('queue-slots-summary')).toContainText(/^0 of \d+ slots in use$/);

  // Two minutes of video up-scaled to 1080p: an encode that outlasts every check below on a loaded
  // machine (a shorter one could end first and take its row with it); the test cancels it, as a producer
  // would a runaway job, instead of waiting.
  const created = await sdk.createAssembly({
    files: { clip: video(workDir, 120, '320x180') },
    params: { steps: { ':original': { robot: '/upload/handle' }, encoded: { use: ':original', robot: '/video/encode', width: 1920, height: 1080, result: true } } },
    waitForCompletion: false,
  });
  const assemblyId = String(created.assembly_id);

  // Live: the screen polls, so the encode's slot appears without a reload.
  const row = ui.getByTestId('queue-job-row').filter({ hasText: assemblyId });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('encoded');
  await expect(row).toContainText('/video/encode');
  await expect(ui.getByTestId('queue-slots-summary')).toContainText(/^1 of \d+ slots in use$/);
  for (const theme of ['light', 'dark'] as const) {
    await showTheme(ui, theme);
    await ui.screenshot({ path: screenshotPath(`queue-running-${theme}.png`), animations: 'disabled' });
    const axe = await axeOn(ui).withTags(WCAG_TAGS).analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${theme}: ${v.id} at ${v.nodes.map((n) => n.target.join(' > ')).join('; ')}`);
    expect(serious, 'serious or critical axe violations on the Queue screen').toEqual([]);
  }
  await ui.emulateMedia({ colorScheme: 'light' });

  // The id opens the Assembly's detail; another client started it, and it can be canceled from there.
  await row.getByRole('link', { name: assemblyId }).click();
  await expect(ui).toHaveURL(new RegExp(`#/assemblies/${assemblyId}$`));
  const state = ui.getByTestId('assembly-state');
  await expect(state).toHaveText('Processing');
  await ui.getByRole('button', { name: 'Cancel Assembly…' }).click();
  const dialog = ui.getByRole('dialog', { name: 'Cancel this Assembly?' });
  await expect(dialog).toContainText('Processing stops: steps that have not finished produce no results');
  await expect(dialog.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
  await ui.screenshot({ path: screenshotPath('assembly-cancel-confirm.png'), animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Stop the Assembly' }).click();
  await expect(state).toHaveText('Canceled');
  await expect(ui.getByRole('button', { name: 'Cancel Assembly…' })).toHaveCount(0);
  expect(((await (await fetch(String(created.assembly_ssl_url))).json()) as { ok: string }).ok).toBe('ASSEMBLY_CANCELED');

  // Back on the Queue: the slot is free at once, no job runs, and the chart says the slot was used.
  await ui.goBack();
  await expect(ui.getByRole('heading', { name: 'Queue', level: 1 })).toBeVisible();
  await expect(ui.getByText('No jobs running')).toBeVisible({ timeout: 10_000 });
  await expect(ui.getByTestId('queue-job-row')).toHaveCount(0);
  await expect(ui.getByTestId('queue-chart-caption')).toContainText(/at most 1 of \d+ slots in use/, { timeout: 30_000 });
  for (const theme of ['light', 'dark'] as const) {
    await showTheme(ui, theme);
    await ui.screenshot({ path: screenshotPath(`queue-idle-${theme}.png`), animations: 'disabled' });
  }
});

test.describe('with one job slot', () => {
  test.use({ jobSlots: 1 });

  test('a second encode waits for the slot, listed under "Waiting for a slot", then runs', async ({ ui, running, workDir }) => {
    test.setTimeout(240_000);
    const sdk = await sdkFor(running);
    await ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Queue' }).click();
    await expect(ui.getByTestId('queue-slots-summary')).toHaveText('0 of 1 slot in use');
    const clip = video(workDir);
    const params = { steps: { ':original': { robot: '/upload/handle' }, encoded: { use: ':original', robot: '/video/encode', width: 1280, height: 720, result: true } } };
    const first = String((await sdk.createAssembly({ files: { clip }, params, waitForCompletion: false })).assembly_id);
    const second = String((await sdk.createAssembly({ files: { clip }, params, waitForCompletion: false })).assembly_id);

    // One holds the slot while the other waits for it. Which one waits depends on the order their jobs
    // asked (first come, first served: the second's :original may come before the first's encode).
    const ids = new RegExp(`${first}|${second}`);
    await expect(ui.getByTestId('queue-waiting-row').filter({ hasText: ids })).toBeVisible({ timeout: 60_000 });
    await expect(ui.getByTestId('queue-job-row').filter({ hasText: ids })).toHaveCount(1);
    await expect(ui.getByTestId('queue-slots-summary')).toHaveText('1 of 1 slot in use');
    await ui.screenshot({ path: screenshotPath('queue-waiting-light.png'), animations: 'disabled' });

    // The slot passes on until both are done; then nothing runs or waits.
    await expect(ui.getByText('No jobs running')).toBeVisible({ timeout: 180_000 });
    await expect(ui.getByTestId('queue-waiting-none')).toBeVisible();
    const base = running.kind === 'browser-host' ? running.app.core.localServiceUrl : '';
    for (const id of [first, second]) {
      await expect.poll(async () => ((await (await fetch(`${base}/assemblies/${id}`)).json()) as { ok: string }).ok, { timeout: 60_000 }).toBe('ASSEMBLY_COMPLETED');
    }
    await expect(ui.getByTestId('queue-chart-caption')).toContainText(/up to 1 Assemblies waited for a slot/, { timeout: 30_000 });
  });
});
