import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { openAssembly, startTransfer } from '../fixtures/transfers';
import type { Locator } from '@playwright/test';

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);

/** The preview image a thumbnail shows, decoded: a real picture, not a blank square. */
async function previewOf(thumb: Locator) {
  const src = await thumb.locator('img').getAttribute('src');
  expect(src).toMatch(/^data:image\/(jpeg|png);base64,/);
  const image = sharp(Buffer.from(src!.split(',')[1]!, 'base64'));
  const [meta, stats] = await Promise.all([image.metadata(), image.stats()]);
  return { width: meta.width, height: meta.height, spread: Math.max(...stats.channels.map((c) => c.stdev)) };
}

test('a video gets a poster frame and an audio file a waveform, in the file list and as results; a Template shows its steps', async ({ ui, workDir }) => {
  // Real media, made here: a 4 s test-pattern video and a 3 s tone that swells and fades.
  const dir = path.join(workDir, 'media');
  await mkdir(dir);
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=4:size=320x240:rate=10', '-pix_fmt', 'yuv420p', path.join(dir, 'clip.mp4'));
  ffmpeg('-f', 'lavfi', '-i', 'aevalsrc=sin(2*PI*440*t)*abs(sin(PI*t/1.5)):d=3', path.join(dir, 'tone.wav'));

  await ui.getByLabel('Choose folder').setInputFiles(dir);
  const rows = ui.getByTestId('file-row');
  await expect(rows).toHaveCount(2);

  // The Upload view's list: a poster frame with a play glyph and the length, a waveform with the length.
  const videoThumb = rows.filter({ hasText: 'media/clip.mp4' }).getByTestId('thumb');
  await expect(videoThumb).toHaveAttribute('data-kind', 'video');
  await expect(videoThumb).toHaveAttribute('data-preview', 'ready', { timeout: 20_000 });
  await expect(videoThumb.locator('.thumb-play')).toBeVisible();
  await expect(videoThumb.getByTestId('thumb-duration')).toHaveText('0:04');
  const poster = await previewOf(videoThumb);
  expect([poster.width, poster.height]).toEqual([64, 48]);
  expect(poster.spread).toBeGreaterThan(20);

  const audioThumb = rows.filter({ hasText: 'media/tone.wav' }).getByTestId('thumb');
  await expect(audioThumb).toHaveAttribute('data-kind', 'audio');
  await expect(audioThumb).toHaveAttribute('data-preview', 'ready', { timeout: 20_000 });
  await expect(audioThumb.getByTestId('thumb-duration')).toHaveText('0:03');
  expect((await previewOf(audioThumb)).width).toBe(64);

  // Choosing a Template shows its steps, in order, with their robots.
  await ui.getByText('A Template', { exact: true }).click();
  const select = ui.getByTestId('template-select');
  await select.selectOption({ label: 'Encode videos for the web (builtin/video-encode@0.0.1)' });
  const steps = ui.getByRole('list', { name: 'Steps of builtin/video-encode' });
  await expect(steps.getByTestId('template-step')).toHaveText([':original (/upload/handle)', 'videos (/file/filter)', 'encoded (/video/encode 1280×720)', 'thumbs (/video/thumbs 1 thumb)']);
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath('media-upload.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('media-upload-dark.png'), animations: 'disabled' });

  // Stored as they are, both come back as results with the same previews.
  await ui.getByRole('radio', { name: /Just store the originals/ }).check();
  await startTransfer(ui, 'Start · 2 files');
  await openAssembly(ui);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 120_000 });
  const cards = ui.getByTestId('result-card');
  await expect(cards).toHaveCount(2);
  const videoResult = cards.filter({ hasText: 'clip.mp4' }).getByTestId('thumb');
  await expect(videoResult).toHaveAttribute('data-preview', 'ready', { timeout: 20_000 });
  await expect(videoResult.getByTestId('thumb-duration')).toHaveText('0:04');
  const resultPoster = await previewOf(videoResult);
  // The Assembly view's result rows have 64 px thumbnails (the run view's cards had 96 px): the preview is made for that size.
  expect([resultPoster.width, resultPoster.height]).toEqual([128, 96]);
  expect(resultPoster.spread).toBeGreaterThan(20);
  const audioResult = cards.filter({ hasText: 'tone.wav' }).getByTestId('thumb');
  await expect(audioResult).toHaveAttribute('data-kind', 'audio');
  await expect(audioResult).toHaveAttribute('data-preview', 'ready', { timeout: 20_000 });
  await expect(audioResult.getByTestId('thumb-duration')).toHaveText('0:03');

  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath('media-results.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('media-results-dark.png'), animations: 'disabled' });
});

test('the Template diff marks collapsed lines with an icon, not a glyph the font may lack', async ({ ui }) => {
  const content = (width: number) =>
    JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, small: { robot: '/image/resize', use: ':original', width, height: width } }, fields: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`field${i}`, `value ${i}`])) }, null, 2);
  const setText = async (text: string) => {
    await ui.getByTestId('template-editor').locator('.cm-content').click();
    await ui.keyboard.press('ControlOrMeta+a');
    await ui.keyboard.press('Delete');
    await ui.keyboard.insertText(text);
    await expect(ui.getByTestId('template-editor').locator('.cm-content')).toContainText('value 15');
  };
  await ui.getByRole('button', { name: 'Templates' }).click();
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await ui.getByTestId('template-name').fill('Many fields');
  await setText(content(200));
  await ui.getByRole('button', { name: 'Save Template' }).click();
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Edit' }).click();
  await setText(content(300));
  await ui.getByRole('button', { name: 'Review and save…' }).click();
  const dialog = ui.getByRole('dialog', { name: 'Review your changes' });
  const collapsed = dialog.locator('.cm-collapsedLines').first();
  await expect(collapsed).toHaveText(/^\d+ unchanged lines \(click to show\)$/);
  const mark = await collapsed.evaluate((el) => {
    // Runs in the page (DOM types are not in the Node tsconfig).
    type Style = { content: string; maskImage: string; width: string };
    const style = (globalThis as unknown as { getComputedStyle: (e: unknown, pseudo: string) => Style }).getComputedStyle(el, '::before');
    return { content: style.content, mask: style.maskImage, width: style.width };
  });
  expect(mark.content).toBe('""');
  expect(mark.mask).toMatch(/^url\("data:image\/svg\+xml/);
  expect(mark.width).toBe('12px');
  await expect(dialog.locator('.cm-foldGutter')).toHaveCount(0);
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('template-diff-collapsed-dark.png'), animations: 'disabled' });
  // Clicking the collapsed lines shows them.
  await collapsed.click();
  await expect(dialog.getByTestId('template-diff')).toContainText('value 8');
});
