import { open } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '../fixtures/app';

test('a user cancels a large upload while it is uploading', async ({ ui, workDir }) => {
  // 300 MB of real bytes on disk (sparse: instant to create, read like any file).
  const big = path.join(workDir, 'big-footage.bin');
  const handle = await open(big, 'w');
  await handle.truncate(300 * 1024 * 1024);
  await handle.close();

  await ui.getByLabel('Choose files').setInputFiles(big);
  await expect(ui.getByTestId('file-row').filter({ hasText: 'big-footage.bin' })).toHaveCount(1);
  await ui.getByText('Just store the originals').click();
  await ui.getByRole('button', { name: /^Start/ }).click();

  const state = ui.getByTestId('run-state');
  await expect(state).toHaveText(/Creating|Uploading/);
  await ui.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(state).toHaveText('Canceled');
  // Nothing left running: no Cancel button, and the file did not finish uploading.
  await expect(ui.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
  await expect(ui.getByTestId('result-card')).toHaveCount(0);
});
