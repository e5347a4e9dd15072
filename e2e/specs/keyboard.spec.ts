import { open } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { startTransfer, transferList } from '../fixtures/transfers';

/** Keyboard only, with real focus in Chromium: the admin forms' Escape and the Transfers keys. */

test('Escape closes an inline form, asks first when something was typed, and the focus goes back to its button', async ({ ui }) => {
  await ui.getByRole('button', { name: 'Workspaces' }).click();
  const add = ui.getByRole('button', { name: 'Add workspace' });
  await add.focus();
  await ui.keyboard.press('Enter');
  const form = ui.getByRole('form', { name: 'Add a workspace' });
  // The form takes the focus: typing goes straight into it.
  await expect(ui.getByLabel('Workspace name')).toBeFocused();
  await ui.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  await expect(add).toBeFocused();

  await ui.keyboard.press('Enter');
  await ui.keyboard.type('Production');
  await ui.keyboard.press('Escape');
  const dialog = ui.getByRole('dialog', { name: 'Discard your changes?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await ui.screenshot({ path: screenshotPath('keyboard-discard-changes.png'), animations: 'disabled' });
  // Escape in the question keeps editing, where the user was.
  await ui.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(ui.getByLabel('Workspace name')).toBeFocused();
  await expect(ui.getByLabel('Workspace name')).toHaveValue('Production');
  await ui.keyboard.press('Escape');
  await ui.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Discard changes' })).toBeFocused();
  await ui.keyboard.press('Enter');
  await expect(form).toHaveCount(0);
  await expect(add).toBeFocused();
});

test('a keyboard user pauses, resumes, cancels (after confirming) and retries a batch from the Transfers list', async ({ ui, workDir }) => {
  const big = path.join(workDir, 'footage.bin');
  const handle = await open(big, 'w');
  await handle.truncate(200 * 1024 * 1024);
  await handle.close();
  // 2 MB/s at most, so the batch is still uploading while the keys are pressed.
  await ui.getByRole('button', { name: /^Transfers/ }).click();
  await ui.getByRole('button', { name: 'Settings' }).click();
  const limit = ui.getByLabel('Bandwidth limit');
  await limit.fill('2');
  await limit.press('Enter');
  await ui.getByRole('button', { name: 'Close' }).click();
  await ui.getByRole('button', { name: 'Upload', exact: true }).click();
  await ui.getByLabel('Choose files').setInputFiles(big);
  await ui.getByText('Just store the originals').click();
  await startTransfer(ui, 'Start · 1 file');

  const list = transferList(ui);
  const batch = list.getByTestId('transfer-batch').first();
  const state = batch.getByTestId('batch-state');
  await expect(state).toHaveText(/Queued|Creating|Uploading/);
  await list.focus();
  await ui.keyboard.press('ArrowDown');
  // The bar above the list names the focused batch and holds its actions; the keys are listed beside it.
  const bar = ui.getByTestId('transfer-target');
  await expect(bar).toContainText('Assembly 1 ·');
  await expect(ui.locator('#transfer-keys')).toContainText('resume or retry');
  await ui.screenshot({ path: screenshotPath('keyboard-transfers-batch.png'), animations: 'disabled' });

  await ui.keyboard.press('p');
  await expect(state).toHaveText('Paused');
  await expect(bar.getByRole('button', { name: 'Resume batch' })).toBeVisible();
  await ui.keyboard.press('r');
  await expect(state).toHaveText(/Queued|Creating|Uploading/);

  await ui.keyboard.press('Delete');
  const dialog = ui.getByRole('dialog', { name: /^Cancel the batch Assembly 1 · / });
  await expect(dialog.getByRole('button', { name: 'Keep sending' })).toBeFocused();
  await ui.keyboard.press('Tab');
  await ui.keyboard.press('Enter');
  await expect(state).toHaveText('Canceled');
  // The focus is back in the list, on the same line: R sends the batch again.
  await expect(list).toBeFocused();
  await ui.keyboard.press('r');
  await expect(state).not.toHaveText('Canceled');
  await ui.getByRole('button', { name: 'Cancel all' }).click();
  await ui.getByRole('dialog', { name: 'Cancel every transfer?' }).getByRole('button', { name: 'Cancel all' }).click();
});
