import type { Locator, Page } from '@playwright/test';
import { expect, test, type RunningApp } from '../fixtures/app';

/**
 * Unsaved input is never lost by navigation: every form that holds typed input (the admin forms, the chat
 * model settings, the watch folder dialog, the Transfers settings, the CDN URL form, the Template editor)
 * asks "Leave without saving?" before the sidebar, Back, a shortcut or a reload takes it away. Stay keeps
 * every character; Leave goes. Closing a form in place (its Cancel, the settings panel's Close) asks
 * "Discard your changes?". One app start, one form after the other.
 */

const browserHost = (running: RunningApp) => {
  if (running.kind !== 'browser-host') throw new Error('unsaved-input.spec.ts creates its Smart CDN key through the browser host core');
  return running;
};

const nav = (ui: Page, name: string): Locator => ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: new RegExp(`^${name}`) });

test('typed input in every form survives an attempt to leave: Stay keeps it, Leave lets it go', async ({ ui, running }) => {
  const { core } = browserHost(running).app;
  expect((await core.handlers['authKeys:create']({ description: 'CDN', smartCdn: true })).ok).toBe(true);
  const question = ui.getByRole('dialog', { name: 'Leave without saving?' });
  const heading = (name: string) => ui.getByRole('heading', { name, level: 1 });
  /** Tries to leave, expects the question naming `what`, answers Stay, and checks the input is all there. */
  const staysWith = async (leave: () => Promise<unknown>, what: string, field: Locator, value: string) => {
    await leave();
    await expect(question).toBeVisible();
    await expect(question).toContainText(`What you changed in ${what} is not saved`);
    await expect(question.getByRole('button', { name: 'Stay' })).toBeFocused();
    await question.getByRole('button', { name: 'Stay' }).click();
    await expect(question).toBeHidden();
    await expect(field).toHaveValue(value);
  };
  const leaves = async (leave: () => Promise<unknown>) => {
    await leave();
    await question.getByRole('button', { name: 'Leave' }).click();
    await expect(question).toBeHidden();
  };

  // Credentials: the sidebar, then Back (Escape answers Stay), then Leave.
  await nav(ui, 'Credentials').click();
  await ui.getByRole('button', { name: 'New credentials' }).first().click();
  const credentialName = ui.getByTestId('credential-name');
  await credentialName.fill('half_typed_sftp');
  await ui.getByLabel('Host', { exact: true }).fill('sftp.example.com');
  await staysWith(() => nav(ui, 'Activity').click(), 'the form “New credentials”', credentialName, 'half_typed_sftp');
  await ui.goBack();
  await expect(question).toBeVisible();
  await ui.keyboard.press('Escape');
  await expect(question).toBeHidden();
  await expect(ui.getByLabel('Host', { exact: true })).toHaveValue('sftp.example.com');
  await leaves(() => nav(ui, 'Auth Keys').click());
  await expect(heading('Auth Keys')).toBeVisible();

  // Auth Keys: a screen shortcut.
  await ui.getByRole('button', { name: 'New key' }).click();
  const description = ui.getByLabel('Description');
  await description.fill('Half a description');
  await ui.locator('main').focus();
  await staysWith(() => ui.keyboard.press('Control+3'), 'the form “New Auth Key”', description, 'Half a description');
  await leaves(() => nav(ui, 'Workspaces').click());

  // Workspaces: the add form, then the chat model settings on the same screen.
  await ui.getByRole('button', { name: 'Add workspace' }).click();
  const workspaceName = ui.getByLabel('Workspace name');
  await workspaceName.fill('Studio');
  await staysWith(() => nav(ui, 'Templates').click(), 'the form “Add a workspace”', workspaceName, 'Studio');
  // The form's own Cancel asks like Escape: Cancel keeps every character, Discard changes closes it.
  await ui.getByRole('form', { name: 'Add a workspace' }).getByRole('button', { name: 'Cancel', exact: true }).click();
  const discard = ui.getByRole('dialog', { name: 'Discard your changes?' });
  await discard.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(workspaceName).toHaveValue('Studio');
  await ui.getByRole('form', { name: 'Add a workspace' }).getByRole('button', { name: 'Cancel', exact: true }).click();
  await discard.getByRole('button', { name: 'Discard changes' }).click();
  await expect(ui.getByRole('form', { name: 'Add a workspace' })).toBeHidden();
  const model = ui.getByTestId('chat-model-settings').getByLabel('Model', { exact: true });
  await model.fill('qwen2.5:0.5b');
  await staysWith(() => nav(ui, 'Templates').click(), 'the chat model settings', model, 'qwen2.5:0.5b');
  await leaves(() => nav(ui, 'Watch folders').click());

  // The watch folder dialog (a modal: Back is the way out).
  await ui.getByRole('button', { name: 'Add watch folder' }).click();
  const watch = ui.getByRole('dialog', { name: 'Add a watch folder' });
  const folder = watch.getByLabel('Folder to watch');
  await folder.fill('/tmp/inbox-typed-by-hand');
  await staysWith(() => ui.goBack(), 'the new watch folder', folder, '/tmp/inbox-typed-by-hand');
  await expect(watch).toBeVisible();
  await watch.getByRole('button', { name: 'Cancel' }).click();
  await expect(watch).toBeHidden();

  // Transfers settings: a value refused at its field is not saved — leaving asks, and so does Close.
  await nav(ui, 'Transfers').click();
  await ui.getByRole('button', { name: 'Settings' }).click();
  const settings = ui.getByRole('region', { name: 'Transfer settings' });
  const filesAtOnce = settings.getByLabel('Files at once');
  await filesAtOnce.fill('99');
  await filesAtOnce.blur();
  await expect(settings.getByText('99 is too large: at most 32. Not saved.')).toBeVisible();
  await staysWith(() => nav(ui, 'CDN URLs').click(), 'the transfer settings', filesAtOnce, '99');
  await settings.getByRole('button', { name: 'Close' }).click();
  await discard.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(filesAtOnce).toHaveValue('99');
  await settings.getByRole('button', { name: 'Close' }).click();
  await discard.getByRole('button', { name: 'Discard changes' }).click();
  await expect(settings).toBeHidden();

  // The CDN URL form: typed and not signed asks; once signed, leaving asks nothing.
  await nav(ui, 'CDN URLs').click();
  const template = ui.getByLabel('Template');
  await template.fill('shop-thumbs');
  await staysWith(() => nav(ui, 'Templates').click(), 'the CDN URL form', template, 'shop-thumbs');
  await ui.getByLabel('File path').fill('shop/mug.jpg');
  await ui.getByRole('button', { name: 'Sign URL' }).click();
  await expect(ui.getByLabel('Signed URL')).toHaveValue(/\/shop-thumbs\/shop%2Fmug\.jpg\?/);
  await nav(ui, 'Templates').click();
  await expect(question).toBeHidden();
  await expect(heading('Templates')).toBeVisible();

  // The Template editor: reloading the page (closing the window) asks through beforeunload.
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  const templateName = ui.getByTestId('template-name');
  await templateName.click();
  await ui.keyboard.type('Typed by hand');
  const asked = ui.waitForEvent('dialog');
  await ui.evaluate(() => {
    setTimeout(() => (globalThis as unknown as { location: { reload(): void } }).location.reload(), 0);
  });
  const unload = await asked;
  expect(unload.type()).toBe('beforeunload');
  await unload.dismiss();
  await expect(templateName).toHaveValue('Typed by hand');
  await staysWith(() => nav(ui, 'Upload').click(), 'the Template editor', templateName, 'Typed by hand');
  await leaves(() => nav(ui, 'Upload').click());
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
});
