import { createHash, randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startHostedDeployment, type HostedDeployment } from '../../service/testing/hosted-deployment';
import { expect, test, type RunningApp } from '../fixtures/app';
import { bytesText } from '../fixtures/format';
import { generatePhotoFolder } from '../fixtures/images';
import { setEditorText } from '../fixtures/template-editor';
import { openAssembly, startTransfer, transferList } from '../fixtures/transfers';

/**
 * The app against a deployment like the hosted one (service/testing/hosted-deployment.ts), as a user meets
 * it: HTTPS signed by a company CA the system does not know, the API, the regional Assembly host, tus and
 * result files each on its own loopback address, 40 ms round trips (the fault proxy's link mode). The user
 * adds it as a second workspace with its CA file, drops a folder (photos and one larger file) notifying the
 * in-app webhook tester, follows the batch to its Assembly, saves the results to disk, reads Usage, finds the
 * notification in the tester (verified with this workspace's secret) and replays it, replays the Assembly
 * with new steps, reads Statistics, creates and edits a Template, Template credentials and an Auth Key, and
 * rotates the workspace's key — every request through the host it belongs to. One app start for all of it
 * (each costs npm test ~10 s of CPU). Browser host only: it answers the host's folder dialog through the
 * recording desktop.
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

test('a hosted-like deployment over TLS on four hosts: added with its CA file; a folder sent, followed, saved, notified and replayed; Usage, Statistics, Templates, credentials and keys managed there', async ({ ui, running, workDir }) => {
  test.setTimeout(420_000);
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
  // Notify the in-app webhook tester (a loopback receiver core runs): the deployment delivers there.
  await ui.getByRole('button', { name: /^Options/ }).click();
  await ui.getByRole('button', { name: 'Use the in-app tester' }).click();
  await expect(ui.getByRole('textbox', { name: 'Notify URL' })).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/webhook$/);
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

  // ---- Usage: what this test sent there, at factor 1: the uploads, the filter's input (every file) and
  // the resize's (the photos).
  const photoBytes = (await Promise.all(images.map(async (i) => (await stat(path.join(workDir, i.relativePath))).size))).reduce((a, b) => a + b, 0);
  await nav(ui, 'Usage').click();
  await expect(ui.getByTestId('bill-used-gb')).toHaveText(gbText(2 * (photoBytes + large.length) + photoBytes));

  // ---- The Assembly's detail: the deployment notified the webhook tester; the signature is verified with
  // this workspace's secret (the notification came from 127.0.0.x, not from Local).
  const assemblyId = run!.assemblyId!;
  await ui.evaluate((hash) => void ((globalThis as unknown as { location: { hash: string } }).location.hash = hash), `#/assemblies/${assemblyId}`);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
  const received = ui.getByTestId('webhook-tester').getByTestId('webhook-received').filter({ hasText: assemblyId });
  await expect(received).toHaveCount(1);
  await expect(received.getByTestId('webhook-verified')).toHaveText('✓ Verified (sha1)');
  await expect(received.getByTestId('webhook-verification')).toContainText('Company');
  await expect(ui.getByTestId('notification-attempt').first()).toContainText('200 OK');
  // Replayed to the tester through the API host: delivered, received and verified again.
  await ui.getByRole('button', { name: 'Use the webhook tester' }).click();
  const apiBefore = d.fronts.api.counts.forwarded;
  await ui.getByRole('button', { name: 'Replay notification' }).click();
  await expect(ui.getByTestId('notification-replay-result')).toContainText('Delivered · HTTP 200');
  await expect(received).toHaveCount(2);
  await expect(received.getByTestId('webhook-verified')).toHaveText(['✓ Verified (sha1)', '✓ Verified (sha1)']);
  expect(d.fronts.api.counts.forwarded).toBeGreaterThan(apiBefore);

  // ---- Replay the Assembly with new steps: a new Assembly on the deployment, followed until it completes,
  // linked to its parent, its results on the results host.
  await ui.getByRole('button', { name: 'Replay…' }).click();
  await ui.getByLabel('With new steps').check();
  await ui.getByLabel('New steps (JSON)').fill(JSON.stringify({ ':original': { robot: '/upload/handle' }, tiny: { use: ':original', robot: '/image/resize', width: 16 } }));
  await ui.getByRole('button', { name: 'Replay', exact: true }).click();
  await expect(ui).not.toHaveURL(new RegExp(`#/assemblies/${assemblyId}$`));
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 60_000 });
  await expect(ui.getByTestId('parent-link')).toHaveText(assemblyId);
  const replayId = new URL(ui.url()).hash.split('/').pop()!;
  const replayed = await app.app.core.handlers['assemblies:get']({ assemblyId: replayId });
  if (!replayed.ok) throw new Error(replayed.error.message);
  const replayStatus = replayed.value.status;
  const tiny = replayStatus.results?.tiny ?? [];
  expect(tiny.length).toBeGreaterThanOrEqual(images.length);
  expect(new Set(tiny.map((r) => new URL(r.ssl_url!).host))).toEqual(new Set([new URL(d.fronts.results.url).host]));
  await ui.getByTestId('parent-link').click();
  await expect(ui.getByTestId('replay-link')).toHaveText(replayId);

  // ---- Statistics: the two Assemblies, both successful, and the bytes the status records name.
  const resultBytes = (r: typeof replayStatus) => Object.values(r.results ?? {}).flat().reduce((n, f) => n + (f.size ?? 0), 0);
  await nav(ui, 'Statistics').click();
  const total = (id: string) => ui.getByTestId(`stats-total-${id}`);
  await expect(total('assemblies')).toHaveText('2');
  await expect(total('successful')).toHaveText('2');
  await expect(total('erroneous')).toHaveText('0');
  await expect(total('results')).toHaveText(bytesText(resultBytes(full.value.status!) + resultBytes(replayStatus)));
  await expect(ui.getByTestId('stats-resolution')).toContainText('By the hour');

  // ---- Templates: created and edited on the deployment, through the editor.
  await nav(ui, 'Templates').click();
  await expect(ui.getByText('No Templates yet')).toBeVisible();
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await ui.getByTestId('template-name').fill('Company thumbnails');
  const template = (width: number) => JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, small: { robot: '/image/resize', use: ':original', width } } }, null, 2);
  await setEditorText(ui, template(200));
  await expect(ui.getByTestId('template-check')).toContainText('Looks valid');
  await ui.getByRole('button', { name: 'Save Template' }).click();
  await expect(ui.getByTestId('template-detail')).toContainText('Company thumbnails');
  await expect(ui.getByTestId('templates-range')).toHaveText('1–1 of 1');
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Edit' }).click();
  await setEditorText(ui, template(300));
  await ui.getByRole('button', { name: 'Review and save…' }).click();
  const review = ui.getByRole('dialog', { name: 'Review your changes' });
  await expect(review.getByTestId('template-diff')).toContainText('300');
  await review.getByRole('button', { name: 'Save changes' }).click();
  await expect(ui.getByTestId('template-detail').locator('.cm-content')).toContainText('300');

  // ---- Template credentials: one value, write-only, replaced on an edit.
  await nav(ui, 'Credentials').click();
  await expect(ui.getByText('No credentials yet')).toBeVisible();
  await ui.getByRole('button', { name: 'New credentials' }).click();
  await ui.getByTestId('credential-name').fill('company_token');
  await ui.getByRole('combobox', { name: 'Type' }).selectOption('http');
  await ui.getByRole('radio', { name: 'One value' }).check();
  await ui.getByTestId('credential-value').fill('sk-company-first');
  await ui.getByRole('button', { name: 'Save credentials' }).click();
  const credential = ui.getByTestId('credential-row').filter({ hasText: 'company_token' });
  await expect(credential.getByText('value set')).toBeVisible();
  await credential.getByRole('button', { name: 'Edit company_token' }).click();
  await expect(ui.getByTestId('credential-value')).toHaveAttribute('placeholder', 'Stored — leave empty to keep it');
  await ui.getByTestId('credential-value').fill('sk-company-second');
  await ui.getByRole('button', { name: 'Save credentials' }).click();
  await expect(ui.getByRole('form', { name: 'Edit company_token' })).toHaveCount(0);
  await expect(credential.getByText('value set')).toBeVisible();
  expect(await ui.content()).not.toContain('sk-company-');

  // ---- Auth Keys: a new key, its description edited; then the workspace's own key rotated.
  await nav(ui, 'Auth Keys').click();
  await expect(ui.getByTestId('auth-key-row').filter({ hasText: d.service.authKey })).toContainText('This workspace');
  await ui.getByRole('button', { name: 'New key' }).click();
  await ui.getByLabel('Description').fill('Company CI');
  await ui.getByRole('button', { name: 'Create key' }).click();
  const ciRow = ui.getByTestId('auth-key-row').filter({ hasText: 'Company CI' });
  await expect(ciRow).toBeVisible();
  const ciKey = (await ciRow.getAttribute('data-key'))!;
  await ciRow.getByRole('button', { name: `Edit ${ciKey}` }).click();
  await ui.getByLabel('Description').fill('Company CI nightly');
  await ui.getByRole('button', { name: 'Save key' }).click();
  await expect(ui.getByTestId('auth-key-row').filter({ hasText: 'Company CI nightly' })).toHaveAttribute('data-key', ciKey);

  await nav(ui, 'Workspaces').click();
  await ui.getByRole('button', { name: 'Rotate key of Company' }).click();
  await ui.getByRole('button', { name: 'Rotate key', exact: true }).click();
  const rotation = ui.getByTestId('rotation-panel').first();
  await expect(rotation).toHaveAttribute('data-state', 'done');
  // On the new key every screen still reads the deployment; the old one is inactive there.
  await nav(ui, 'Templates').click();
  await expect(ui.locator('.template-row', { hasText: 'Company thumbnails' })).toBeVisible();
  await nav(ui, 'Auth Keys').click();
  await expect(ui.getByTestId('auth-key-row').filter({ hasText: d.service.authKey }).getByTestId('key-state')).toHaveText('Inactive');
  await expect(ui.getByTestId('auth-key-row').filter({ hasText: 'This workspace' })).not.toContainText(d.service.authKey);
});
