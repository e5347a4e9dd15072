import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { openAssembly, startTransfer } from '../fixtures/transfers';

/**
 * Notifications end to end: an upload notifies the in-app webhook tester, which shows it with its signature
 * verified in core; its notification is replayed to a receiver that fails twice and then answers 200 (the
 * embedded service runs with short retry delays), and the retries show in the detail's attempts; a last
 * replay goes back to the tester.
 */

test.use({ notify: { retryDelaysMs: [1000, 1000, 2000] } });

/** A receiver that answers 500 twice, then 200. */
async function flakyReceiver(): Promise<{ server: Server; url: string; calls: () => number }> {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      if (calls <= 2) res.writeHead(500, { 'content-type': 'text/plain' }).end('not ready');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/flaky`, calls: () => calls };
}

test('a webhook reaches the in-app tester verified, a failing receiver is retried, and a notification is replayed to another URL', async ({ ui, workDir }) => {
  const flaky = await flakyReceiver();
  try {
    const dir = path.join(workDir, 'notify');
    await mkdir(dir);
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c04030' } }).jpeg().toFile(path.join(dir, 'note.jpg'));

    // Upload view: one file, stored as is, notifying the in-app tester.
    await ui.getByLabel('Choose folder').setInputFiles(dir);
    await expect(ui.getByTestId('file-row')).toHaveCount(1);
    await ui.getByText('Just store the originals').click();
    await ui.getByRole('button', { name: /^Options/ }).click();
    const notifyUrl = ui.getByRole('textbox', { name: 'Notify URL' });
    await notifyUrl.fill('not a url');
    await expect(ui.getByText('A notify URL starts with http:// or https://.')).toBeVisible();
    await expect(ui.getByRole('button', { name: /^Start/ })).toBeDisabled();
    await ui.getByRole('button', { name: 'Use the in-app tester' }).click();
    await expect(notifyUrl).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/webhook$/);
    await ui.screenshot({ path: screenshotPath('notifications-upload.png') });
    await startTransfer(ui);
    await openAssembly(ui);
    await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 30_000 });
    const assemblyId = (await ui.getByTestId('assembly-facts').textContent())?.match(/[0-9a-f]{32}/)?.[0];
    expect(assemblyId).toBeTruthy();

    // Its detail: the tester received the notification, signature verified with the Local key's secret.
    // A deep link to the Assembly detail (the Assembly view shows the run, the detail every notification).
    await ui.evaluate((hash) => void ((globalThis as unknown as { location: { hash: string } }).location.hash = hash), `#/assemblies/${assemblyId}`);
    await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
    const tester = ui.getByTestId('webhook-tester');
    const received = tester.getByTestId('webhook-received').filter({ hasText: assemblyId! });
    await expect(received).toHaveCount(1, { timeout: 20_000 });
    await expect(received.getByTestId('webhook-verified')).toHaveText('✓ Verified (sha1)');
    await expect(received.getByTestId('webhook-verification')).toContainText('Local (this computer)');
    await received.getByText('Payload (JSON)').click();
    await expect(received.locator('pre')).toContainText(`"assembly_id": "${assemblyId}"`);
    await expect(ui.getByTestId('notification-attempt')).toHaveCount(1);
    await expect(ui.getByTestId('notification-attempt').first()).toContainText('200 OK');

    // Replay to another URL, a receiver that fails twice: the first outcome at once, then the retries.
    await ui.getByRole('textbox', { name: 'Notification replay URL' }).fill(flaky.url);
    await ui.getByRole('button', { name: 'Replay notification' }).click();
    const result = ui.getByTestId('notification-replay-result');
    await expect(result).toContainText('Failed · HTTP 500');
    await expect(result).toContainText('The service retries it');
    const toFlaky = ui.getByTestId('notification-attempt').filter({ hasText: flaky.url });
    await expect(toFlaky).toHaveCount(3, { timeout: 20_000 });
    await expect(toFlaky.nth(0)).toContainText('HTTP 500');
    await expect(toFlaky.nth(1)).toContainText('HTTP 500');
    await expect(toFlaky.nth(2)).toContainText('200 OK');
    await expect(toFlaky.nth(2)).toContainText('(replay)');
    expect(flaky.calls()).toBe(3);
    await ui.getByTestId('notification-replay').scrollIntoViewIfNeeded();
    await ui.screenshot({ path: screenshotPath('notifications-detail.png') });

    // And back to the tester, filled in by one click: delivered at once, received and verified again.
    await ui.getByRole('button', { name: 'Use the webhook tester' }).click();
    await expect(ui.getByRole('textbox', { name: 'Notification replay URL' })).toHaveValue(/\/webhook$/);
    await ui.getByRole('button', { name: 'Replay notification' }).click();
    await expect(result).toContainText('Delivered · HTTP 200');
    await expect(received).toHaveCount(2);
    await expect(received.getByTestId('webhook-verified')).toHaveText(['✓ Verified (sha1)', '✓ Verified (sha1)']);
    await tester.scrollIntoViewIfNeeded();
    await ui.screenshot({ path: screenshotPath('notifications-tester.png') });
    await ui.emulateMedia({ colorScheme: 'dark' });
    await ui.screenshot({ path: screenshotPath('notifications-tester-dark.png') });
  } finally {
    flaky.server.close();
  }
});
