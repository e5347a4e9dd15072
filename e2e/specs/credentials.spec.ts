import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { startSftpServer, type SftpServer } from '../../service/testing/sftp-server';
import { expect, test } from '../fixtures/app';
import { startAndOpenAssembly } from '../fixtures/transfers';
import { generatePhotoFolder } from '../fixtures/images';
import { screenshotPath } from '../fixtures/paths';
import { setStepsText } from '../fixtures/steps-editor';
import { setEditorText } from '../fixtures/template-editor';

let sftp: SftpServer;
test.beforeAll(async () => {
  sftp = await startSftpServer();
});
test.afterAll(async () => {
  await sftp.stop();
});

test('an admin stores SFTP credentials, exports a folder through a Template that names them, then deletes both', async ({ ui, workDir }) => {
  const keyLine = sftp.privateKey.split('\n')[1]!;
  await ui.getByRole('button', { name: 'Credentials' }).click();
  await expect(ui.getByText('No credentials yet')).toBeVisible();

  await ui.getByRole('button', { name: 'New credentials' }).click();
  await ui.getByTestId('credential-name').fill('photo-archive');
  await ui.getByLabel('Host', { exact: true }).fill(sftp.host);
  await ui.getByLabel('Port').fill(String(sftp.port));
  await ui.getByLabel('User').fill(sftp.user);
  await ui.getByLabel('Private key (OpenSSH)').fill(sftp.privateKey);
  await ui.getByRole('button', { name: 'Save credentials' }).click();
  const row = ui.getByTestId('credential-row').filter({ hasText: 'photo-archive' });
  await expect(row).toContainText('private_key set');
  // Write-only: the key is nowhere in the page once saved.
  expect(await ui.content()).not.toContain(keyLine);

  // Edit the port without touching the key: the stored key stays.
  await row.getByRole('button', { name: 'Edit photo-archive' }).click();
  await expect(ui.getByLabel('Private key (OpenSSH)')).toHaveAttribute('placeholder', 'Stored — leave empty to keep it');
  await expect(ui.getByLabel('Private key (OpenSSH)')).toHaveValue('');
  await ui.getByLabel('Host', { exact: true }).fill('127.0.0.1');
  await ui.getByRole('button', { name: 'Save credentials' }).click();
  await expect(row).toContainText('private_key set');
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath('credentials.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('credentials-dark.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });

  // A Template whose storage step names the credentials.
  const target = path.join(sftp.root, 'exports');
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await ui.getByTestId('template-name').fill('Archive to SFTP');
  await setEditorText(
    ui,
    JSON.stringify(
      { steps: { ':original': { robot: '/upload/handle' }, archived: { robot: '/sftp/store', use: ':original', credentials: 'photo-archive', path: `${target}/\${file.name}` } } },
      null,
      2,
    ),
  );
  await expect(ui.getByTestId('template-check')).toContainText('Looks valid');
  await ui.getByRole('button', { name: 'Save Template' }).click();
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Run on files' }).click();
  const { dir, images } = await generatePhotoFolder(workDir, 'photos');
  await ui.getByLabel('Choose folder').setInputFiles(dir);
  await startAndOpenAssembly(ui, `Start · ${images.length} files`);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 120_000 });
  await expect.poll(() => (existsSync(target) ? readdirSync(target).sort() : [])).toEqual(images.map((i) => path.basename(i.relativePath)).sort());

  // Delete both, after confirming.
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.locator('.template-row', { hasText: 'Archive to SFTP' }).click();
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Delete' }).click();
  await ui.getByRole('dialog').getByRole('button', { name: 'Delete Template' }).click();
  await expect(ui.getByText('No Templates yet')).toBeVisible();
  await ui.getByRole('button', { name: 'Credentials' }).click();
  await ui.getByRole('button', { name: 'Delete photo-archive' }).click();
  await ui.getByRole('dialog').getByRole('button', { name: 'Delete credentials' }).click();
  await expect(ui.getByText('No credentials yet')).toBeVisible();
});

test('a wrong key fails the export with the step error, and nothing is written', async ({ ui, workDir }) => {
  await ui.getByRole('button', { name: 'Credentials' }).click();
  await ui.getByRole('button', { name: 'New credentials' }).click();
  await ui.getByTestId('credential-name').fill('wrong-key');
  await ui.getByLabel('Host', { exact: true }).fill(sftp.host);
  await ui.getByLabel('Port').fill(String(sftp.port));
  await ui.getByLabel('User').fill(sftp.user);
  await ui.getByLabel('Private key (OpenSSH)').fill(sftp.wrongKey);
  await ui.getByRole('button', { name: 'Save credentials' }).click();
  await expect(ui.getByTestId('credential-row')).toContainText('wrong-key');

  await ui.getByRole('button', { name: 'Upload' }).click();
  await ui.getByText('Custom steps (JSON)').click();
  const target = path.join(sftp.root, 'never');
  await setStepsText(ui, JSON.stringify({ ':original': { robot: '/upload/handle' }, out: { robot: '/sftp/store', use: ':original', credentials: 'wrong-key', path: `${target}/x.jpg` } }));
  const { dir } = await generatePhotoFolder(workDir, 'photos');
  await ui.getByLabel('Choose folder').setInputFiles(dir);
  await startAndOpenAssembly(ui);
  await expect(ui.getByTestId('assembly-error')).toContainText('SFTP_STORE_AUTH_FAILED', { timeout: 60_000 });
  expect(existsSync(target)).toBe(false);
});
