import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { startAndOpenAssembly } from '../fixtures/transfers';
import { useCustomSteps } from '../fixtures/steps-editor';

async function photo(workDir: string, name: string): Promise<string> {
  const file = path.join(workDir, name);
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#369' } }).jpeg().toFile(file);
  return file;
}

test('a failed Assembly shows the service code, message and step in the Assembly view, never "HTTP 200"', async ({ ui, workDir }) => {
  await ui.getByLabel('Choose files').setInputFiles(await photo(workDir, 'photo.jpg'));
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
  // A filter set to fail the Assembly on a declined file: the service creates it, then it fails while executing.
  await useCustomSteps(ui, {
    ':original': { robot: '/upload/handle' },
    small_only: { robot: '/file/filter', use: ':original', accepts: [['${file.size}', '<', 1024]], error_on_decline: true, error_msg: 'Only files under 1 KB are accepted.' },
  });
  await startAndOpenAssembly(ui, 'Start · 1 file');

  await expect(ui.getByTestId('assembly-state')).toHaveText('Failed');
  const panel = ui.getByTestId('assembly-error');
  await expect(panel).toContainText('The Assembly failed at the step "small_only"');
  await expect(panel.locator('code', { hasText: 'FILE_FILTER_DECLINED_FILE' })).toBeVisible();
  await expect(panel).toContainText('Only files under 1 KB are accepted.');
  await expect(panel.locator('dd code', { hasText: 'small_only' })).toBeVisible();
  // What to do about it.
  await expect(panel).toContainText('error_on_decline');
  await expect(panel).not.toContainText('HTTP 200');
  // The file says it too.
  await expect(ui.getByTestId('file-row').filter({ hasText: 'photo.jpg' })).toContainText('the step "small_only" failed on it: Only files under 1 KB are accepted.');
  await ui.screenshot({ path: screenshotPath('run-failed.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('run-failed-dark.png'), animations: 'disabled' });
});

test('an empty file and a text file each say why they produced no result', async ({ ui, workDir }) => {
  const empty = path.join(workDir, 'empty.jpg');
  await writeFile(empty, '');
  const notes = path.join(workDir, 'notes.txt');
  await writeFile(notes, 'Shot list for Saturday.\n');
  await ui.getByLabel('Choose files').setInputFiles([await photo(workDir, 'photo.jpg'), empty, notes]);
  await expect(ui.getByTestId('file-row')).toHaveCount(3);
  await useCustomSteps(ui, { ':original': { robot: '/upload/handle' }, resized: { robot: '/image/resize', use: ':original', width: 320 } });
  await startAndOpenAssembly(ui, 'Start · 3 files');

  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
  await expect(ui.getByTestId('result-card')).toHaveCount(1);
  const outcome = (name: string) => ui.getByTestId('file-row').filter({ hasText: name });
  await expect(outcome('photo.jpg')).toContainText('1 result');
  await expect(outcome('empty.jpg')).toContainText('No result: Empty file (0 bytes): nothing to resize');
  await expect(outcome('notes.txt')).toContainText('No result: Not an image: /image/resize skips text/plain');
  // The banner above counts them; each file says its own reason.
  await expect(ui.getByTestId('file-warnings-summary')).toContainText('2 files were skipped by a step');
  await ui.getByRole('list', { name: 'Files', exact: true }).scrollIntoViewIfNeeded();
  await ui.screenshot({ path: screenshotPath('run-file-outcomes.png'), animations: 'disabled', fullPage: true });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('run-file-outcomes-dark.png'), animations: 'disabled', fullPage: true });
});

test('a Template the service refuses is marked at the line of the parameter it names', async ({ ui }) => {
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await ui.getByTestId('template-name').fill('Too wide');
  const text = JSON.stringify(
    { steps: { ':original': { robot: '/upload/handle' }, small: { robot: '/image/resize', use: ':original', width: 20000, height: 20000 } } },
    null,
    2,
  );
  const editor = ui.getByTestId('template-editor').locator('.cm-content');
  await editor.click();
  await ui.keyboard.press('ControlOrMeta+a');
  await ui.keyboard.press('Delete');
  await ui.keyboard.insertText(text);
  await expect(editor).toContainText('"height": 20000');
  // The editor's own checks find nothing (each side is within 1–25000): the output's megapixel cap is the service's to know.
  await expect(ui.getByTestId('template-check')).toContainText('Looks valid');
  await expect(ui.locator('.cm-lintRange-error')).toHaveCount(0);

  await ui.getByRole('button', { name: 'Save Template' }).click();
  const error = ui.getByTestId('template-save-error');
  await expect(error.locator('code', { hasText: 'IMAGE_RESIZE_VALIDATION' })).toBeVisible();
  const widthLine = text.split('\n').findIndex((l) => l.includes('"width"')) + 1;
  await expect(error).toContainText(`line ${widthLine}, step "small", "width"`);
  // The marker is on the line of "width" in the step "small", and on no other.
  const marked = ui.getByTestId('template-editor').locator('.cm-line', { has: ui.locator('.cm-lintRange-error') });
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText('"width": 20000');
  await expect(ui.getByTestId('template-editor').locator('.cm-lint-marker-error')).toHaveCount(1);
  await ui.screenshot({ path: screenshotPath('template-service-error.png'), animations: 'disabled' });

  // With the value fixed, the service takes it.
  await editor.click();
  await ui.keyboard.press('ControlOrMeta+a');
  await ui.keyboard.press('Delete');
  await ui.keyboard.insertText(text.replace('20000', '900'));
  await expect(editor).toContainText('"width": 900');
  await ui.getByRole('button', { name: 'Save Template' }).click();
  await expect(ui.getByTestId('template-detail')).toBeVisible();
});
