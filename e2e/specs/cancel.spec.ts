import { open } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { openAssembly, startTransfer, transferList } from '../fixtures/transfers';

test('a user cancels a large upload while it is uploading', async ({ ui, workDir }) => {
  // 300 MB of real bytes on disk (sparse: instant to create, read like any file).
  const big = path.join(workDir, 'big-footage.bin');
  const handle = await open(big, 'w');
  await handle.truncate(300 * 1024 * 1024);
  await handle.close();

  // 20 MB/s at most, so the upload is still going while the user reads the confirmation.
  await ui.getByRole('button', { name: /^Transfers/ }).click();
  await ui.getByRole('button', { name: 'Settings' }).click();
  const limit = ui.getByLabel('Bandwidth limit');
  await limit.fill('20');
  await limit.press('Enter');
  await ui.getByRole('button', { name: 'Close' }).click();
  await ui.getByRole('button', { name: 'Upload', exact: true }).click();

  await ui.getByLabel('Choose files').setInputFiles(big);
  await expect(ui.getByTestId('file-row').filter({ hasText: 'big-footage.bin' })).toHaveCount(1);
  await ui.getByText('Just store the originals').click();
  await startTransfer(ui, 'Start · 1 file');
  await openAssembly(ui);

  const state = ui.getByTestId('assembly-state');
  await expect(state).toHaveText(/Creating|Uploading/);
  // Canceling asks first, with Cancel focused: Cancel in the dialog keeps the Assembly going.
  await ui.getByRole('button', { name: 'Cancel Assembly…' }).click();
  const dialog = ui.getByRole('dialog', { name: 'Cancel this Assembly?' });
  await expect(dialog).toContainText('The file is not uploaded completely yet; nothing more of it is sent.');
  await expect(dialog.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
  await ui.screenshot({ path: screenshotPath('run-cancel-confirm.png'), animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(state).toHaveText(/Creating|Uploading/);

  await ui.getByRole('button', { name: 'Cancel Assembly…' }).click();
  await dialog.getByRole('button', { name: 'Stop the Assembly' }).click();
  await expect(state).toHaveText('Canceled');
  // Nothing left running: no Cancel button, and the file did not finish uploading.
  await expect(ui.getByRole('button', { name: 'Cancel Assembly…' })).toHaveCount(0);
  await expect(ui.getByTestId('result-card')).toHaveCount(0);

  // Transfers tells the same story: the batch is canceled and its file did not arrive.
  // Nothing is left to go: the sidebar's badge goes.
  await expect(ui.getByTestId('transfers-badge')).toHaveCount(0);
  await ui.getByTestId('files-in-transfers').getByRole('button', { name: 'Show its files in Transfers' }).click();
  const batch = transferList(ui).getByTestId('transfer-batch');
  await expect(batch.getByTestId('batch-state')).toHaveText('Canceled');
  await expect(transferList(ui).getByTestId('transfer-row').filter({ hasText: 'big-footage.bin' })).toHaveAttribute('data-state', 'canceled');
});
