import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import type { RunningApp } from '../fixtures/app';
import { expect, test } from '../fixtures/app';
import { axeOn, showTheme, WCAG_TAGS } from '../fixtures/axe';
import { screenshotPath } from '../fixtures/paths';
import { localSdk } from '../fixtures/vendor-sdk';

/**
 * A Smart CDN URL built in the app runs its Template: a stored photo, a Template that resizes to
 * `${fields.w}`, a URL signed with w=150, and the preview shows the 150 px image (a cache miss, then a
 * hit); a width the Template cannot use says the Template failed, with the service's code. A key whose
 * scope list lacks smart_cdn:sign is not offered, with the reason shown.
 */

const browserHost = (running: RunningApp) => {
  if (running.kind !== 'browser-host') throw new Error('cdn.spec.ts creates its Template and key through the browser host core');
  return running;
};

/** The DOM's Range, as far as the alignment check reads it (the e2e code compiles without the DOM lib). */
type TextRange = { selectNodeContents(node: unknown): void; getBoundingClientRect(): { x: number } };

/** Serious or critical WCAG 2.1 AA violations on the page as it is, in both themes. */
async function axeProblems(ui: Page): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await showTheme(ui, colorScheme);
    const { violations } = await axeOn(ui).withTags(WCAG_TAGS).analyze();
    found.push(...violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${colorScheme}: ${v.id} (${v.nodes.length})`));
  }
  await ui.emulateMedia({ colorScheme: 'light' });
  return found;
}

test('a Smart CDN URL built in the app serves the photo resized to the asked width', async ({ ui, running, workDir }) => {
  const { core } = browserHost(running).app;
  const photo = path.join(workDir, 'mug.jpg');
  await sharp({ create: { width: 600, height: 400, channels: 3, background: '#2a7d5f' } }).jpeg().toFile(photo);
  const sdk = await localSdk(running);
  const stored = await sdk.createAssembly({
    files: { photo },
    params: { steps: { ':original': { robot: '/upload/handle' }, kept: { robot: '/transloadit/store', use: ':original', path: 'shop/mug.jpg' } } },
    waitForCompletion: true,
  });
  expect(stored.ok).toBe('ASSEMBLY_COMPLETED');
  const steps = { ':original': { robot: '/upload/handle' }, resized: { robot: '/image/resize', use: ':original', width: '${fields.w}', resize_strategy: 'fit' } };
  expect((await core.handlers['templates:create']({ name: 'shop-thumbs', content: { steps }, requireSignatureAuth: 0 })).ok).toBe(true);
  expect((await core.handlers['authKeys:create']({ description: 'CDN', smartCdn: true })).ok).toBe(true);
  // A Smart CDN key scoped without smart_cdn:sign is not offered, and the page says why.
  expect((await core.handlers['authKeys:create']({ description: 'CDN, narrow', smartCdn: true, scopes: ['assemblies:read'] })).ok).toBe(true);

  await ui.getByRole('button', { name: 'CDN URLs' }).click();
  await expect(ui.getByTestId('cdn-scope-problem')).toContainText('its scope list lacks smart_cdn:sign');
  // The Parameters group's label starts where the other fields' labels do.
  const labelLeft = (text: string) =>
    ui.locator('.cdn-form .field-label', { hasText: new RegExp(`^${text}$`) }).first().evaluate((label) => {
      // Where the text starts (a legend's own padding moves its text, not its box).
      const range = (label as unknown as { ownerDocument: { createRange(): TextRange } }).ownerDocument.createRange();
      range.selectNodeContents(label);
      return range.getBoundingClientRect().x;
    });
  expect(await labelLeft('Parameters')).toBeCloseTo(await labelLeft('Signing key'), 0);
  await ui.getByLabel('Template').fill('shop-thumbs');
  // The stored asset is offered as an input.
  await expect(ui.locator('#cdn-assets option[value="shop/mug.jpg"]')).toHaveCount(1);
  await ui.getByLabel('File path').fill('shop/mug.jpg');
  await ui.getByLabel('Parameter 1 name').fill('w');
  await ui.getByLabel('Parameter 1 value').fill('150');
  await ui.getByRole('button', { name: 'Sign URL' }).click();

  const preview = ui.getByTestId('cdn-preview');
  const image = preview.getByTestId('cdn-preview-image');
  await expect(image).toBeVisible({ timeout: 30_000 });
  expect(await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(150);
  await expect(preview.getByTestId('cdn-preview-facts')).toContainText('image/jpeg');
  await expect(preview.getByTestId('cdn-preview-facts')).toContainText('cache miss');
  await ui.screenshot({ path: screenshotPath('cdn-preview.png'), animations: 'disabled' });
  expect(await axeProblems(ui)).toEqual([]);
  await preview.page().getByRole('button', { name: 'Fetch again' }).click();
  await expect(preview.getByTestId('cdn-preview-facts')).toContainText('cache hit');
  // The signed URL serves the same for anyone who has it.
  const served = await fetch(await ui.getByLabel('Signed URL').inputValue());
  expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(150);

  await ui.getByLabel('Parameter 1 value').fill('wide');
  await ui.getByRole('button', { name: 'Sign URL' }).click();
  await expect(preview.getByRole('alert')).toContainText('IMAGE_RESIZE_VALIDATION');
  await expect(preview).toContainText('The Template failed on this input');
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('cdn-preview-failed-dark.png'), animations: 'disabled' });
  expect(await axeProblems(ui)).toEqual([]);
});
