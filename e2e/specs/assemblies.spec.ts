import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transloadit } from '@transloadit/node';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { localSdk as sdkFor } from '../fixtures/vendor-sdk';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';

/**
 * Activity is the Assembly browser of the workspace: Assemblies another client started (the vendor's own
 * Node SDK, run from the test against the app's local service) appear there, filters and search find them,
 * one is replayed with new steps from its detail, and a failed batch is bulk-replayed.
 */

const steps = { ':original': { robot: '/upload/handle' }, small: { use: ':original', robot: '/image/resize', width: 48 } };

async function photo(dir: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  await sharp({ create: { width: 120, height: 80, channels: 3, background: '#2a7d5f' } }).jpeg().toFile(file);
  return file;
}

/** An Assembly the resize step fails on: the "photo" is not an image. */
async function brokenAssembly(sdk: Transloadit, dir: string, name: string): Promise<void> {
  const file = path.join(dir, name);
  await writeFile(file, 'this is not a jpeg');
  await sdk.createAssembly({ files: { file }, params: { steps, fields: { batch: 'nightly' } }, waitForCompletion: true }).catch(() => undefined);
}

const rows = (ui: Page) => ui.getByTestId('assembly-row');
const openActivity = async (ui: Page) => {
  await ui.getByRole('button', { name: 'Activity' }).click();
  await expect(ui.getByRole('list', { name: 'Recent Assemblies' })).toBeVisible();
};

test('Assemblies started by another client appear in Activity, filters find them, and one is replayed with new steps', async ({ ui, running, workDir }) => {
  const sdk = await sdkFor(running);
  const harbour = await sdk.createAssembly({ files: { photo: await photo(workDir, 'harbour.jpg') }, params: { steps, fields: { client: 'sdk-e2e' } }, waitForCompletion: true });
  const lighthouse = await sdk.createAssembly({ files: { photo: await photo(workDir, 'lighthouse.jpg') }, params: { steps, fields: { client: 'sdk-e2e' } }, waitForCompletion: true });
  await brokenAssembly(sdk, workDir, 'broken.jpg');
  expect([harbour.ok, lighthouse.ok]).toEqual(['ASSEMBLY_COMPLETED', 'ASSEMBLY_COMPLETED']);

  await openActivity(ui);
  await expect(ui.getByTestId('activity-count')).toHaveText('3 Assemblies');
  await expect(rows(ui)).toHaveCount(3);
  await expect(rows(ui).first()).toContainText('broken.jpg');

  // State filter: only the failed one, with its error code on the row.
  await ui.getByRole('button', { name: 'Failed', exact: true }).click();
  await expect(ui.getByTestId('activity-count')).toHaveText('1 Assembly match');
  await expect(rows(ui)).toHaveCount(1);
  await expect(rows(ui).getByTestId('assembly-state')).toHaveText('Failed');
  await ui.getByRole('button', { name: 'All', exact: true }).click();

  // Search: a file name, then a field value with today's date range.
  await ui.getByRole('searchbox', { name: 'Search Assemblies' }).fill('lighthouse');
  await expect(rows(ui)).toHaveCount(1);
  await expect(rows(ui)).toHaveAttribute('data-id', String(lighthouse.assembly_id));
  await ui.getByRole('searchbox', { name: 'Search Assemblies' }).fill('sdk-e2e');
  await ui.getByRole('button', { name: 'Today' }).click();
  await expect(rows(ui)).toHaveCount(2);
  await ui.getByRole('button', { name: 'Yesterday' }).click();
  await expect(ui.getByText('No Assemblies match')).toBeVisible();
  await ui.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(rows(ui)).toHaveCount(3);
  await ui.screenshot({ path: screenshotPath('activity-browser.png'), animations: 'disabled' });

  // The detail of an Assembly this app did not start.
  await ui.getByRole('button', { name: new RegExp(String(lighthouse.assembly_id)) }).click();
  await expect(ui).toHaveURL(new RegExp(`#/assemblies/${String(lighthouse.assembly_id)}$`));
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
  await expect(ui.getByTestId('assembly-fields')).toContainText('sdk-e2e');
  await expect(ui.getByTestId('upload-meta')).toHaveText('120 × 80');
  await expect(ui.getByTestId('result-card').getByTestId('thumb')).toHaveAttribute('data-preview', 'ready');

  // Replay with new steps: a new Assembly, followed live until it completes, linked to its parent.
  await ui.getByRole('button', { name: 'Replay…' }).click();
  await ui.getByLabel('With new steps').check();
  await ui.getByLabel('New steps (JSON)').fill(JSON.stringify({ ':original': { robot: '/upload/handle' }, tiny: { use: ':original', robot: '/image/resize', width: 16 } }));
  await ui.screenshot({ path: screenshotPath('assembly-replay.png'), animations: 'disabled' });
  await ui.getByRole('button', { name: 'Replay', exact: true }).click();
  await expect(ui).not.toHaveURL(new RegExp(`#/assemblies/${String(lighthouse.assembly_id)}$`));
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 20_000 });
  await expect(ui.getByTestId('parent-link')).toHaveText(String(lighthouse.assembly_id));
  await expect(ui.getByTestId('result-step')).toHaveAttribute('data-step', 'tiny');
  await expect(ui.getByTestId('result-card')).toContainText('16 × 11');
  const replayId = new URL(ui.url()).hash.split('/').pop()!;
  const replayed = await sdk.getAssembly(replayId);
  expect([replayed.ok, replayed.parent_id]).toEqual(['ASSEMBLY_COMPLETED', lighthouse.assembly_id]);
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('assembly-detail-dark.png'), animations: 'disabled', fullPage: true });
  await ui.emulateMedia({ colorScheme: 'light' });

  // The parent links to it, and Activity lists it first.
  await ui.getByTestId('parent-link').click();
  await expect(ui.getByTestId('replay-link')).toHaveText(replayId);
  await openActivity(ui);
  await expect(rows(ui).first()).toHaveAttribute('data-id', replayId);
  await expect(rows(ui).first()).toContainText('replay');
});

test('a failed batch is bulk-replayed from Activity after a confirmation that states the count', async ({ ui, running, workDir }) => {
  const sdk = await sdkFor(running);
  for (const name of ['night-1.jpg', 'night-2.jpg', 'night-3.jpg']) await brokenAssembly(sdk, workDir, name);
  await sdk.createAssembly({ files: { photo: await photo(workDir, 'fine.jpg') }, params: { steps }, waitForCompletion: true });

  await openActivity(ui);
  await expect(ui.getByTestId('activity-count')).toHaveText('4 Assemblies');
  await ui.getByRole('button', { name: 'Failed', exact: true }).click();
  await expect(ui.getByTestId('activity-count')).toHaveText('3 Assemblies match');
  await ui.getByRole('button', { name: 'Select all 3' }).click();
  await expect(ui.getByTestId('selection-count')).toHaveText('3 Assemblies selected');
  await ui.getByRole('button', { name: 'Replay 3…' }).click();
  const dialog = ui.getByRole('dialog', { name: 'Replay 3 Assemblies?' });
  await expect(dialog.getByTestId('replay-consequences')).toContainText('Each of the 3 selected Assemblies runs again');
  await ui.screenshot({ path: screenshotPath('activity-bulk-replay.png'), animations: 'disabled' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Replay 3' }).click();
  await expect(dialog).toBeHidden();

  // The whole list comes back with the replays at the top, followed live until they end (failing again,
  // on the same broken inputs).
  await expect(ui.getByTestId('activity-count')).toContainText('7 Assemblies');
  for (let i = 0; i < 3; i++) {
    await expect(rows(ui).nth(i)).toContainText('replay');
    await expect(rows(ui).nth(i).getByTestId('assembly-state')).toHaveText('Failed', { timeout: 20_000 });
  }
  await ui.getByRole('button', { name: 'Failed', exact: true }).click();
  await expect(ui.getByTestId('activity-count')).toHaveText('6 Assemblies match');
  const listed = await sdk.listAssemblies({ pagesize: 50 });
  const failedIds = listed.items.filter((a) => !a.parent_id && a.error).map((a) => a.id);
  const replays = listed.items.filter((a) => a.parent_id);
  expect(replays.map((a) => a.parent_id).sort()).toEqual([...failedIds].sort());
});

test('the running Assemblies a script started are canceled from Activity\'s selection; an ended one is left as it was', async ({ ui, running, workDir }) => {
  test.setTimeout(180_000);
  const sdk = await sdkFor(running);
  const done = await sdk.createAssembly({ files: { photo: await photo(workDir, 'kept.jpg') }, params: { steps }, waitForCompletion: true });
  // Two minutes of video up-scaled to 1080p: encodes that run until they are canceled.
  const clip = path.join(workDir, 'runaway.mp4');
  execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=120:size=320x180:rate=25', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', clip]);
  const encode = { ':original': { robot: '/upload/handle' }, encoded: { use: ':original', robot: '/video/encode', width: 1920, height: 1080 } };
  const runaway = await Promise.all([1, 2].map(() => sdk.createAssembly({ files: { clip }, params: { steps: encode }, waitForCompletion: false })));

  await openActivity(ui);
  await expect(ui.getByTestId('activity-count')).toContainText('3 Assemblies');
  // "Running" is a live view: an encode still uploading when it is chosen shows up once it executes.
  await ui.getByRole('button', { name: 'Running', exact: true }).click();
  await expect(ui.getByTestId('activity-count')).toContainText('2 Assemblies match', { timeout: 30_000 });
  // Both encodes run; back to every Assembly, and all three selected (the completed one too: ended ones
  // are left alone, as the dialog says).
  await ui.getByRole('button', { name: 'All', exact: true }).click();
  await expect(ui.getByTestId('activity-count')).toContainText('3 Assemblies');
  await ui.getByRole('button', { name: 'Select all 3' }).click();
  await expect(ui.getByTestId('selection-count')).toHaveText('3 Assemblies selected');
  await ui.getByRole('button', { name: 'Cancel 3…' }).click();
  const dialog = ui.getByRole('dialog', { name: 'Cancel 3 Assemblies?' });
  await expect(dialog.getByTestId('cancel-selection-consequences')).toContainText('Those that have already ended are left as they are.');
  await expect(dialog.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
  await ui.screenshot({ path: screenshotPath('activity-bulk-cancel.png'), animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Stop the running ones' }).click();
  await expect(dialog).toBeHidden();
  await expect(ui.getByText('Canceled 2 Assemblies; 1 had already ended and was left as it was.')).toBeVisible();

  await ui.getByRole('button', { name: 'Canceled', exact: true }).click();
  await expect(ui.getByTestId('activity-count')).toHaveText('2 Assemblies match');
  for (const a of runaway) expect((await sdk.getAssembly(String(a.assembly_id))).ok).toBe('ASSEMBLY_CANCELED');
  expect((await sdk.getAssembly(String(done.assembly_id))).ok).toBe('ASSEMBLY_COMPLETED');
});
