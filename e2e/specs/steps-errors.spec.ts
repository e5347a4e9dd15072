import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';
import { startTransfer, transferList } from '../fixtures/transfers';

async function addOnePhoto(ui: import('@playwright/test').Page, workDir: string): Promise<void> {
  const file = path.join(workDir, 'photo.jpg');
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#369' } }).jpeg().toFile(file);
  await ui.getByLabel('Choose files').setInputFiles(file);
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
}

test('custom steps with a robot the local service does not run fail with the service error code and message', async ({ ui, workDir }) => {
  await addOnePhoto(ui, workDir);
  await ui.getByText('Custom steps (JSON)').click();
  const editor = ui.getByTestId('steps-editor');
  // A robot that does not exist at all is caught in the editor, by the same rules the service applies.
  await editor.fill(JSON.stringify({ ':original': { robot: '/upload/handle' }, sparkle: { robot: '/image/sparkle', use: ':original' } }, null, 2));
  await expect(ui.getByTestId('steps-error')).toContainText('uses the robot "/image/sparkle", which does not exist');
  // One the real service has but the local one does not run is the service's to refuse.
  await editor.fill(JSON.stringify({ ':original': { robot: '/upload/handle' }, merged: { robot: '/image/merge', use: ':original' } }, null, 2));
  await expect(ui.getByTestId('steps-error')).toHaveCount(0);
  await startTransfer(ui, 'Start · 1 file');

  // The service refuses to create the Assembly, so there is no Assembly to open: Transfers says why, at
  // the batch and at its file, with the service's code, and offers a retry.
  const batch = transferList(ui).getByTestId('transfer-batch');
  await expect(batch.getByTestId('batch-state')).toHaveText('Failed');
  await expect(batch).toContainText('ASSEMBLY_STEP_UNKNOWN_ROBOT');
  await expect(batch.getByRole('button', { name: /^Open the Assembly of / })).toHaveCount(0);
  const error = transferList(ui).getByTestId('transfer-row').filter({ hasText: 'photo.jpg' }).getByTestId('transfer-error');
  await expect(error).toContainText('ASSEMBLY_STEP_UNKNOWN_ROBOT');
  await expect(error).toContainText('/image/merge');
  // The line is cut to fit; the whole reason is one hover away.
  await expect(error).toHaveAttribute('title', /\/image\/merge/);
  await expect(ui.getByRole('button', { name: /^Failed 1$/ })).toBeVisible();
  await expect(ui.getByRole('button', { name: 'Retry photo.jpg' })).toBeVisible();
});

test('invalid JSON in the steps editor is shown at the field and Start stays disabled', async ({ ui, workDir }) => {
  await addOnePhoto(ui, workDir);
  await ui.getByText('Custom steps (JSON)').click();
  const editor = ui.getByTestId('steps-editor');
  await editor.fill('{ ":original": { "robot": "/upload/handle" }, }');
  await expect(ui.getByTestId('steps-error')).toBeVisible();
  await expect(editor).toHaveAttribute('aria-invalid', 'true');
  await expect(ui.getByRole('button', { name: /^Start/ })).toBeDisabled();
  await expect(ui.getByText('Fix the JSON in the steps editor to start.')).toBeVisible();

  // Fixing it enables Start again.
  await editor.fill('{ ":original": { "robot": "/upload/handle", "result": true } }');
  await expect(ui.getByTestId('steps-error')).toHaveCount(0);
  await expect(ui.getByRole('button', { name: /^Start/ })).toBeEnabled();
});
