import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';

// The spec lets Template credentials hold any JSON value; a user stores an API token as one value.
test('an admin stores an API token as one value: write-only, marked in the list, kept on an edit', async ({ ui }) => {
  const TOKEN = 'sk-live-e2e-token-0123456789';
  await ui.getByRole('button', { name: 'Credentials' }).click();
  await ui.getByRole('button', { name: 'New credentials' }).click();
  await ui.getByTestId('credential-name').fill('api_token');
  await ui.getByRole('combobox', { name: 'Type' }).selectOption('http');
  // The content choice is one radio group: the arrow keys move it, as with any native radios.
  await expect(ui.getByRole('radiogroup', { name: 'Content' })).toBeVisible();
  await ui.getByRole('radio', { name: 'Fields' }).focus();
  await ui.keyboard.press('ArrowDown');
  await expect(ui.getByRole('radio', { name: 'One value' })).toBeChecked();
  await expect(ui.getByLabel('Base URL')).toHaveCount(0);
  await ui.getByTestId('credential-value').fill(TOKEN);
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('credential-one-value-dark.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.getByRole('button', { name: 'Save credentials' }).click();

  const row = ui.getByTestId('credential-row').filter({ hasText: 'api_token' });
  await expect(row.getByText('value set')).toBeVisible();
  expect(await ui.content()).not.toContain(TOKEN);

  await row.getByRole('button', { name: 'Edit api_token' }).click();
  await expect(ui.getByRole('radio', { name: /One value/ })).toBeChecked();
  await expect(ui.getByTestId('credential-value')).toHaveAttribute('placeholder', 'Stored — leave empty to keep it');
  await expect(ui.getByTestId('credential-value')).toHaveValue('');
  await ui.screenshot({ path: screenshotPath('credential-one-value.png'), animations: 'disabled' });
  await ui.getByRole('button', { name: 'Save credentials' }).click();
  await expect(row.getByText('value set')).toBeVisible();
});
