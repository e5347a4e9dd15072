import { open } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { openAssembly, startTransfer, transferList } from '../fixtures/transfers';

// The embedded service runs in its own process; the page tells the user what happens to it and to the
// app itself, instead of keeping a green dot and "Uploading" while nothing answers.

test('the local service is killed mid-upload: the header says it restarts, and the upload completes', async ({ ui, running, workDir }) => {
  if (running.kind !== 'browser-host') throw new Error('browser host only (see playwright.config.ts)');
  const big = path.join(workDir, 'footage.bin');
  const handle = await open(big, 'w');
  await handle.truncate(200 * 1024 * 1024);
  await handle.close();

  await ui.getByLabel('Choose files').setInputFiles(big);
  await expect(ui.getByTestId('file-row').filter({ hasText: 'footage.bin' })).toHaveCount(1);
  await ui.getByText('Just store the originals').click();
  await startTransfer(ui, 'Start · 1 file');
  await openAssembly(ui);
  const state = ui.getByTestId('assembly-state');
  await expect(state).toHaveText('Uploading');

  process.kill(running.app.core.localServicePid()!, 'SIGKILL');
  const banner = ui.getByRole('alert', { name: 'Connection' });
  await expect(banner).toContainText('Local service restarting…');
  await expect(ui.getByTestId('connection-dot')).toHaveAttribute('aria-label', 'Local service not running');
  await ui.screenshot({ path: screenshotPath('service-restarting.png'), animations: 'disabled' });
  // Back on the same port: the banner goes, the dot is green, and the upload resumed to the end.
  await expect(banner).toHaveCount(0);
  await expect(ui.getByTestId('connection-dot')).toHaveAttribute('aria-label', 'Connected');
  await expect(state).toHaveText('Completed');
  // And Transfers shows the file checked against the service's md5, sent once.
  await ui.getByTestId('files-in-transfers').getByRole('button', { name: 'Show its files in Transfers' }).click();
  await expect(transferList(ui).getByTestId('transfer-row').filter({ hasText: 'footage.bin' })).toHaveAttribute('data-state', 'verified');
  await expect(ui.getByRole('button', { name: /^Failed 0$/ })).toBeVisible();
});

test('the app goes away: the page says it is disconnected instead of showing a green dot', async ({ ui, running }) => {
  if (running.kind !== 'browser-host') throw new Error('browser host only (see playwright.config.ts)');
  await expect(ui.getByTestId('connection-dot')).toHaveAttribute('aria-label', 'Connected');
  await running.app.host.close();
  await expect(ui.getByRole('alert', { name: 'Connection' })).toContainText('Disconnected from Assemblyline.');
  await expect(ui.getByTestId('connection-dot')).toHaveAttribute('aria-label', 'Disconnected');
  // What the user does next fails at once with a clear code rather than hanging.
  await ui.getByRole('button', { name: 'Activity' }).click();
  await expect(ui.getByText('HOST_DISCONNECTED').first()).toBeVisible();
  await ui.screenshot({ path: screenshotPath('host-disconnected.png'), animations: 'disabled' });
});
