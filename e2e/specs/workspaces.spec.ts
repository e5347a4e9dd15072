import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { createApiClient } from '../../electron/core/api/api-client';
import { startLocalService, type LocalService } from '../../service/index';
import { expect, test, type RunningApp } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';

// These specs need the browser host's core in this process (its recording desktop and its vault).
const browserHost = (running: RunningApp) => {
  if (running.kind !== 'browser-host') throw new Error('workspaces.spec.ts checks core-side state through the browser host');
  return running;
};

let remote: LocalService;
test.beforeEach(async ({ workDir }) => {
  // A second deployment of the API: another local service instance with its own account.
  remote = await startLocalService({ dataDir: path.join(workDir, 'second-service') });
});
test.afterEach(async () => {
  await remote.close();
});

test('an admin adds a second workspace, tests it, copies a secret, rotates its key and keeps working', async ({ ui, running, pageTraffic }) => {
  const app = browserHost(running);
  await ui.getByRole('button', { name: 'Workspaces' }).click();
  await expect(ui.getByTestId('workspace-row')).toHaveCount(1);
  await ui.getByRole('button', { name: 'Add workspace' }).click();
  await ui.getByLabel('Workspace name').fill('Studio');
  await ui.getByLabel('API endpoint').fill(remote.url);
  await ui.getByLabel('Workspace slug').fill('studio');
  await ui.getByLabel('Auth Key', { exact: true }).fill(remote.authKey);

  // A wrong secret: the test says which part is wrong, with the service's code.
  await ui.getByLabel('Auth Secret', { exact: true }).fill('definitely-not-the-secret');
  await ui.getByRole('button', { name: 'Test connection' }).click();
  await expect(ui.getByTestId('check-key')).toHaveAttribute('data-status', 'ok');
  await expect(ui.getByTestId('check-secret')).toHaveAttribute('data-status', 'fail');
  await expect(ui.getByTestId('check-secret')).toContainText('INVALID_SIGNATURE');
  await ui.screenshot({ path: screenshotPath('workspace-test.png'), animations: 'disabled' });

  await ui.getByLabel('Auth Secret', { exact: true }).fill(remote.authSecret);
  await ui.getByRole('button', { name: 'Test connection' }).click();
  await expect(ui.getByTestId('connection-report')).toContainText('Connection works');
  await expect(ui.getByTestId('check-scopes')).toContainText('Every screen can load its data');
  await ui.getByRole('button', { name: 'Save workspace' }).click();
  await expect(ui.getByTestId('workspace-row')).toHaveCount(2);
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath('workspaces.png'), animations: 'disabled' });

  // Switch from the header; every screen now reads the second deployment.
  await ui.getByLabel('Switch workspace').selectOption({ label: 'Studio' });
  await expect(ui.locator('.workspace-url')).toHaveText(remote.url);
  await ui.getByRole('button', { name: 'Auth Keys' }).click();
  const ownRow = ui.getByTestId('auth-key-row').filter({ hasText: remote.authKey });
  await expect(ownRow).toContainText('This workspace');
  await ui.screenshot({ path: screenshotPath('auth-keys.png'), animations: 'disabled' });

  // Copy secret: core writes the clipboard; the page only learns when it will be cleared.
  await ownRow.getByRole('button', { name: `Copy secret of ${remote.authKey}` }).click();
  await expect(ui.getByText(/The secret is on the clipboard; it is cleared in 30 seconds/)).toBeVisible();
  expect(await app.desktop.readClipboard()).toBe(remote.authSecret);

  // Rotate with the assistant.
  await ui.getByRole('button', { name: 'Workspaces' }).click();
  await ui.getByRole('button', { name: 'Rotate key of Studio' }).click();
  await ui.getByRole('button', { name: 'Rotate key', exact: true }).click();
  const panel = ui.getByTestId('rotation-panel').first();
  await expect(panel).toHaveAttribute('data-state', 'done');
  await expect(panel).toContainText('Deactivate the old key');
  await ui.screenshot({ path: screenshotPath('key-rotation.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('key-rotation-dark.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });

  // Requests with the old key now fail; the app, on the new key, keeps working.
  const oldKeyClient = createApiClient({ endpoint: remote.url, authKey: remote.authKey, getSecret: async () => remote.authSecret, maxRetries: 0 });
  const refused = await oldKeyClient.request('GET', '/templates');
  expect(refused.ok ? 'accepted' : refused.error.code).toBe('AUTH_KEY_INACTIVE');
  await ui.getByRole('button', { name: 'Templates' }).click();
  await expect(ui.getByText('No Templates yet').or(ui.getByTestId('template-row').first())).toBeVisible();
  await ui.getByRole('button', { name: 'Auth Keys' }).click();
  await expect(ui.getByTestId('auth-key-row').filter({ hasText: remote.authKey }).getByTestId('key-state')).toHaveText('Inactive');
  await expect(ui.getByTestId('auth-key-row').filter({ hasText: 'This workspace' })).not.toContainText(remote.authKey);

  // The old key can go once nothing needs it.
  await ui.getByRole('button', { name: 'Workspaces' }).click();
  await ui.getByRole('button', { name: /Delete the old key/ }).click();
  await expect(panel).toContainText('The old key is deleted.');

  // No secret reached the page: not over the bridge, not in the DOM, not in its console. The one the admin
  // typed went out once (sent), and never came back; the others never appear at all.
  const typed = remote.authSecret;
  const neverSeen = [(await app.app.core.vault.get('local'))!, (await app.app.core.vault.get(await workspaceId(app, 'Studio')))!];
  const fromCore = [...pageTraffic.filter((f) => !f.startsWith('sent: ')), await ui.content()].join('\n');
  expect(pageTraffic.some((f) => f.startsWith('sent: ') && f.includes(typed))).toBe(true);
  expect(fromCore.includes(typed), 'the typed secret came back to the page').toBe(false);
  for (const secret of neverSeen) {
    expect(secret.length).toBeGreaterThan(10);
    expect([...pageTraffic, await ui.content()].join('\n').includes(secret), 'a stored secret reached the page').toBe(false);
  }
  expect(pageTraffic.some((f) => f.includes('rotations:start'))).toBe(true);
});

test('a token limited to fewer scopes: the screen that needs more explains why it cannot load', async ({ ui }) => {
  await ui.getByRole('button', { name: 'Workspaces' }).click();
  await ui.getByRole('button', { name: 'Edit Local (this computer)' }).click();
  await ui.getByLabel('Short-lived Bearer tokens').check();
  await ui.getByLabel('Limit token scopes').check();
  for (const scope of ['templates:read', 'templates:write', 'assemblies:read', 'assemblies:write']) await ui.getByLabel(scope, { exact: true }).check();
  await ui.getByRole('button', { name: 'Save workspace' }).click();
  await expect(ui.getByTestId('workspace-row').first()).toContainText('Bearer tokens · limited to templates:read, templates:write, assemblies:read, assemblies:write');

  await ui.getByRole('button', { name: 'Templates' }).click();
  await expect(ui.getByText('No Templates yet').or(ui.getByTestId('template-row').first())).toBeVisible();
  await ui.getByRole('button', { name: 'Auth Keys' }).click();
  const problem = ui.getByTestId('auth-keys-error');
  await expect(problem).toContainText('INSUFFICIENT_AUTH_SCOPE');
  await expect(problem).toContainText('auth_keys:read');
  await expect(problem).toContainText('lacks the scope this screen needs');
  await ui.screenshot({ path: screenshotPath('scope-error.png'), animations: 'disabled' });
});

test('a signed CDN URL built in the app serves the file', async ({ ui, running, workDir }) => {
  const app = browserHost(running);
  const endpoint = app.app.core.localServiceUrl!;
  const workspaces = await app.app.core.handlers['workspaces:list']({});
  const localKey = workspaces.ok ? workspaces.value[0]!.authKey : '';
  // An Assembly holding a photo, made the way any API client would.
  const photo = path.join(workDir, 'cat.jpg');
  await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c04020' } }).jpeg().toFile(photo);
  const api = createApiClient({ endpoint, authKey: localKey, getSecret: () => app.app.core.vault.get('local') });
  const created = await api.createAssembly({
    instructions: { steps: { ':original': { robot: '/upload/handle' } } },
    expectedUploads: 0,
    files: [{ field: 'file', name: 'cat.jpg', data: new Blob([await readFile(photo)], { type: 'image/jpeg' }) }],
  });
  expect(created.ok).toBe(true);
  const assemblyId = created.ok ? created.value.assembly_id : '';

  const template = await app.app.core.handlers['templates:create']({ name: 'serve-photos', content: { steps: { ':original': { robot: '/upload/handle' } } }, requireSignatureAuth: 0 });
  expect(template.ok).toBe(true);

  await ui.getByRole('button', { name: 'CDN URLs' }).click();
  await expect(ui.getByText('No key may sign CDN URLs')).toBeVisible();
  await ui.getByRole('button', { name: 'Open Auth Keys' }).click();
  await ui.getByRole('button', { name: 'New key' }).click();
  await ui.getByLabel('Description').fill('CDN signing');
  await ui.getByLabel('Allowed for Smart CDN').check();
  await ui.getByRole('button', { name: 'Create key' }).click();
  await expect(ui.getByTestId('auth-key-row').filter({ hasText: 'CDN signing' })).toContainText('Smart CDN');

  await ui.getByRole('button', { name: 'CDN URLs' }).click();
  await ui.getByLabel('Template').fill('serve-photos');
  await ui.getByLabel('File path').fill(`${assemblyId}/cat.jpg`);
  await ui.getByLabel('Parameter 1 name').fill('w');
  await ui.getByLabel('Parameter 1 value').fill('64');
  await ui.getByRole('button', { name: 'Sign URL' }).click();
  const url = await ui.getByLabel('Signed URL').inputValue();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/file\/local\/serve-photos\/[0-9a-f]{32}%2Fcat\.jpg\?auth_key=[0-9a-f]+&exp=\d+&w=64&sig=sha256%3A[0-9a-f]{64}$/);
  await ui.screenshot({ path: screenshotPath('cdn-url.png'), animations: 'disabled' });

  const served = await fetch(url);
  expect(served.status).toBe(200);
  expect(Buffer.from(await served.arrayBuffer()).equals(await readFile(photo))).toBe(true);
  // Changing any part of a signed URL breaks it.
  expect((await fetch(url.replace('w=64', 'w=65'))).status).toBe(403);

  await ui.getByRole('button', { name: 'Open in browser' }).click();
  await expect.poll(() => app.desktop.external).toEqual([url]);

  // Deactivating the key stops its URLs at once; activating brings them back; deleting asks first.
  await ui.getByRole('button', { name: 'Auth Keys' }).click();
  const cdnRow = ui.getByTestId('auth-key-row').filter({ hasText: 'CDN signing' });
  const cdnKey = (await cdnRow.getAttribute('data-key'))!;
  await cdnRow.getByRole('button', { name: `Deactivate ${cdnKey}` }).click();
  await expect(cdnRow.getByTestId('key-state')).toHaveText('Inactive');
  const refused = await fetch(url);
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { error: string }).error).toBe('AUTH_KEY_INACTIVE');
  await cdnRow.getByRole('button', { name: `Activate ${cdnKey}` }).click();
  await expect(cdnRow.getByTestId('key-state')).toHaveText('Active');
  expect((await fetch(url)).status).toBe(200);

  await cdnRow.getByRole('button', { name: `Edit ${cdnKey}` }).click();
  await ui.getByLabel('Description').fill('CDN signing for the shop');
  await ui.getByRole('button', { name: 'Save key' }).click();
  await expect(ui.getByTestId('auth-key-row').filter({ hasText: 'CDN signing for the shop' })).toHaveCount(1);

  await ui.getByTestId('auth-key-row').filter({ hasText: 'CDN signing for the shop' }).getByRole('button', { name: `Delete ${cdnKey}` }).click();
  await expect(ui.getByRole('dialog')).toContainText('Everything that signs with it stops working at once');
  await ui.getByRole('button', { name: 'Delete key' }).click();
  await expect(ui.getByTestId('auth-key-row').filter({ hasText: cdnKey })).toHaveCount(0);
  expect((await fetch(url)).status).toBe(403);
});

async function workspaceId(app: ReturnType<typeof browserHost>, name: string): Promise<string> {
  const list = await app.app.core.handlers['workspaces:list']({});
  return list.ok ? (list.value.find((w) => w.name === name)?.id ?? '') : '';
}

test('a user signs in with the browser: consent page, loopback redirect, no secret typed', async ({ ui, running }) => {
  const app = browserHost(running);
  await ui.getByRole('button', { name: 'Workspaces' }).click();
  await ui.getByRole('button', { name: 'Add workspace' }).click();
  await ui.getByLabel('Workspace name').fill('Signed-in studio');
  await ui.getByLabel('API endpoint').fill(remote.url);
  const box = ui.getByTestId('sign-in-box');
  await expect(box).toContainText('This deployment offers browser sign-in');
  await box.getByRole('button', { name: 'Sign in with browser' }).click();
  await expect(box).toContainText('Waiting for you to approve Assemblyline in your browser');

  // The "system browser": a real page on the deployment's consent screen.
  await expect.poll(() => app.desktop.external.length).toBe(1);
  const browserTab = await ui.context().newPage();
  await browserTab.goto(app.desktop.external[0]!);
  // Not registered with that deployment: the page says the name is unverified (issue 25).
  await expect(browserTab.getByRole('heading')).toContainText('Allow assemblyline-desktop (unverified) to use this service?');
  await browserTab.screenshot({ path: screenshotPath('sign-in-consent.png'), animations: 'disabled' });
  await browserTab.getByRole('button', { name: 'Allow' }).click();
  await expect(browserTab.getByText('You can close this tab and return to Assemblyline.')).toBeVisible();
  await browserTab.close();

  const row = ui.getByTestId('workspace-row').filter({ hasText: 'Signed-in studio' });
  await expect(row).toContainText('Browser sign-in');
  await row.getByRole('button', { name: 'Use Signed-in studio' }).click();
  await ui.getByRole('button', { name: 'Auth Keys' }).click();
  await expect(ui.getByTestId('auth-key-row').filter({ hasText: remote.authKey })).toContainText('This workspace');
});
