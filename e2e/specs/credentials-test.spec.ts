import { readdirSync } from 'node:fs';
import { startSftpServer, type SftpServer } from '../../service/testing/sftp-server';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';

let sftp: SftpServer;
test.beforeAll(async () => {
  sftp = await startSftpServer();
});
test.afterAll(async () => {
  await sftp.stop();
});

test('an admin names credentials prod_sftp, tests them against a real SFTP server, and sees a wrong key fail to log in', async ({ ui }) => {
  const keyLine = sftp.privateKey.split('\n')[1]!;
  await ui.getByRole('button', { name: 'Credentials' }).click();
  await ui.getByRole('button', { name: 'New credentials' }).click();

  // The rule is stated at the field; a name it refuses is marked there, before anything is sent.
  const name = ui.getByTestId('credential-name');
  const hint = ui.getByTestId('credential-name-hint');
  await expect(hint).toContainText('latin letters, digits, dashes (-) and underscores (_)');
  await name.fill('prod sftp');
  await expect(hint).toHaveText(/^Names cannot contain spaces\./);
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(ui.getByRole('button', { name: 'Save credentials' })).toBeDisabled();
  await ui.screenshot({ path: screenshotPath('credentials-name-rule.png'), animations: 'disabled' });
  await name.fill('prod_sftp');
  await expect(name).toHaveAttribute('aria-invalid', 'false');

  // Every type by its name, the code secondary.
  const type = ui.getByRole('combobox', { name: 'Type' });
  await expect(type.locator('option:checked')).toHaveText('SFTP server (sftp)');
  await expect(type.locator('optgroup[label="Cloud storage"] option', { hasText: 'Amazon S3 (s3)' })).toHaveCount(1);

  await ui.getByLabel('Host', { exact: true }).fill(sftp.host);
  await ui.getByLabel('Port').fill(String(sftp.port));
  await ui.getByLabel('User').fill(sftp.user);
  await ui.getByLabel('Private key (OpenSSH)').fill(sftp.privateKey);
  await ui.getByRole('button', { name: 'Save credentials' }).click();
  const row = ui.getByTestId('credential-row').filter({ hasText: 'prod_sftp' });
  await expect(row).toContainText('SFTP server');
  await expect(row.locator('code')).toHaveText('sftp');

  // Test the saved credentials: core reads them and really connects.
  await row.getByRole('button', { name: 'Test prod_sftp' }).click();
  const pane = ui.getByTestId('credential-test-pane');
  await pane.getByLabel('Folder to test').fill(sftp.root);
  await pane.getByRole('button', { name: 'Test again' }).click();
  const report = pane.getByTestId('credential-test-report');
  await expect(report).toHaveAttribute('data-ok', 'true');
  await expect(report.getByRole('heading')).toHaveText('Credentials work');
  await expect(report).toContainText(`${sftp.user}@${sftp.host}:${sftp.port} ${sftp.root}`);
  for (const id of ['reach', 'authenticate', 'read', 'write']) await expect(report.getByTestId(`credential-check-${id}`)).toHaveAttribute('data-status', 'ok');
  await expect(report.getByTestId('credential-check-authenticate')).toContainText(`Logged in as ${sftp.user}`);
  expect(readdirSync(sftp.root)).toEqual([]);
  expect(await ui.content()).not.toContain(keyLine);
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath('credentials-test.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('credentials-test-dark.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });

  // An edit with a key the server does not accept, tested before saving: "Authenticate" fails and says why.
  await row.getByRole('button', { name: 'Edit prod_sftp' }).click();
  await ui.getByLabel('Private key (OpenSSH)').fill(sftp.wrongKey);
  await ui.getByRole('button', { name: 'Test credential' }).click();
  const formReport = ui.getByRole('form', { name: 'Edit prod_sftp' }).getByTestId('credential-test-report');
  await expect(formReport.getByRole('heading')).toHaveText('Credentials have problems');
  await expect(formReport.getByTestId('credential-check-reach')).toHaveAttribute('data-status', 'ok');
  const auth = formReport.getByTestId('credential-check-authenticate');
  await expect(auth).toHaveAttribute('data-status', 'fail');
  await expect(auth).toContainText(`The server refused ${sftp.user} with the private key given`);
  await expect(auth).toContainText('SFTP_AUTH_FAILED');
  await expect(formReport.getByTestId('credential-check-read')).toHaveAttribute('data-status', 'skipped');

  // Left unsaved (Cancel asks first: a key was typed), the stored key still works.
  await ui.getByRole('button', { name: 'Cancel' }).click();
  await ui.getByRole('dialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard changes' }).click();
  await row.getByRole('button', { name: 'Test prod_sftp' }).click();
  await expect(ui.getByTestId('credential-test-pane').getByTestId('credential-test-report')).toHaveAttribute('data-ok', 'true');
});

test('a type the app cannot test says so instead of pretending', async ({ ui }) => {
  await ui.getByRole('button', { name: 'Credentials' }).click();
  await ui.getByRole('button', { name: 'New credentials' }).click();
  await ui.getByTestId('credential-name').fill('media-dropbox');
  await ui.getByRole('combobox', { name: 'Type' }).selectOption('dropbox');
  await ui.getByLabel('New field name').fill('access_token');
  await ui.getByRole('button', { name: 'Add field' }).click();
  await ui.getByLabel('access_token').fill('token-value');
  await ui.getByRole('button', { name: 'Test credential' }).click();
  const report = ui.getByTestId('credential-test-report');
  await expect(report.getByRole('heading')).toHaveText('Cannot be tested from here');
  await expect(report.getByTestId('credential-check-support')).toHaveAttribute('data-status', 'skipped');
  await expect(report).toContainText('Dropbox credentials cannot be tested from here');
});
