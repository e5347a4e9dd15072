import { execFileSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { CreateAssemblyParams } from '@transloadit/node';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { useCustomSteps } from '../fixtures/steps-editor';
import { openAssembly, startTransfer } from '../fixtures/transfers';
import { localSdk } from '../fixtures/vendor-sdk';

/**
 * Issue 26, "Done when": one Assembly, one screen, live. A long encode this app uploads is opened from
 * Transfers, from Activity and from the drop's notification: the same view (`#/assemblies/<id>`) each time,
 * the running step's own percentage moving (the app asks every Assembly for execution progress; the
 * template-less custom steps here do not), results appearing step by step; then Save results and Replay
 * from it. A failed step of another client's Assembly says which and why. One app start; the clip is small
 * (320×180) so the encode is long enough to watch on a busy machine without taking minutes.
 */

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);

const STEPS = {
  ':original': { robot: '/upload/handle' },
  encoded: { use: ':original', robot: '/video/encode', width: 640, height: 360, result: true },
  thumbs: { use: 'encoded', robot: '/video/thumbs', count: 2, width: 160, result: true },
};

/**
 * In the page, as it changes (nothing polls): every value the encode step's bar shows, and the state of the
 * thumbs step when the first result of each step appeared.
 */
const record = (ui: Page) =>
  ui.evaluate(`(() => {
    globalThis.__seen = { encoded: [], firstResult: {} };
    const read = () => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Progress of step encoded"]');
      const v = bar ? Number(bar.getAttribute('aria-valuenow')) : null;
      const list = globalThis.__seen.encoded;
      if (v !== null && list.at(-1) !== v) list.push(v);
      for (const group of document.querySelectorAll('[data-testid="result-step"]')) {
        const step = group.dataset.step;
        if (globalThis.__seen.firstResult[step] !== undefined) continue;
        const thumbs = document.querySelector('[data-testid="step-progress"][data-step="thumbs"]');
        globalThis.__seen.firstResult[step] = thumbs ? thumbs.dataset.state : null;
      }
    };
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow', 'data-state'] });
    read();
  })()`);
const seen = (ui: Page) => ui.evaluate('globalThis.__seen') as Promise<{ encoded: number[]; firstResult: Record<string, string | null> }>;
const hashOf = (ui: Page) => ui.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash);

test('a long encode opened from Transfers, Activity and its notification: one live view, steps moving, results per step, Save results and Replay; a failed step says which and why', async ({ ui, running, workDir }) => {
  test.setTimeout(300_000);
  if (running.kind !== 'browser-host') throw new Error('browser host only (see playwright.config.ts)');
  const { desktop } = running;
  // The drop's end raises a Web Notification while the window is in the background: record it.
  await ui.context().grantPermissions(['notifications'], { origin: running.app.host.origin });
  await ui.addInitScript(() => {
    const w = globalThis as unknown as { Notification: new (title: string, options?: { body?: string; tag?: string }) => { onclick: (() => void) | null }; __notices: unknown[] };
    const Real = w.Notification;
    w.__notices = [];
    w.Notification = class extends Real {
      constructor(title: string, options?: { body?: string; tag?: string }) {
        super(title, options);
        w.__notices.push({ title, instance: this });
      }
    };
  });
  await ui.reload();

  const dir = path.join(workDir, 'clips');
  await mkdir(dir, { recursive: true });
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=60:size=320x180:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=60', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', path.join(dir, 'talk.mp4'));
  await ui.getByLabel('Choose folder').setInputFiles(dir);
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
  await useCustomSteps(ui, STEPS);
  await ui.evaluate(() => (globalThis as unknown as { dispatchEvent(e: Event): void }).dispatchEvent(new Event('blur')));
  await startTransfer(ui, 'Start · 1 file');

  // From Transfers: the Assembly's one view.
  await openAssembly(ui);
  await expect.poll(() => hashOf(ui)).toMatch(/^#\/assemblies\/[0-9a-f]{32}$/);
  const viewHash = await hashOf(ui);
  const assemblyId = viewHash.slice('#/assemblies/'.length);
  await record(ui);
  await expect(ui.getByTestId('started-here')).toBeVisible();
  const encoded = ui.locator('[data-testid="step-progress"][data-step="encoded"]');
  await expect(encoded).toHaveAttribute('data-state', 'executing', { timeout: 60_000 });
  await expect(ui.getByRole('progressbar', { name: 'Progress of step encoded' })).toHaveAttribute('aria-valuenow', /^(?!0$)\d{1,2}(\.\d)?$/, { timeout: 60_000 });
  await expect(ui.getByTestId('live-line')).toContainText(/Processing \d+ % · step "encoded" \d+ %/);
  await expect(ui.getByTestId('file-row').filter({ hasText: 'clips/talk.mp4' })).toContainText('Uploaded');
  await ui.screenshot({ path: screenshotPath('assembly-view-running.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('assembly-view-running-dark.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });

  // From Activity, while it runs: the same view of the same Assembly, still moving.
  await ui.getByRole('button', { name: 'Activity' }).click();
  await ui.locator(`[data-testid="assembly-row"][data-id="${assemblyId}"]`).getByTestId('assembly-open').click();
  expect(await hashOf(ui)).toBe(viewHash);
  await record(ui);
  await expect(ui.getByTestId('started-here')).toBeVisible();
  await expect.poll(async () => new Set((await seen(ui)).encoded.filter((v) => v > 0 && v < 100)).size, { timeout: 120_000 }).toBeGreaterThanOrEqual(2);

  // Results step by step: the encode's appear while the thumbnails step has not finished, then the thumbnails.
  await expect(ui.locator('[data-testid="result-step"][data-step="thumbs"] [data-testid="result-card"]')).toHaveCount(2, { timeout: 180_000 });
  const after = await seen(ui);
  expect(after.firstResult.encoded, JSON.stringify(after)).not.toBe('done');
  expect(after.encoded, 'the step never goes back').toEqual([...after.encoded].sort((a, b) => a - b));
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 60_000 });
  await expect(ui.getByTestId('step-progress').and(ui.locator('[data-state="done"]'))).toHaveCount(3);
  await expect(encoded.getByTestId('step-duration')).toHaveText(/\d/);
  await expect(ui.getByTestId('file-row').filter({ hasText: 'clips/talk.mp4' })).toContainText('3 results');
  await ui.screenshot({ path: screenshotPath('assembly-view-ended.png'), animations: 'disabled', fullPage: true });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('assembly-view-ended-dark.png'), animations: 'disabled', fullPage: true });
  await ui.emulateMedia({ colorScheme: 'light' });

  // From the notification of the drop's end: the same view.
  await ui.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => ui.evaluate(() => (globalThis as unknown as { __notices: Array<{ title: string }> }).__notices.map((n) => n.title)), { timeout: 60_000 }).toEqual([expect.stringMatching(/finished$/)]);
  await ui.evaluate(() => (globalThis as unknown as { __notices: Array<{ instance: { onclick: () => void } }> }).__notices[0]!.instance.onclick());
  await expect.poll(() => hashOf(ui)).toBe(viewHash);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
  await expect(ui.locator('[data-testid="result-step"][data-step="encoded"] [data-testid="result-card"]')).toHaveCount(1);

  // Save results from it: every result in the folder, checked against the record.
  const out = path.join(workDir, 'saved');
  await ui.getByRole('button', { name: 'Save results to folder…' }).click();
  const dialog = ui.getByRole('dialog', { name: 'Save results to folder' });
  desktop.dialogAnswers.push(out);
  await dialog.getByRole('button', { name: 'Choose folder…' }).click();
  await dialog.getByRole('button', { name: 'Save results' }).click();
  await expect(dialog.getByTestId('mirror-summary')).toHaveText('3 written · 0 skipped · 3 verified · 0 failed', { timeout: 30_000 });
  expect((await readdir(out, { recursive: true })).filter((f) => /\.(mp4|jpg)$/.test(f))).toHaveLength(3);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Replay from it: a new Assembly over the same file, in the same view, linked to its parent.
  await ui.getByRole('button', { name: 'Replay…' }).click();
  await ui.getByTestId('replay-panel').getByRole('button', { name: 'Replay' }).click();
  await expect.poll(() => hashOf(ui)).not.toBe(viewHash);
  await expect(ui.getByTestId('parent-link')).toHaveText(assemblyId);
  await expect(ui.getByTestId('assembly-state')).toHaveText(/Processing|Completed/);
  await expect(ui.locator('[data-testid="step-progress"][data-step="encoded"]')).toHaveAttribute('data-state', /executing|done/, { timeout: 60_000 });

  // A step that fails, in an Assembly another client started: the pipeline and the error say which and why.
  const notes = path.join(workDir, 'notes.txt');
  await writeFile(notes, 'Shot list for Saturday.\n');
  const sdk = await localSdk(running);
  const params = { steps: { ':original': { robot: '/upload/handle' }, encoded: { use: ':original', robot: '/video/encode', width: 640, height: 360 } } } as CreateAssemblyParams;
  const failed = await sdk.createAssembly({ files: { notes }, params, waitForCompletion: false });
  await ui.getByRole('button', { name: 'Activity' }).click();
  await ui.locator(`[data-testid="assembly-row"][data-id="${String(failed.assembly_id)}"]`).getByTestId('assembly-open').click();
  await expect(ui.getByTestId('assembly-state')).toHaveText('Failed', { timeout: 60_000 });
  const step = ui.locator('[data-testid="step-progress"][data-state="failed"]');
  await expect(step).toHaveAttribute('data-step', 'encoded');
  await expect(step.getByTestId('step-error')).toContainText('INVALID_INPUT_ERROR');
  await expect(step.getByTestId('step-error')).toContainText('"notes.txt" is text/plain');
  await expect(ui.getByTestId('assembly-error')).toContainText('The Assembly failed at the step "encoded"');
  await expect(ui.getByTestId('file-row').filter({ hasText: 'notes.txt' })).toContainText('No result');
  await ui.screenshot({ path: screenshotPath('assembly-view-failed-step.png'), animations: 'disabled', fullPage: true });
});
