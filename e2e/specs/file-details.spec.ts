import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { openAssembly, startTransfer } from '../fixtures/transfers';

/**
 * File details (issue 15): a user uploads a photo whose EXIF date carries its zone (+02:00) and a
 * 45-megapixel image, opens the Assembly's file details and sees the date in their own time zone with
 * the UTC value on hover, every meta key in its group, and the thumbhash placeholder for the photo but
 * none for the image over the 40-megapixel limit.
 */
test('a zoned EXIF date shows in local time with UTC on hover; a 45 MP image has no thumbhash', async ({ ui, workDir }) => {
  const photo = path.join(workDir, 'zoned.jpg');
  await sharp({ create: { width: 640, height: 420, channels: 3, background: '#2a7d5f' } })
    .composite([{ input: { create: { width: 320, height: 210, channels: 3, background: '#e0b030' } }, left: 0, top: 0 }])
    .jpeg()
    .withExif({ IFD0: { Make: 'Canon', Model: 'EOS R5' }, IFD2: { DateTimeOriginal: '2024:06:01 12:00:00', OffsetTimeOriginal: '+02:00', ISOSpeedRatings: '200', FNumber: '28/10' } })
    .toFile(photo);
  // 8000 × 5700 = 45.6 megapixels in one flat colour: quick to make and to send.
  const huge = path.join(workDir, 'huge.png');
  await sharp({ create: { width: 8000, height: 5700, channels: 3, background: '#30446a' } }).png().toFile(huge);
  // The user is in Tokyo (UTC+9): 10:00 UTC reads 19:00 there.
  const cdp = await ui.context().newCDPSession(ui);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Asia/Tokyo' });

  await ui.getByLabel('Choose files').setInputFiles([photo, huge]);
  await expect(ui.getByTestId('file-row')).toHaveCount(2);
  await ui.getByText('Just store the originals').click();
  await startTransfer(ui, 'Start · 2 files');
  await openAssembly(ui);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 60_000 });
  await ui.screenshot({ path: screenshotPath('file-details-run-link.png'), animations: 'disabled' });

  const uploadRow = (name: string) => ui.getByTestId('file-row').filter({ hasText: name });
  const detail = (panel: ReturnType<typeof uploadRow>, key: string) => panel.locator(`[data-testid="file-detail"][data-key="${key}"] dd`);

  const photoRow = uploadRow('zoned.jpg');
  await photoRow.getByRole('button', { name: 'Details of zoned.jpg' }).click();
  const photoPanel = photoRow.getByTestId('file-details');
  await expect(photoPanel).toBeVisible();
  const recorded = detail(photoPanel, 'date_recorded');
  await expect(recorded).toHaveAttribute('title', '2024-06-01 10:00:00 UTC');
  // The app's one format: local time (this page runs in Tokyo, UTC+9), 24-hour, to the second.
  await expect(recorded).toContainText('1 Jun 2024, 19:00:00');
  await expect(detail(photoPanel, 'device_name')).toHaveText('EOS R5');
  await expect(detail(photoPanel, 'iso')).toHaveText('200');
  await expect(detail(photoPanel, 'sha256')).toHaveText(/^[0-9a-f]{64}$/);
  const groups = await photoPanel.getByTestId('file-detail-group').evaluateAll((all) => all.map((g) => g.getAttribute('data-group')));
  expect(groups).toEqual(expect.arrayContaining(['File', 'Image', 'Camera', 'Dates', 'Hashes']));
  await expect(photoPanel).toHaveAttribute('data-thumbhash', 'present');
  await expect(photoPanel.getByTestId('thumbhash-placeholder')).toHaveCount(1);
  await expect(photoPanel.getByTestId('thumb')).toHaveAttribute('data-preview', 'ready', { timeout: 20_000 });

  const hugeRow = uploadRow('huge.png');
  await hugeRow.getByRole('button', { name: 'Details of huge.png' }).click();
  const hugePanel = hugeRow.getByTestId('file-details');
  await expect(hugePanel).toHaveAttribute('data-thumbhash', 'absent');
  await expect(hugePanel.getByTestId('thumbhash-placeholder')).toHaveCount(0);
  await expect(detail(hugePanel, 'width')).toHaveText('8000');
  await expect(detail(hugePanel, 'thumbhash')).toHaveText('none: 45.6 MP is over the 40 MP limit');
  await hugePanel.getByTestId('thumb').waitFor();

  // Keyboard: the toggle is a button in the tab order that closes the panel again.
  const hugeToggle = hugeRow.getByRole('button', { name: 'Details of huge.png' });
  await hugeToggle.focus();
  await ui.keyboard.press('Enter');
  await expect(hugeRow.getByTestId('file-details')).toHaveCount(0);
  await expect(hugeToggle).toHaveAttribute('aria-expanded', 'false');

  await photoPanel.scrollIntoViewIfNeeded();
  await ui.screenshot({ path: screenshotPath('file-details.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('file-details-dark.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });
});
