import { expect, test } from '../fixtures/app';
import { startAndOpenAssembly } from '../fixtures/transfers';
import { generatePhotoFolder } from '../fixtures/images';
import { screenshotPath } from '../fixtures/paths';
import { setEditorText } from '../fixtures/template-editor';

const content = (width: number, robot = '/image/resize') =>
  JSON.stringify(
    {
      steps: {
        ':original': { robot: '/upload/handle' },
        small: { robot, use: ':original', width, height: width, resize_strategy: 'fit' },
      },
      fields: { project: 'holiday' },
    },
    null,
    2,
  );

test('an admin creates a Template, finds it, runs it on a folder, edits it with a diff, duplicates and deletes', async ({ ui, workDir }) => {
  await ui.getByRole('button', { name: 'Templates' }).click();
  await expect(ui.getByText('No Templates yet')).toBeVisible();

  // Create, provoking the editor's checks on the way.
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await ui.getByTestId('template-name').fill('Holiday thumbnails');
  const check = ui.getByTestId('template-check');
  const save = ui.getByRole('button', { name: 'Save Template' });

  await setEditorText(ui, '{\n  "steps": {\n    ":original": { "robot": "/upload/handle" },\n  }\n}');
  await expect(check).toContainText('Line 4, column 3');
  await expect(save).toBeDisabled();

  await setEditorText(ui, content(200, '/image/resise'));
  await expect(check).toContainText('uses the robot "/image/resise", which does not exist');
  await expect(check).toContainText('ASSEMBLY_STEP_UNKNOWN_ROBOT');
  // The line of "robot" in the step "small".
  await expect(check).toContainText('Line 7');
  await expect(ui.locator('.cm-lint-marker-error').first()).toBeVisible();
  await expect(save).toBeDisabled();
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath('template-editor-error.png'), animations: 'disabled' });

  await setEditorText(ui, content(200));
  await expect(check).toContainText('Looks valid');
  await save.click();

  // Back on the list, selected, content highlighted.
  const detail = ui.getByTestId('template-detail');
  await expect(detail).toContainText('Holiday thumbnails');
  await expect(detail.locator('.cm-content')).toContainText('/image/resize');
  await expect(ui.getByTestId('templates-range')).toHaveText('1–1 of 1');

  // Find it by keyword (SQL LIKE); a word that matches nothing says so.
  const search = ui.getByLabel('Search Templates by name');
  await search.fill('holi%thumb');
  await expect(ui.locator('.template-row')).toHaveCount(1);
  await search.fill('no-such-template');
  await expect(ui.getByText('No Templates match')).toBeVisible();
  await search.fill('');
  await ui.getByRole('combobox', { name: 'Built-in Templates' }).selectOption('latest');
  await expect(ui.locator('.template-row').first()).toContainText('builtin/');
  await ui.getByRole('combobox', { name: 'Built-in Templates' }).selectOption('none');
  await ui.locator('.template-row', { hasText: 'Holiday thumbnails' }).click();
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath('templates.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('templates-dark.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });

  // Run it on a folder.
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Run on files' }).click();
  await expect(ui.getByTestId('template-select')).toHaveValue(/^[0-9a-f]{32}$/);
  await expect(ui.getByLabel('Field project')).toHaveAttribute('placeholder', 'holiday');
  const { dir, images } = await generatePhotoFolder(workDir, 'photos');
  await ui.getByLabel('Choose folder').setInputFiles(dir);
  await expect(ui.getByTestId('file-row')).toHaveCount(images.length);
  await startAndOpenAssembly(ui, `Start · ${images.length} files`);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 120_000 });
  const cards = ui.getByTestId('result-card');
  await expect(cards).toHaveCount(images.length);
  await expect(cards.filter({ hasText: '200 × 150' })).toHaveCount(2);
  await expect(cards.filter({ hasText: '150 × 200' })).toHaveCount(1);

  // Edit: the diff shows before saving.
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.locator('.template-row', { hasText: 'Holiday thumbnails' }).click();
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Edit' }).click();
  await setEditorText(ui, content(300));
  await ui.getByRole('button', { name: 'Review and save…' }).click();
  const dialog = ui.getByRole('dialog', { name: 'Review your changes' });
  await expect(dialog.getByTestId('template-diff')).toContainText('300');
  await expect(dialog.locator('.cm-changedLine').first()).toBeVisible();
  await ui.screenshot({ path: screenshotPath('template-diff.png'), animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(ui.getByTestId('template-detail').locator('.cm-content')).toContainText('300');

  // Duplicate, then delete the copy after confirming.
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Duplicate' }).click();
  await expect(ui.getByTestId('template-name')).toHaveValue('Holiday thumbnails (copy)');
  await ui.getByRole('button', { name: 'Save Template' }).click();
  await expect(ui.getByTestId('templates-range')).toHaveText('1–2 of 2');
  await expect(ui.getByTestId('template-detail')).toContainText('Holiday thumbnails (copy)');
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Delete' }).click();
  const confirm = ui.getByRole('dialog', { name: 'Delete "Holiday thumbnails (copy)"?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Delete Template' }).click();
  await expect(ui.getByTestId('templates-range')).toHaveText('1–1 of 1');
  await expect(ui.locator('.template-row')).toHaveText([/Holiday thumbnails/]);
});

test('a save the service refuses keeps what the user typed and shows the code', async ({ ui }) => {
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await ui.getByTestId('template-name').fill('Allowed flag as text');
  // Valid JSON the editor accepts but the service refuses: each side is within the robot's range, the
  // output's megapixels are over the service's cap, which only the service checks.
  const text = JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, small: { robot: '/image/resize', use: ':original', width: 20000, height: 20000 } } }, null, 2);
  await setEditorText(ui, text);
  await expect(ui.getByTestId('template-check')).toContainText('Looks valid');
  await ui.getByRole('button', { name: 'Save Template' }).click();
  const error = ui.getByTestId('template-save-error');
  await expect(error).toContainText('IMAGE_RESIZE_VALIDATION');
  await expect(ui.getByTestId('template-name')).toHaveValue('Allowed flag as text');
  await expect(ui.getByTestId('template-editor').locator('.cm-content')).toContainText('"width": 20000');
});

test('leaving the Template editor with changes asks first: Stay keeps them (sidebar, Back, a shortcut), Leave lets them go', async ({ ui }) => {
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  // Nothing changed yet: leaving asks nothing.
  await ui.getByRole('button', { name: 'Upload' }).click();
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await ui.getByTestId('template-name').fill('Unsaved work');
  await setEditorText(ui, content(321));

  const question = ui.getByRole('dialog', { name: 'Leave without saving?' });
  const kept = async () => {
    await expect(question).toBeHidden();
    await expect(ui.getByRole('heading', { name: 'New Template', level: 1 })).toBeVisible();
    await expect(ui.getByTestId('template-name')).toHaveValue('Unsaved work');
    await expect(ui.getByTestId('template-editor').locator('.cm-content')).toContainText('"width": 321');
  };
  // The sidebar.
  await ui.getByRole('button', { name: 'Activity' }).click();
  await expect(question).toContainText('the Template editor is not saved');
  await expect(question.getByRole('button', { name: 'Stay' })).toBeFocused();
  await ui.screenshot({ path: screenshotPath('template-editor-leave.png'), animations: 'disabled' });
  await question.getByRole('button', { name: 'Stay' }).click();
  await kept();
  // Back (the URL stays the editor's while it asks); Escape is Stay.
  await ui.goBack();
  await expect(question).toBeVisible();
  await expect(ui).toHaveURL(/#\/templates\/new$/);
  await ui.keyboard.press('Escape');
  await kept();
  // A screen shortcut.
  await ui.locator('main').focus();
  await ui.keyboard.press('Control+3');
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: 'Leave' }).click();
  await expect(ui.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  // What was let go is gone: a new editor starts empty, and leaving it asks nothing.
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await expect(ui.getByTestId('template-name')).toHaveValue('');
  await ui.getByRole('button', { name: 'Upload' }).click();
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
});
