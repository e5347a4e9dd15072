import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { createApiClient, type ApiClient } from '../../electron/core/api/api-client';
import { startLocalService, type LocalService } from '../../service/index';
import { startS3Server, type S3Server } from '../../service/testing/s3-server';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app';
import { launchConnected, quitApp } from '../fixtures/relaunch';

// "Try this Template here first": a second local service plays the remote workspace; its Template resizes
// and stores to an S3 server (s3rver on loopback) with Template Credentials only it has. The app is quit and
// started again on the same data: the try, its comparison and its Local copy are still there.
let remote: LocalService;
let s3: S3Server;
let remoteApi: ApiClient;

test.beforeEach(async ({ workDir }) => {
  [remote, s3] = await Promise.all([startLocalService({ dataDir: path.join(workDir, 'remote-service') }), startS3Server(['media'])]);
  remoteApi = createApiClient({ endpoint: remote.url, authKey: remote.authKey, getSecret: async () => remote.authSecret, maxRetries: 0 });
});
test.afterEach(async () => {
  await Promise.all([remote.close(), s3.stop()]);
});

async function bucketKeys(): Promise<string[]> {
  const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: s3.key, secretAccessKey: s3.secret } });
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'media' }));
    return (listed.Contents ?? []).map((o) => o.Key ?? '').sort();
  } finally {
    client.destroy();
  }
}

/** Everything the page received over the bridge and printed (to prove the remote secret never reached it). */
function recordTraffic(ui: Page, traffic: string[]): void {
  ui.on('console', (message) => traffic.push(`console: ${message.text()}`));
  ui.on('websocket', (socket) => socket.on('framereceived', (frame) => traffic.push(`received: ${String(frame.payload)}`)));
}

/** The try's comparison, per step, side by side: the same 64 × 43 thumbnail on both; the store step ran as each workspace could. */
async function expectComparison(panel: ReturnType<Page['getByTestId']>): Promise<void> {
  await expect(panel.getByTestId('trial-results')).toHaveAttribute('data-ended', 'true', { timeout: 120_000 });
  await expect(panel.getByTestId('trial-remote-state')).toContainText('Completed');
  await expect(panel.getByTestId('trial-local-state')).toContainText('Completed');
  const thumb = panel.locator('[data-testid="trial-step"][data-step="thumb"]');
  await expect(thumb.getByTestId('trial-remote')).toContainText(/^1 file · [\d.]+ (B|KB) · 64×43$/);
  await expect(thumb.getByTestId('trial-local')).toContainText(/^1 file · [\d.]+ (B|KB) · 64×43$/);
  const exported = panel.locator('[data-testid="trial-step"][data-step="exported"]');
  await expect(exported).toContainText('/s3/store → /transloadit/store');
  await expect(exported.getByTestId('trial-remote')).toContainText('1 file');
  await expect(exported.getByTestId('trial-local')).toContainText('1 file');
}

async function openTry(ui: Page): Promise<ReturnType<Page['getByTestId']>> {
  await ui.getByLabel('Switch workspace').selectOption({ label: 'Studio' });
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.getByRole('button', { name: /Thumbnails to the media bucket/ }).click();
  await ui.getByRole('button', { name: 'Try this Template here first' }).click();
  return ui.getByTestId('template-trial');
}

test('an admin tries a remote Template on this computer first: the S3 step is swapped and said, both runs compared per step, all of it kept over a restart', async ({ browser, workDir }) => {
  test.setTimeout(300_000);
  const traffic: string[] = [];
  const dataDir = path.join(workDir, 'app-data');
  const credentials = await remoteApi.request('POST', '/template_credentials', { name: 'media-bucket', type: 's3', content: { bucket: 'media', bucket_region: 'us-east-1', key: s3.key, secret: s3.secret, host: s3.endpoint } });
  expect(credentials.ok).toBe(true);
  const steps = {
    ':original': { robot: '/upload/handle' },
    thumb: { robot: '/image/resize', use: ':original', width: 64, height: 64, resize_strategy: 'fit', result: true },
    exported: { robot: '/s3/store', use: 'thumb', credentials: 'media-bucket', path: 'thumbs/${file.name}' },
  };
  const made = await remoteApi.request('POST', '/templates', { name: 'Thumbnails to the media bucket', template: JSON.stringify({ steps }) });
  expect(made.ok).toBe(true);
  const photo = path.join(workDir, 'harbour.jpg');
  await sharp({ create: { width: 300, height: 200, channels: 3, background: '#2a7fbf' } }).jpeg().toFile(photo);

  const first = await launchConnected(browser, dataDir);
  recordTraffic(first.ui, traffic);
  try {
    const ui = first.ui;
    // The remote workspace, added as a user adds one, and made active.
    await ui.getByRole('button', { name: 'Workspaces' }).click();
    await ui.getByRole('button', { name: 'Add workspace' }).click();
    await ui.getByLabel('Workspace name').fill('Studio');
    await ui.getByLabel('API endpoint').fill(remote.url);
    await ui.getByLabel('Auth Key', { exact: true }).fill(remote.authKey);
    await ui.getByLabel('Auth Secret', { exact: true }).fill(remote.authSecret);
    await ui.getByRole('button', { name: 'Save workspace' }).click();
    await expect(ui.getByTestId('workspace-row')).toHaveCount(2);
    await ui.getByLabel('Switch workspace').selectOption({ label: 'Studio' });

    await ui.getByRole('button', { name: 'Templates' }).click();
    await ui.getByRole('button', { name: /Thumbnails to the media bucket/ }).click();
    await ui.getByRole('button', { name: 'Try this Template here first' }).click();
    const panel = ui.getByTestId('template-trial');
    await expect(panel.getByRole('button', { name: 'Run on both' })).toBeDisabled();
    await panel.getByLabel('Files to try').setInputFiles(photo);
    await expect(panel.getByTestId('trial-chosen')).toHaveText('1 file chosen');
    await panel.getByRole('button', { name: 'Run on both' }).click();

    // What the copy changed, said before anything ran: the S3 step, and why.
    const change = panel.getByTestId('trial-change');
    await expect(change).toHaveCount(1);
    await expect(change).toContainText('exported /s3/store → /transloadit/store');
    await expect(change).toContainText('no Template Credentials named "media-bucket"');

    await expectComparison(panel);

    // Only the remote run wrote to the bucket; the try kept its copy on this computer.
    expect(await bucketKeys()).toEqual(['thumbs/harbour.jpg']);
    // Each side links to its Assembly view: the one on this computer opens, completed, at its Assembly's URL.
    await expect(panel.getByRole('link', { name: 'Open the Assembly on Studio' })).toHaveAttribute('href', /^#\/run\//);
    await panel.getByRole('link', { name: 'Open the Assembly on this computer' }).click();
    await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
    await expect(ui).toHaveURL(/#\/assemblies\/[0-9a-f]{32}$/);
    // The Local workspace now has the copy, swapped step and all.
    await ui.getByLabel('Switch workspace').selectOption({ index: 0 });
    await ui.getByRole('button', { name: 'Templates' }).click();
    await ui.getByRole('button', { name: /Thumbnails to the media bucket \(tried here\)/ }).click();
    await expect(ui.getByTestId('template-content')).toContainText('/transloadit/store');
    await expect(ui.getByTestId('template-content')).not.toContainText('media-bucket');
    await expect(ui.getByRole('button', { name: 'Try this Template here first' })).toHaveCount(0);
  } finally {
    await quitApp(first);
  }

  // The app quit and started again on the same data: the Template's try is shown as it ended, its comparison
  // rebuilt from the two runs, and its Assembly on this computer still opens.
  const second = await launchConnected(browser, dataDir);
  recordTraffic(second.ui, traffic);
  try {
    const ui = second.ui;
    const panel = await openTry(ui);
    await expectComparison(panel);
    await expect(panel.getByTestId('trial-change')).toContainText('exported /s3/store → /transloadit/store');
    // A new try after the restart updates the same Local copy: still one "(tried here)" Template.
    const remoteLink = panel.getByRole('link', { name: 'Open the Assembly on Studio' });
    const before = await remoteLink.getAttribute('href');
    await panel.getByLabel('Files to try').setInputFiles(photo);
    await panel.getByRole('button', { name: 'Run on both' }).click();
    await expect(remoteLink).toHaveAttribute('href', /^#\/run\//);
    await expect.poll(() => remoteLink.getAttribute('href'), { timeout: 120_000 }).not.toBe(before);
    await expectComparison(panel);
    expect(await bucketKeys()).toEqual(['thumbs/harbour.jpg']);
    await panel.getByRole('link', { name: 'Open the Assembly on this computer' }).click();
    await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
    await ui.getByLabel('Switch workspace').selectOption({ index: 0 });
    await ui.getByRole('button', { name: 'Templates' }).click();
    await expect(ui.getByRole('button', { name: /Thumbnails to the media bucket \(tried here\)/ })).toHaveCount(1);
  } finally {
    await quitApp(second);
  }

  // The remote secret went out once, as typed, and never came back to the page.
  expect(traffic.join('\n').includes(remote.authSecret)).toBe(false);
});
