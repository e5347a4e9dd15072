import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CreateAssemblyParams, TemplateContent } from '@transloadit/node';
import type { Page } from '@playwright/test';
import { localSdk as sdkFor } from '../fixtures/vendor-sdk';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';
import { openAssembly, startTransfer } from '../fixtures/transfers';

/**
 * Per-step execution progress moves during a video encode (issue 13, "Done when"): an Assembly created with
 * `emit_execution_progress: true` reports ffmpeg's own progress on its update stream, and the app shows it
 * moving through several values — in the detail of an Assembly another client started (the vendor's Node
 * SDK), and in the run view of an upload this app started with a Template that asks for it.
 */

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);

/** A 30 s test-pattern video: encoding it to 720p takes the local service several seconds. */
async function video(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'clip.mp4');
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=30:size=640x360:rate=25', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file);
  return file;
}

const encodeSteps = { ':original': { robot: '/upload/handle' }, encoded: { use: ':original', robot: '/video/encode', width: 1280, height: 720, result: true } };
/** The encode, then a step that uses it: it waits while the encode runs. */
const encodeThenThumbs = { ...encodeSteps, thumbs: { use: 'encoded', robot: '/video/thumbs', count: 1 } };


/**
 * Every value the "Processing progress" bar shows, recorded in the page as it changes (a MutationObserver:
 * a poll from the test could miss values between two reads). A string: the page's own globals.
 */
const recordProgress = (ui: Page) =>
  ui.evaluate(`(() => {
    globalThis.__progressSeen = [];
    const read = () => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Processing progress"]');
      const value = bar ? bar.getAttribute('aria-valuenow') : null;
      if (value !== null && globalThis.__progressSeen.at(-1) !== Number(value)) globalThis.__progressSeen.push(Number(value));
    };
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    read();
  })()`);
const progressSeen = (ui: Page) => ui.evaluate('globalThis.__progressSeen') as Promise<number[]>;

/**
 * Every value the encode step's own bar shows, each with the state the thumbs step was in at that moment
 * (recorded in the page as they change, like recordProgress).
 */
const recordStepProgress = (ui: Page) =>
  ui.evaluate(`(() => {
    globalThis.__stepSeen = [];
    const read = () => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Progress of step encoded"]');
      const value = bar ? bar.getAttribute('aria-valuenow') : null;
      const thumbs = document.querySelector('[data-testid="step-progress"][data-step="thumbs"]');
      const last = globalThis.__stepSeen.at(-1);
      if (value !== null && (!last || last.encoded !== Number(value))) globalThis.__stepSeen.push({ encoded: Number(value), thumbs: thumbs ? thumbs.dataset.state : null });
    };
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow', 'data-state'] });
    read();
  })()`);
const stepSeen = (ui: Page) => ui.evaluate('globalThis.__stepSeen') as Promise<{ encoded: number; thumbs: string | null }[]>;
const openDetail = (ui: Page, assemblyId: string) => ui.evaluate(`void (location.hash = '#/assemblies/${assemblyId}')`);

/** Several values strictly between 0 and 100, never going back: the encode's own report, not 0 → 100. */
function expectMovingProgress(seen: number[]) {
  const during = seen.filter((v) => v > 0 && v < 100);
  expect(new Set(during).size, `progress shown: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(3);
  expect(seen, 'progress never goes back').toEqual([...seen].sort((a, b) => a - b));
}

test('the detail of an Assembly another client started shows its encode progress moving', async ({ ui, running, workDir }) => {
  const sdk = await sdkFor(running);
  const file = await video(path.join(workDir, 'sdk'));
  await recordProgress(ui);
  await recordStepProgress(ui);
  // The SDK returns once the file is up; the encode runs on.
  // emit_execution_progress is a documented Assembly parameter the SDK's types do not list.
  const params = { steps: encodeThenThumbs, emit_execution_progress: true } as CreateAssemblyParams;
  const created = await sdk.createAssembly({ files: { clip: file }, params, waitForCompletion: false });
  const assemblyId = String(created.assembly_id);
  await openDetail(ui, assemblyId);
  const state = ui.getByTestId('assembly-state');
  await expect(state).toHaveText('Processing');
  const bar = ui.getByRole('progressbar', { name: 'Processing progress' });
  await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9]\d?$/, { timeout: 30_000 });
  await expect(ui.getByTestId('execution-progress')).toContainText('% processed');
  await ui.screenshot({ path: screenshotPath('assembly-progress-detail.png'), animations: 'disabled' });
  // Per step (the local service's progress_per_step): the encode's own bar moves while thumbs waits.
  const steps = ui.getByTestId('step-progress');
  await expect(steps).toHaveCount(3);
  await expect(ui.locator('[data-testid="step-progress"][data-step="encoded"]')).toHaveAttribute('data-state', 'executing', { timeout: 30_000 });
  await ui.screenshot({ path: screenshotPath('assembly-step-progress.png'), animations: 'disabled' });
  await expect(state).toHaveText('Completed', { timeout: 120_000 });
  expectMovingProgress(await progressSeen(ui));
  const encoding = (await stepSeen(ui)).filter((s) => s.encoded > 0 && s.encoded < 100);
  expect(new Set(encoding.map((s) => s.encoded)).size, `encode step values: ${JSON.stringify(encoding)}`).toBeGreaterThanOrEqual(2);
  expect(encoding.every((s) => s.thumbs === 'waiting'), JSON.stringify(encoding)).toBe(true);
  // Ended: every step done.
  await expect(steps.and(ui.locator('[data-state="done"]'))).toHaveCount(3);
  await expect(ui.locator('[data-testid="step-progress"][data-step="thumbs"]').getByTestId('step-progress-text')).toHaveText('Done · 1 of 1 file');
});

test('the run view of an upload with a progress-reporting Template says "Processing N %" as the encode moves', async ({ ui, running, workDir }) => {
  const sdk = await sdkFor(running);
  const template = { emit_execution_progress: true, steps: encodeSteps } as TemplateContent;
  await sdk.createTemplate({ name: 'encode-with-progress', template });
  await video(path.join(workDir, 'upload'));

  await ui.getByLabel('Choose folder').setInputFiles(path.join(workDir, 'upload'));
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
  await ui.getByText('A Template', { exact: true }).click();
  await ui.getByTestId('template-select').selectOption({ label: 'encode-with-progress' });
  await recordProgress(ui);
  await startTransfer(ui, 'Start · 1 file');
  await openAssembly(ui);

  const phase = ui.getByTestId('batch-phase');
  await expect(phase).toHaveText(/^Processing [1-9]\d? % on the service/, { timeout: 60_000 });
  await ui.screenshot({ path: screenshotPath('run-processing.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('run-processing-dark.png'), animations: 'disabled' });
  await expect(ui.getByTestId('run-state')).toHaveText('Completed', { timeout: 120_000 });
  expectMovingProgress(await progressSeen(ui));
  // Ended: the bar is the upload's again, full.
  await expect(phase).toHaveText('Upload finished');
  await expect(ui.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '100');
});
