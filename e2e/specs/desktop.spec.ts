import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { startAndOpenAssembly, startTransfer } from '../fixtures/transfers';

// Desktop habits in the browser host: shortcuts, the shortcut list, and a Web Notification when a drop
// ends. Browser host only (playwright.config.ts): Electron's menu presses the same keys and its OS
// notifications are main's (unit-tested in electron/main against Electron's types).

test('keyboard shortcuts open screens, the file chooser and the shortcut list', async ({ ui, workDir }) => {
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  await ui.keyboard.press('Control+3');
  await expect(ui.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  // Ctrl+F goes to the screen's search box.
  await ui.keyboard.press('Control+f');
  await expect(ui.getByRole('searchbox', { name: 'Search Assemblies' })).toBeFocused();
  await ui.keyboard.press('Escape');
  await ui.locator('main').focus();

  // "?" lists every shortcut; Escape closes the list.
  await ui.keyboard.press('Shift+?');
  const list = ui.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(list).toBeVisible();
  await expect(list.getByRole('row', { name: /Ctrl\+O Add files…/ })).toBeVisible();
  await expect(list.getByRole('row', { name: /Ctrl\+3 Activity/ })).toBeVisible();
  await ui.screenshot({ path: screenshotPath('shortcuts-dialog.png') });
  await ui.keyboard.press('Escape');
  await expect(list).toBeHidden();

  // Ctrl+O from anywhere: Upload opens with the file chooser, and the picked file is in the draft.
  const file = path.join(workDir, 'from-shortcut.jpg');
  await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } }).jpeg().toFile(file);
  const [chooser] = await Promise.all([ui.waitForEvent('filechooser'), ui.keyboard.press('Control+o')]);
  await chooser.setFiles(file);
  await expect(ui.getByTestId('file-row').filter({ hasText: 'from-shortcut.jpg' })).toHaveCount(1);
});

test('a drop that ends while the window is in the background raises a Web Notification that opens it', async ({ ui, workDir, running }) => {
  if (running.kind !== 'browser-host') throw new Error('browser host only (see playwright.config.ts)');
  await ui.context().grantPermissions(['notifications'], { origin: running.app.host.origin });
  // Record what the page raises, through the real Notification API.
  await ui.addInitScript(() => {
    const w = globalThis as unknown as { Notification: new (title: string, options?: { body?: string; tag?: string }) => { onclick: (() => void) | null }; __notices: unknown[] };
    const Real = w.Notification;
    w.__notices = [];
    w.Notification = class extends Real {
      constructor(title: string, options?: { body?: string; tag?: string }) {
        super(title, options);
        w.__notices.push({ title, body: options?.body, tag: options?.tag, instance: this });
      }
    };
  });
  await ui.reload();
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  const file = path.join(workDir, 'evening.jpg');
  await sharp({ create: { width: 800, height: 600, channels: 3, background: '#a53' } }).jpeg().toFile(file);
  await ui.getByLabel('Choose files').setInputFiles(file);
  await ui.getByText('Resize images to 1024 px').click();

  // The user switches to another window while it runs.
  await ui.evaluate(() => (globalThis as unknown as { dispatchEvent(e: Event): void }).dispatchEvent(new Event('blur')));
  await startTransfer(ui, 'Start · 1 file');
  await expect
    .poll(() => ui.evaluate(() => (globalThis as unknown as { __notices: Array<{ title: string; body: string }> }).__notices.map((n) => `${n.title} | ${n.body}`)), { timeout: 60_000 })
    .toEqual([expect.stringMatching(/finished \| 1 file processed$/)]);

  // Clicking it brings the app back on the Assembly of that drop.
  await ui.getByRole('button', { name: 'Upload', exact: true }).click();
  await ui.evaluate(() => (globalThis as unknown as { __notices: Array<{ instance: { onclick: () => void } }> }).__notices[0]!.instance.onclick());
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
  expect(new URL(ui.url()).hash).toMatch(/^#\/assemblies\/[0-9a-f]{32}$/);
});

test('a result drags out as its file (DownloadURL), and background mode is off with the reason in the browser host', async ({ ui, workDir }) => {
  const file = path.join(workDir, 'harbour.jpg');
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#27a' } }).jpeg().toFile(file);
  await ui.getByLabel('Choose files').setInputFiles(file);
  await ui.getByText('Resize images to 1024 px').click();
  await startAndOpenAssembly(ui, 'Start · 1 file');
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 60_000 });
  const card = ui.getByTestId('result-card').first();
  await expect(card).toHaveAttribute('draggable', 'true');

  // A real dragstart, as the page gets it when the user starts dragging the card.
  const dragged = await card.evaluate((el) => {
    // The page's own DataTransfer and DragEvent (this file is typed without the DOM library).
    const page = globalThis as unknown as { DataTransfer: new () => { getData(type: string): string }; DragEvent: new (type: string, init: object) => Event };
    const data = new page.DataTransfer();
    el.dispatchEvent(new page.DragEvent('dragstart', { bubbles: true, cancelable: true, dataTransfer: data }));
    return { downloadUrl: data.getData('DownloadURL'), uris: data.getData('text/uri-list') };
  });
  const name = (await card.getAttribute('aria-label')) ?? '';
  const [mime, dropName, ...rest] = dragged.downloadUrl.split(':');
  const url = rest.join(':');
  expect([mime, dropName]).toEqual(['image/jpeg', name]);
  expect(url).toBe(dragged.uris);
  // Dropped on the desktop, Chromium saves what that URL serves: the result itself.
  const served = await ui.request.get(url);
  expect(served.status()).toBe(200);
  expect((await sharp(await served.body()).metadata()).format).toBe('jpeg');

  await ui.getByRole('button', { name: 'Workspaces' }).click();
  const prefs = ui.getByTestId('desktop-preferences');
  const box = prefs.getByRole('checkbox', { name: 'Keep running in the background when the window is closed' });
  await expect(box).toBeDisabled();
  await expect(box).toHaveAccessibleDescription(/no tray icon\. Closing this tab stops the page/);
  await prefs.scrollIntoViewIfNeeded();
  await ui.screenshot({ path: screenshotPath('desktop-preferences.png') });
});
