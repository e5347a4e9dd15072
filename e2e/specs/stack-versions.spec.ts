import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { setEditorText } from '../fixtures/template-editor';

const content = (stack: string) =>
  JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, video: { robot: '/video/encode', use: ':original', preset: 'iphone', ffmpeg_stack: stack } } }, null, 2);

test('the Template editor marks an encoding stack version the spec does not list, and notes a deprecated one', async ({ ui }) => {
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await ui.getByTestId('template-name').fill('Video for phones');
  const check = ui.getByTestId('template-check');
  const save = ui.getByRole('button', { name: 'Save Template' });

  await setEditorText(ui, content('banana'));
  // Line 10 is "ffmpeg_stack" in the step "video".
  await expect(check).toContainText('Line 10: Step "video" (/video/encode): ffmpeg_stack "banana" is not a stack version');
  await expect(check).toContainText('VIDEO_ENCODE_VALIDATION');
  await expect(ui.locator('.cm-lint-marker-error').first()).toBeVisible();
  await expect(save).toBeDisabled();

  await setEditorText(ui, content('v5.1'));
  await expect(check).toContainText('Looks valid');
  await expect(ui.getByTestId('template-notes')).toContainText('Line 10: Step "video": ffmpeg_stack "v5.1" is deprecated (still accepted); "v7" is recommended.');
  await expect(ui.locator('.cm-lint-marker-warning').first()).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await ui.emulateMedia({ colorScheme: scheme });
    await ui.screenshot({ path: screenshotPath(`template-stack-version-${scheme}.png`), animations: 'disabled' });
  }
  await ui.emulateMedia({ colorScheme: 'light' });
  // Accepted by the service too: the Template saves.
  await save.click();
  await expect(ui.getByText('Created the Template "Video for phones".')).toBeVisible();
});
