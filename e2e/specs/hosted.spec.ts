import { createHash, randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { dispatch } from '../../electron/core/ipc/dispatch';
import { startHostedDeployment, type HostedDeployment } from '../../service/testing/hosted-deployment';
import { expect, test, type RunningApp } from '../fixtures/app';
import { generatePhotoFolder } from '../fixtures/images';
import { openAssembly, startTransfer, transferList } from '../fixtures/transfers';

/**
 * The app against a deployment like the hosted one (service/testing/hosted-deployment.ts), as a user meets
 * it: HTTPS signed by a company CA the system does not know, the API, the regional Assembly host, tus and
 * result files each on its own loopback address, 40 ms round trips (the fault proxy's link mode). The user
 * adds it as a second workspace with its CA file, drops a folder (photos and one larger file), follows the
 * batch to its Assembly, saves the results to disk, and reads Templates and Usage — every request through
 * the host it belongs to. Browser host only: it answers the host's folder dialog through the recording desktop.
 */

const GB = 1024 ** 3;
const gbText = (bytes: number): string => `${(bytes / GB).toLocaleString('en-US', { maximumSignificantDigits: 3 })} GB`;
const md5 = async (file: string) => createHash('md5').update(await readFile(file)).digest('hex');
const nav = (ui: Page, name: string | RegExp) => ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: typeof name === 'string' });

let d: HostedDeployment;
test.beforeEach(async ({ workDir }) => {
  d = await startHostedDeployment({ dataDir: path.join(workDir, 'hosted-service'), link: { rttMs: 40, uplinkBps: 0 } });
});
test.afterEach(async () => {
  await d?.close();
});

const browserHost = (running: RunningApp) => {
  if (running.kind !== 'browser-host') throw new Error('hosted.spec.ts answers host dialogs through the browser host');
  return running;
};

test('a hosted-like deployment over TLS on four hosts: added with its CA file, a folder sent, followed, saved to disk; Templates and Usage read there', async ({ ui, running, workDir }) => {
  test.setTimeout(300_000);
  const app = browserHost(running);
  const caFile = path.join(workDir, 'company-ca.pem');
  await writeFile(caFile, d.caPem);
  await writeFile(path.join(workDir, 'notes.txt'), 'not a certificate');

  // ---- Workspaces: add it the way a user adds a remote deployment.
  await nav(ui, 'Workspaces').click();
  await ui.getByRole('button', { name: 'Add workspace' }).click();
  await ui.getByLabel('Workspace name').fill('Company');
  await ui.getByLabel('API endpoint').fill(d.endpoint);
  await ui.getByLabel('Auth Key', { exact: true }).fill(d.service.authKey);
  await ui.getByLabel('Auth Secret', { exact: true }).fill(d.service.authSecret);
  // Without its CA the certificate is said to be untrusted, never "fetch failed".
  await ui.getByRole('button', { name: 'Test connection' }).click();
  await expect(ui.getByTestId('check-reach')).toHaveAttribute('data-status', 'fail');
  await expect(ui.getByTestId('check-reach')).toContainText('TLS_CERT_UNTRUSTED');
  await expect(ui.getByTestId('check-reach')).toContainText(/does not trust the certificate of https:\/\/127\.0\.0\.2:\d+/);
  // A file that is no CA is refused at the field; what was typed stays.
  await ui.getByLabel('CA file').setInputFiles(path.join(workDir, 'notes.txt'));
  await expect(ui.getByTestId('ca-file-problem')).toContainText('CA_FILE_INVALID');
  await expect(ui.getByLabel('API endpoint')).toHaveValue(d.endpoint);
  await expect(ui.getByLabel('Auth Secret', { exact: true })).toHaveValue(d.service.authSecret);
  await ui.getByLabel('CA file').setInputFiles(caFile);
  await expect(ui.getByTestId('ca-file-state')).toContainText('Trusts Assemblyline Hosted Test CA until');
  await expect(ui.getByTestId('ca-file-problem')).toHaveCount(0);
  await ui.getByRole('button', { name: 'Test connection' }).click();
  await expect(ui.getByTestId('connection-report')).toContainText('Connection works');
  await ui.getByRole('button', { name: 'Save workspace' }).click();
  await expect(ui.getByTestId('workspace-row')).toHaveCount(2);
  await ui.getByLabel('Switch workspace').selectOption({ label: 'Company' });
  await expect(ui.locator('.workspace-url')).toHaveText(d.endpoint);

  // ---- Upload: a folder of photos and one larger file, resized on the deployment.
  const { dir, images } = await generatePhotoFolder(workDir, 'photos');
  const large = randomBytes(12 * 1024 * 1024);
  await writeFile(path.join(dir, 'footage.bin'), large);
  await nav(ui, 'Upload').click();
  await ui.getByLabel('Choose folder').setInputFiles(dir);
  await expect(ui.getByTestId('file-row')).toHaveCount(images.length + 1);
  await ui.getByText('Resize images to 1024 px').click();
  const tusBefore = d.fronts.tus.counts.forwarded;
  await startTransfer(ui, `Start · ${images.length + 1} files`);
  const batch = transferList(ui).getByTestId('transfer-batch');
  await expect(batch.getByTestId('batch-state')).toHaveText('Completed', { timeout: 180_000 });
  // The large file went by tus to the host the Assembly named (small ones may ride in the create request's
  // body, on the API host); the status came from the regional host.
  expect(d.fronts.tus.counts.forwarded - tusBefore).toBeGreaterThanOrEqual(2);
  expect(d.fronts.regional.counts.forwarded).toBeGreaterThan(0);

  // The Assembly view: Completed, with its results, read from the deployment.
  await openAssembly(ui);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
  const run = app.app.core.runs.list().find((r) => r.state === 'ASSEMBLY_COMPLETED' && r.workspaceId !== 'local');
  expect(run).toBeDefined();
  const full = await app.app.core.runs.settled(run!.runId);
  if (!full.ok) throw new Error(full.error.message);
  const resized = full.value.status?.results?.resized ?? [];
  expect(resized.map((r) => new URL(r.ssl_url!).host)).toEqual(images.map(() => new URL(d.fronts.results.url).host));
  const uploads = full.value.status?.uploads ?? [];
  expect(uploads.find((u) => u.name === 'footage.bin')?.md5hash).toBe(createHash('md5').update(large).digest('hex'));

  // ---- Results to disk, from the results host, each checked against the service's md5.
  await nav(ui, /^Transfers/).click();
  await transferList(ui).focus();
  await ui.keyboard.press('Home');
  await ui.getByTestId('transfer-target').getByRole('button', { name: 'Save results to folder…' }).click();
  const dialog = ui.getByRole('dialog', { name: 'Save results to folder' });
  const out = path.join(workDir, 'out');
  app.desktop.dialogAnswers.push(out);
  await dialog.getByRole('button', { name: 'Choose folder…' }).click();
  await expect(dialog.getByTestId('mirror-folder')).toHaveText(out);
  const resultsBefore = d.fronts.results.counts.forwarded;
  await dialog.getByRole('button', { name: 'Save results' }).click();
  await expect(dialog.getByTestId('mirror-summary')).toHaveText(`${images.length} written · 0 skipped · ${images.length} verified · 0 failed`, { timeout: 60_000 });
  expect(d.fronts.results.counts.forwarded - resultsBefore).toBeGreaterThanOrEqual(images.length);
  for (const image of images) {
    const record = resized.find((r) => r.name === path.posix.basename(image.relativePath))!;
    expect(await md5(path.join(out, 'resized', ...image.relativePath.split('/')))).toBe(record.md5hash);
  }
  await dialog.getByRole('button', { name: 'Close' }).click();

  // ---- Templates: the deployment's own, listed.
  const created = await dispatch(app.app.core.handlers, 'templates:create', { name: 'Company thumbnails', content: { steps: { ':original': { robot: '/upload/handle' } } } });
  expect(created).toMatchObject({ ok: true });
  await nav(ui, 'Templates').click();
  await expect(ui.getByText('Company thumbnails')).toBeVisible();
  await expect(ui.getByTestId('templates-range')).toHaveText('1–1 of 1');

  // ---- Usage: what this test sent there, at factor 1: the uploads, the filter's input (every file) and
  // the resize's (the photos).
  const photoBytes = (await Promise.all(images.map(async (i) => (await stat(path.join(workDir, i.relativePath))).size))).reduce((a, b) => a + b, 0);
  await nav(ui, 'Usage').click();
  await expect(ui.getByTestId('bill-used-gb')).toHaveText(gbText(2 * (photoBytes + large.length) + photoBytes));
});
