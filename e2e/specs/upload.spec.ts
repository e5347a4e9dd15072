import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from '../fixtures/app';
import { generatePhotoFolder } from '../fixtures/images';
import { screenshotPath } from '../fixtures/paths';
import { openAssembly, startTransfer, transferList } from '../fixtures/transfers';

test('a user adds a folder and dropped photos, resizes them to 1024 px and sees the results', async ({ ui, workDir, running }) => {
  const { dir, images } = await generatePhotoFolder(workDir, 'photos');
  // A File made inside a page has no path on disk, which Electron's bridge needs (it reads files in
  // place); there the drop is covered by the browser host run and the picker alone is used.
  const canDrop = running.kind === 'browser-host';
  const dropped = canDrop
    ? [
        { name: 'panorama.jpg', width: 3000, height: 1500 },
        { name: 'portrait.png', width: 1500, height: 2000 },
      ]
    : [];
  for (const image of dropped) {
    const pipeline = sharp({ create: { width: image.width, height: image.height, channels: 3, background: '#7a4fb0' } });
    await (image.name.endsWith('.png') ? pipeline.png() : pipeline.jpeg()).toFile(path.join(workDir, image.name));
  }

  await expect(ui.getByTestId('drop-zone')).toBeVisible();

  // "Choose folder…": the picker hands over the whole folder with its subfolders.
  await ui.getByLabel('Choose folder').setInputFiles(dir);
  const rows = ui.getByTestId('file-row');
  await expect(rows).toHaveCount(images.length);
  for (const image of images) await expect(rows.filter({ hasText: image.relativePath })).toHaveCount(1);

  // A drop from the file manager: a DataTransfer with real files, dispatched on the drop zone.
  const payload = await Promise.all(
    dropped.map(async (d) => ({
      name: d.name,
      type: d.name.endsWith('.png') ? 'image/png' : 'image/jpeg',
      base64: (await readFile(path.join(workDir, d.name))).toString('base64'),
    })),
  );
  const dataTransfer = await ui.evaluateHandle((files) => {
    // Runs in the page (DOM types are not in the Node tsconfig).
    const dom = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: unknown): void } };
      File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
    };
    const transfer = new dom.DataTransfer();
    for (const f of files) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new dom.File([bytes], f.name, { type: f.type }));
    }
    return transfer;
  }, payload);
  if (canDrop) {
    await ui.getByTestId('drop-zone').dispatchEvent('dragenter', { dataTransfer });
    await ui.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
  }
  await expect(rows).toHaveCount(images.length + dropped.length);
  for (const d of dropped) await expect(rows.filter({ hasText: d.name })).toHaveCount(1);

  await ui.getByText('Resize images to 1024 px').click();
  // Start queues the transfer; Transfers lists every file under its batch (one Assembly for this drop).
  await startTransfer(ui, `Start · ${images.length + dropped.length} files`);
  await expect(transferList(ui).getByTestId('transfer-batch')).toHaveCount(1);
  await openAssembly(ui);

  const state = ui.getByTestId('assembly-state');
  await expect(state).toHaveText('Completed', { timeout: 120_000 });
  await expect(ui.getByTestId('assembly-error')).toHaveCount(0);

  const cards = ui.getByTestId('result-card');
  await expect(cards).toHaveCount(images.length + dropped.length);
  // Fit inside 1024 × 1024, keeping the aspect ratio.
  await expect(cards.filter({ hasText: '1024 × 768' })).toHaveCount(2);
  await expect(cards.filter({ hasText: '768 × 1024' })).toHaveCount(canDrop ? 2 : 1);
  await expect(cards.filter({ hasText: '1024 × 512' })).toHaveCount(canDrop ? 1 : 0);
  // The live block stays, saying how it ended: nothing below it jumps when the Assembly completes.
  await expect(ui.getByTestId('execution-progress')).toHaveAttribute('data-phase', 'ended');
  await expect(ui.getByTestId('live-line')).toContainText('Completed in');

  // Wait for the previews so the screenshot in the README shows them.
  await expect(ui.locator('[data-testid="result-card"] [data-testid="thumb"][data-preview="ready"]').first()).toBeVisible();
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath('upload-complete.png'), fullPage: false, animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('upload-complete-dark.png'), fullPage: false, animations: 'disabled' });
});
