import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import type { RunningApp } from '../fixtures/app';
import { localSdk as sdkFor } from '../fixtures/vendor-sdk';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';

/**
 * The detail of an Assembly this app did not start (issue 13): every replay of it shows, also one another
 * client made (the vendor's Node SDK), linked both ways; and its results download to disk by Assembly id,
 * byte for byte what its status record lists, then open from there.
 */

const browserHost = (running: RunningApp) => {
  if (running.kind !== 'browser-host') throw new Error('assembly-detail.spec.ts reads the local key from the browser host core');
  return running;
};


const steps = {
  ':original': { robot: '/upload/handle' },
  small: { use: ':original', robot: '/image/resize', width: 48 },
  tiny: { use: ':original', robot: '/image/resize', width: 16 },
};

async function photo(dir: string, name: string, background: string): Promise<string> {
  const file = path.join(dir, name);
  await sharp({ create: { width: 120, height: 80, channels: 3, background } }).jpeg().toFile(file);
  return file;
}

const openDetail = (ui: Page, assemblyId: string) => ui.evaluate(`void (location.hash = '#/assemblies/${assemblyId}')`);
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

test('a replay another client made shows in the original\'s detail, and links back to it', async ({ ui, running, workDir }) => {
  const sdk = await sdkFor(running);
  const original = await sdk.createAssembly({ files: { photo: await photo(workDir, 'pier.jpg', '#2a7d5f') }, params: { steps }, waitForCompletion: true });
  const originalId = String(original.assembly_id);
  // The replay is made by the SDK, not by this app: only the service knows of it.
  const replayed = await sdk.replayAssembly(originalId, { steps: { ':original': { robot: '/upload/handle' }, again: { use: ':original', robot: '/image/resize', width: 24 } } });
  const replayId = String(replayed.assembly_id);
  expect(replayId).toMatch(/^[0-9a-f]{32}$/);

  await openDetail(ui, originalId);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
  const link = ui.getByTestId('replay-link');
  await expect(link).toHaveText(replayId);
  await link.click();
  await expect(ui.getByTestId('assembly-facts')).toContainText(replayId);
  await expect(ui.getByTestId('parent-link')).toHaveText(originalId);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 30_000 });
  await ui.getByTestId('parent-link').click();
  await expect(ui.getByTestId('replay-link')).toHaveText(replayId);
});

test('"Save results to folder…" of an Assembly another client started writes its files, byte for byte, checked against the record', async ({ ui, running, workDir }) => {
  const { desktop } = browserHost(running);
  const sdk = await sdkFor(running);
  const done = await sdk.createAssembly({ files: { photo: await photo(workDir, 'dune.jpg', '#c0a030') }, params: { steps }, waitForCompletion: true });
  expect(done.ok).toBe('ASSEMBLY_COMPLETED');
  // What the status record lists: each result's name and md5.
  const record = await sdk.getAssembly(String(done.assembly_id));
  const expected = Object.values(record.results ?? {})
    .flat()
    .map((f) => ({ name: String(f.name), md5: String(f.md5hash) }));
  expect(expected).toHaveLength(2);

  await openDetail(ui, String(done.assembly_id));
  await expect(ui.getByTestId('result-card')).toHaveCount(2);
  const out = path.join(workDir, 'saved');
  await ui.getByRole('button', { name: 'Save results to folder…' }).click();
  const dialog = ui.getByRole('dialog', { name: 'Save results to folder' });
  desktop.dialogAnswers.push(out);
  await dialog.getByRole('button', { name: 'Choose folder…' }).click();
  await expect(dialog.getByTestId('mirror-folder')).toHaveText(out);
  await dialog.getByRole('button', { name: 'Save results' }).click();
  await expect(dialog.getByTestId('mirror-summary')).toHaveText('2 written · 0 skipped · 2 verified · 0 failed', { timeout: 30_000 });
  await ui.screenshot({ path: screenshotPath('assembly-detail-saved.png'), animations: 'disabled' });
  const written = await Promise.all((await readdir(out, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map(async (e) => md5(await readFile(path.join(e.parentPath, e.name)))));
  expect(written.sort()).toEqual(expected.map((e) => e.md5).sort());
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Open and Show in folder download a result once, then reuse it.
  await ui.getByRole('button', { name: 'Show in folder: dune.jpg' }).first().click();
  await expect.poll(() => desktop.revealed.length).toBe(1);
  await ui.getByRole('button', { name: 'Open dune.jpg' }).first().click();
  await expect.poll(() => desktop.opened.length).toBe(1);
  expect(desktop.opened[0]).toBe(desktop.revealed[0]);
});
