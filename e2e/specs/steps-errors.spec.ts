import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { setStepsText } from '../fixtures/steps-editor';

async function addOnePhoto(ui: import('@playwright/test').Page, workDir: string): Promise<void> {
  const file = path.join(workDir, 'photo.jpg');
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#369' } }).jpeg().toFile(file);
  await ui.getByLabel('Choose files').setInputFiles(file);
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
}

test('custom steps with a robot the local service does not run fail with the service error code and message', async ({ ui, workDir }) => {
  await addOnePhoto(ui, workDir);
  await ui.getByText('Custom steps (JSON)').click();
  // A robot that does not exist at all is caught in the editor, by the same rules the service applies.
  const sparkle = JSON.stringify({ ':original': { robot: '/upload/handle' }, sparkle: { robot: '/image/sparkle', use: ':original' } }, null, 2);
  await setStepsText(ui, sparkle);
  await expect(ui.getByTestId('steps-error')).toContainText('uses the robot "/image/sparkle", which does not exist');
  // Marked at its line in the editor, as the list says.
  const robotLine = sparkle.split('\n').findIndex((l) => l.includes('/image/sparkle')) + 1;
  await expect(ui.getByTestId('steps-error-line')).toHaveText(`Line ${robotLine}`);
  const marked = ui.getByTestId('steps-editor').locator('.cm-line', { has: ui.locator('.cm-lintRange-error') });
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText('/image/sparkle');
  await expect(ui.getByTestId('steps-editor').locator('.cm-lint-marker-error')).toHaveCount(1);
  await ui.screenshot({ path: screenshotPath('steps-editor-marker.png'), animations: 'disabled' });
  // A known robot's parameters are checked as you type: a wrong type and a misspelled name, each at its line.
  const params = JSON.stringify({ ':original': { robot: '/upload/handle' }, resized: { robot: '/image/resize', use: ':original', width: 'wide', heigth: 100 } }, null, 2);
  await setStepsText(ui, params);
  const errors = ui.getByTestId('steps-error');
  await expect(errors).toContainText('IMAGE_RESIZE_VALIDATION');
  await expect(errors).toContainText('width');
  await expect(errors).toContainText('"height"');
  const flagged = ui.getByTestId('steps-editor').locator('.cm-line', { has: ui.locator('.cm-lintRange-error') });
  await expect(flagged).toHaveCount(2);
  await expect(flagged.nth(0)).toContainText('"width": "wide"');
  await expect(flagged.nth(1)).toContainText('"heigth": 100');
  await expect(ui.getByRole('button', { name: /^Start/ })).toBeDisabled();
  await expect(ui.getByText('Fix the steps to start.')).toBeVisible();
  await ui.screenshot({ path: screenshotPath('steps-editor-params.png'), animations: 'disabled' });
  // One the real service has but the local one does not run: the editor (which knows every deployment's
  // robots) lets it be, and Start is refused with the local service's code. The draft is kept.
  await setStepsText(ui, JSON.stringify({ ':original': { robot: '/upload/handle' }, posted: { robot: '/youtube/store', use: ':original' } }, null, 2));
  await expect(ui.getByTestId('steps-editor').locator('.cm-lintRange-error')).toHaveCount(0);
  await expect(ui.getByTestId('steps-error')).toHaveCount(0);
  await ui.getByRole('button', { name: 'Start · 1 file' }).click();
  const refused = ui.getByRole('alert').filter({ hasText: 'The transfer could not start' });
  await expect(refused).toContainText('ASSEMBLY_STEP_UNKNOWN_ROBOT');
  await expect(refused).toContainText('/youtube/store');
  await expect(ui.getByRole('heading', { name: 'Upload' })).toBeVisible();
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
  await expect(ui.getByLabel('Selection totals')).toHaveText(/^1 file · /);
  await ui.screenshot({ path: screenshotPath('start-refused-draft-kept.png'), animations: 'disabled' });
  // Nothing was queued.
  await ui.getByRole('button', { name: 'Transfers' }).click();
  await expect(ui.getByText('Nothing is transferring')).toBeVisible();
});

test('invalid JSON in the steps editor is shown at the field and Start stays disabled', async ({ ui, workDir }) => {
  await addOnePhoto(ui, workDir);
  await ui.getByText('Custom steps (JSON)').click();
  await setStepsText(ui, '{ ":original": { "robot": "/upload/handle" }, }');
  await expect(ui.getByTestId('steps-error')).toBeVisible();
  // The editable text is named and invalid for assistive technology, and the error is marked where it is.
  await expect(ui.getByRole('textbox', { name: 'Steps (JSON)' })).toHaveAttribute('aria-invalid', 'true');
  await expect(ui.getByTestId('steps-editor').locator('.cm-lintRange-error')).toHaveCount(1);
  await expect(ui.getByRole('button', { name: /^Start/ })).toBeDisabled();
  await expect(ui.getByText('Fix the JSON in the steps editor to start.')).toBeVisible();

  // Fixing it enables Start again.
  await setStepsText(ui, '{ ":original": { "robot": "/upload/handle", "result": true } }');
  await expect(ui.getByRole('textbox', { name: 'Steps (JSON)' })).not.toHaveAttribute('aria-invalid', 'true');
  await expect(ui.getByTestId('steps-error')).toHaveCount(0);
  await expect(ui.getByRole('button', { name: /^Start/ })).toBeEnabled();
});
