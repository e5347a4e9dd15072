import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';

async function addOnePhoto(ui: import('@playwright/test').Page, workDir: string): Promise<void> {
  const file = path.join(workDir, 'photo.jpg');
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#369' } }).jpeg().toFile(file);
  await ui.getByLabel('Choose files').setInputFiles(file);
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
}

test('custom steps with an unknown robot fail with the service error code and message', async ({ ui, workDir }) => {
  await addOnePhoto(ui, workDir);
  await ui.getByText('Custom steps (JSON)').click();
  const editor = ui.getByTestId('steps-editor');
  await editor.fill(JSON.stringify({ ':original': { robot: '/upload/handle' }, sparkle: { robot: '/image/sparkle', use: ':original' } }, null, 2));
  await expect(ui.getByTestId('steps-error')).toHaveCount(0);
  await ui.getByRole('button', { name: /^Start/ }).click();

  const error = ui.getByTestId('run-error');
  await expect(error).toContainText('ASSEMBLY_STEP_UNKNOWN_ROBOT');
  await expect(error).toContainText('/image/sparkle');
  await expect(ui.getByTestId('run-state')).toHaveText('Failed');
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
