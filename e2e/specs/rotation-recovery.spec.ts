import path from 'node:path';
import { createApiClient } from '../../electron/core/api/api-client';
import { startLocalService, type LocalService } from '../../service/index';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { launchOnDataDir } from '../fixtures/relaunch';

let remote: LocalService;
test.beforeEach(async ({ workDir }) => {
  remote = await startLocalService({ dataDir: path.join(workDir, 'second-service') });
});
test.afterEach(async () => {
  await remote.close();
});

test('a rotation cut short is reported, rolls back cleanly, and after a restart resumes to the end', async ({ browser, workDir }) => {
  const dataDir = path.join(workDir, 'app-data');
  const oldKeyClient = createApiClient({ endpoint: remote.url, authKey: remote.authKey, getSecret: async () => remote.authSecret, maxRetries: 0 });

  // First run: the assistant stops right after switching the workspace, as if the app had quit there.
  const first = await launchOnDataDir(browser, dataDir, { rotationStopAfter: 'switch' });
  try {
    const saved = await first.app.core.handlers['workspaces:save']({ name: 'Studio', endpoint: remote.url, authKey: remote.authKey, authSecret: remote.authSecret, slug: 'studio', authMode: 'signature', signatureAlgo: 'sha384', tokenScopes: null });
    expect(saved.ok).toBe(true);
    const ui = first.ui;
    await ui.getByRole('button', { name: 'Workspaces' }).click();
    await ui.getByRole('button', { name: 'Rotate key of Studio' }).click();
    await ui.getByRole('button', { name: 'Rotate key', exact: true }).click();
    const panel = ui.getByTestId('rotation-panel').first();
    await expect(panel).toHaveAttribute('data-state', 'interrupted');
    await expect(panel).toContainText('Stopped before "Deactivate the old key"');
    await ui.screenshot({ path: screenshotPath('rotation-interrupted.png'), animations: 'disabled' });

    // Roll back: the workspace is on the old key again, which still works; the new key is gone.
    await panel.getByRole('button', { name: 'Roll back' }).click();
    await expect(ui.getByTestId('rotation-panel').first()).toHaveAttribute('data-state', 'rolled-back');
    await expect(ui.getByTestId('workspace-row').filter({ hasText: 'Studio' })).toContainText(`key ${remote.authKey.slice(0, 12)}`);
    expect((await oldKeyClient.request('GET', '/templates')).ok).toBe(true);
    const keys = await first.app.core.handlers['authKeys:list']({ workspaceId: (saved.ok && saved.value.id) || '' });
    expect(keys.ok && keys.value.map((k) => k.authKey)).toEqual([remote.authKey]);

    // Again, and this time the app "quits" at that point.
    await ui.getByRole('button', { name: 'Rotate key of Studio' }).click();
    await ui.getByRole('button', { name: 'Rotate key', exact: true }).click();
    await expect(ui.getByTestId('rotation-panel').first()).toHaveAttribute('data-state', 'interrupted');
  } finally {
    await first.ui.context().close();
    await first.app.close();
  }

  // Next start: the interrupted rotation is waiting with Resume; resuming finishes it.
  const second = await launchOnDataDir(browser, dataDir);
  try {
    const ui = second.ui;
    await ui.getByRole('button', { name: 'Workspaces' }).click();
    const panel = ui.getByTestId('rotation-panel').first();
    await expect(panel).toHaveAttribute('data-state', 'interrupted');
    await panel.getByRole('button', { name: 'Resume' }).click();
    await expect(ui.getByTestId('rotation-panel').first()).toHaveAttribute('data-state', 'done');
    const refused = await oldKeyClient.request('GET', '/templates');
    expect(refused.ok ? 'accepted' : refused.error.code).toBe('AUTH_KEY_INACTIVE');
    // The log tells the whole story.
    await ui.getByTestId('rotation-panel').first().getByText(/^Log/).click();
    await expect(ui.getByTestId('rotation-panel').first()).toContainText('Resumed.');
    await expect(ui.getByTestId('rotation-panel').first()).toContainText(`Deactivated ${remote.authKey}`);
  } finally {
    await second.ui.context().close();
    await second.app.close();
  }
});
