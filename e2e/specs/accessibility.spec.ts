import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import sharp from 'sharp';
import type { Locator, Page } from '@playwright/test';
import { expect, test, type RunningApp } from '../fixtures/app';
import { axeOn, showTheme, WCAG_TAGS } from '../fixtures/axe';
import { localSdk } from '../fixtures/vendor-sdk';
import { generatePhotoFolder } from '../fixtures/images';
import { screenshotPath } from '../fixtures/paths';
import { setEditorText } from '../fixtures/template-editor';
import { openAssembly, startTransfer, transferList } from '../fixtures/transfers';

const BLOCKING = new Set(['serious', 'critical']);
const THEMES = ['light', 'dark'] as const;
/** Best-practice rules the issue names too (landmarks sharing a name); these fail at any impact. */
const LANDMARK_RULES = ['landmark-unique', 'landmark-one-main', 'landmark-no-duplicate-banner', 'landmark-no-duplicate-main', 'landmark-complementary-is-top-level', 'region'];

const toLines = (screen: string, pass: string, violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations'], all: boolean): string[] =>
  violations
    .filter((v) => all || BLOCKING.has(v.impact ?? ''))
    .flatMap((v) => v.nodes.map((node) => `${screen} [${pass}] ${v.id} (${v.impact}) at ${node.target.join(' > ')}: ${(node.failureSummary ?? v.help).replace(/\s+/g, ' ').trim()}`));

/**
 * The WCAG rules of WCAG_TAGS that axe runs for those tags, by id (so one run can take them and the landmark
 * rules together); experimental and deprecated ones stay off, as `withTags` leaves them.
 */
const WCAG_RULES = axe
  .getRules(WCAG_TAGS)
  .filter((rule) => !rule.tags.includes('experimental') && !rule.tags.includes('deprecated'))
  .map((rule) => rule.ruleId);
/** The rules whose outcome depends on the colours, the only ones a second theme can change. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Runs axe on what is on screen now and returns the serious and critical violations (and any landmark one)
 * as readable lines: every rule in the light theme, then the colour rules again in the dark one (the app
 * follows the system's colour scheme unless the user picks one; nothing else differs between themes).
 */
async function audit(ui: Page, screen: string): Promise<string[]> {
  const found: string[] = [];
  for (const theme of THEMES) {
    await showTheme(ui, theme);
    const rules = theme === 'light' ? [...WCAG_RULES, ...LANDMARK_RULES] : COLOUR_RULES;
    const { violations } = await axeOn(ui).withRules(rules).analyze();
    found.push(...toLines(screen, theme, violations.filter((v) => !LANDMARK_RULES.includes(v.id)), false));
    found.push(...toLines(screen, 'landmarks', violations.filter((v) => LANDMARK_RULES.includes(v.id)), true));
  }
  await ui.emulateMedia({ colorScheme: 'light' });
  return found;
}

const browserHost = (running: RunningApp) => {
  if (running.kind !== 'browser-host') throw new Error('accessibility.spec.ts reads the Local workspace key through the browser host');
  return running;
};

const nav = (ui: Page, name: string): Locator => ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: new RegExp(`^${name}`) });

/** Collects what `audit` finds on each screen a test visits; `assertNone` fails with the whole list. */
const auditor = (ui: Page) => {
  const violations: string[] = [];
  return {
    check: async (screen: string) => void violations.push(...(await audit(ui, screen))),
    assertNone: () => expect(violations, `serious or critical axe violations:\n${violations.join('\n')}`).toEqual([]),
  };
};

test('Upload (empty, files picked), Transfers, an Assembly with results, Activity and an Assembly running pass axe in both themes', async ({ ui, running, workDir }) => {
  test.setTimeout(300_000);
  const { check, assertNone } = auditor(ui);

  // Upload: empty, then with a folder picked and a preset chosen.
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  await check('Upload (empty)');
  const { dir, images } = await generatePhotoFolder(workDir, 'photos');
  await ui.getByLabel('Choose folder').setInputFiles(dir);
  await expect(ui.getByTestId('file-row')).toHaveCount(images.length);
  await ui.getByText('Resize images to 1024 px').click();
  await expect(ui.getByTestId('preflight')).toBeVisible();
  await check('Upload (files picked)');
  await ui.screenshot({ path: screenshotPath('a11y-upload.png'), animations: 'disabled' });
  await ui.getByText('Custom steps (JSON)').click();
  await expect(ui.getByTestId('steps-editor')).toBeVisible();
  await check('Upload (custom steps)');
  await ui.getByText('Resize images to 1024 px').click();

  // Transfers with rows, then the Assembly's view with its results.
  await startTransfer(ui, `Start · ${images.length} files`);
  await expect(transferList(ui).getByTestId('transfer-row').first()).toBeVisible();
  await check('Transfers');
  await openAssembly(ui);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 120_000 });
  await expect(ui.getByTestId('result-card')).toHaveCount(images.length);
  await expect(ui.locator('[data-testid="result-card"] [data-testid="thumb"][data-preview="ready"]').first()).toBeVisible();
  await check('Assembly view (ended, started here)');
  await nav(ui, 'Transfers').click();
  await expect(transferList(ui).getByTestId('batch-state')).toHaveText('Completed');
  await check('Transfers (done)');
  // The settings panel: audited open, closed with Escape, the focus back on its button.
  const settings = ui.getByRole('button', { name: 'Settings' });
  await settings.click();
  await ui.getByLabel('Files at once').focus();
  await check('Transfer settings');
  await ui.keyboard.press('Escape');
  await expect(ui.getByRole('region', { name: 'Transfer settings' })).toBeHidden();
  await expect(settings).toBeFocused();
  await ui.screenshot({ path: screenshotPath('a11y-transfers.png'), animations: 'disabled' });

  await nav(ui, 'Activity').click();
  await expect(ui.getByRole('list', { name: 'Recent Assemblies' })).toBeVisible();
  await check('Activity');
  // The detail of that Assembly, as for any Assembly of the workspace.
  const assemblyId = await ui.getByTestId('assembly-row').first().getAttribute('data-id');
  expect(assemblyId).toMatch(/^[0-9a-f]{32}$/);
  await ui.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, `#/assemblies/${assemblyId}`);
  await expect(ui.getByTestId('assembly-facts')).toBeVisible();
  await check('Assembly view (from Activity)');
  // A file's details open: groups of fields and meta keys, the preview with its placeholder.
  await ui.getByTestId('file-row').first().getByTestId('file-details-toggle').click();
  await expect(ui.getByTestId('file-details')).toBeVisible();
  await check('Assembly detail (file details)');
  await ui.getByRole('button', { name: 'Replay…' }).click();
  await expect(ui.getByTestId('replay-panel')).toBeVisible();
  await check('Assembly detail (replay)');

  // An Assembly while it runs: the live line, the pipeline with a step moving, results arriving.
  const clip = path.join(workDir, 'clip.mp4');
  execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=30:size=320x180:rate=25', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', clip]);
  const sdk = await localSdk(running);
  const steps = { ':original': { robot: '/upload/handle' }, encoded: { use: ':original', robot: '/video/encode', width: 640, height: 360, result: true }, thumbs: { use: 'encoded', robot: '/video/thumbs', count: 1, result: true } };
  const created = await sdk.createAssembly({ files: { clip }, params: { steps, emit_execution_progress: true } as never, waitForCompletion: false });
  await ui.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, `#/assemblies/${String(created.assembly_id)}`);
  await expect(ui.locator('[data-testid="step-progress"][data-step="encoded"]')).toHaveAttribute('data-state', 'executing', { timeout: 60_000 });
  await check('Assembly view (running)');
  assertNone();
});

test('Assets (a folder with stored assets, the details, the move and delete dialogs) pass axe in both themes', async ({ ui, running, workDir }) => {
  const sdk = await localSdk(running);
  const { images } = await generatePhotoFolder(workDir, 'shore');
  const files = Object.fromEntries(images.slice(0, 2).map((image, i) => [`f${String(i)}`, path.join(workDir, image.relativePath)]));
  const stored = await sdk.createAssembly({ files, params: { steps: { ':original': { robot: '/upload/handle' }, kept: { robot: '/transloadit/store', use: ':original', path: 'shore/2026/${file.name}' } } }, waitForCompletion: true });
  expect(stored.ok).toBe('ASSEMBLY_COMPLETED');
  const { check, assertNone } = auditor(ui);

  await nav(ui, 'Assets').click();
  await ui.getByTestId('asset-folder').getByRole('button', { name: 'shore' }).click();
  await ui.getByTestId('asset-folder').getByRole('button', { name: '2026' }).click();
  await expect(ui.getByTestId('asset-row')).toHaveCount(2);
  await ui.getByTestId('asset-row').first().click();
  await expect(ui.getByTestId('asset-facts')).toBeVisible();
  await check('Assets (folder, details, a selection)');
  await ui.getByRole('button', { name: 'Move to…' }).first().click();
  await expect(ui.getByRole('dialog', { name: 'Move 1 asset' })).toBeVisible();
  await check('Assets (move dialog)');
  await ui.keyboard.press('Escape');
  await ui.getByRole('grid').focus();
  await ui.keyboard.press('Delete');
  await expect(ui.getByRole('dialog', { name: 'Delete 1 asset?' })).toBeVisible();
  await check('Assets (delete dialog)');
  assertNone();
});

test('Templates, the Template editor, the diff and the delete dialogs pass axe in both themes', async ({ ui }) => {
  const { check, assertNone } = auditor(ui);

  // Templates: empty, the editor with an error, the list with a selection, the delete dialog.
  await nav(ui, 'Templates').click();
  await expect(ui.getByText('No Templates yet')).toBeVisible();
  await check('Templates (empty)');
  await ui.getByRole('button', { name: 'New Template' }).first().click();
  await ui.getByTestId('template-name').fill('Thumbnails');
  const steps = (robot: string) => JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, small: { robot, use: ':original', width: 200 } } }, null, 2);
  await setEditorText(ui, steps('/image/resize-typo'));
  await expect(ui.getByTestId('template-check')).toContainText('ASSEMBLY_STEP_UNKNOWN_ROBOT');
  await check('Template editor (with an error)');
  await setEditorText(ui, steps('/image/resize'));
  await expect(ui.getByTestId('template-check')).toContainText('Looks valid');
  await ui.getByRole('button', { name: 'Save Template' }).click();
  await expect(ui.getByTestId('template-detail')).toContainText('Thumbnails');
  await check('Templates (one selected)');
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('a11y-template-dark.png'), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Edit' }).click();
  await setEditorText(ui, steps('/image/resize').replace('200', '300'));
  await ui.getByRole('button', { name: 'Review and save…' }).click();
  const review = ui.getByRole('dialog', { name: 'Review your changes' });
  await expect(review.locator('.cm-changedLine').first()).toBeVisible();
  await check('Review changes dialog (diff)');
  // The diff's scroll area is a Tab stop inside the dialog (the focus stays trapped in it).
  await expect(review.getByRole('region', { name: 'Template content: changes' })).toHaveAttribute('tabindex', '0');
  await ui.keyboard.press('Escape');
  await expect(review).toBeHidden();
  // The edit is not saved: leaving the editor asks first.
  await nav(ui, 'Templates').click();
  await ui.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave' }).click();
  await ui.locator('.template-row', { hasText: 'Thumbnails' }).click();
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Delete' }).click();
  const confirm = ui.getByRole('dialog', { name: 'Delete "Thumbnails"?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await check('Delete Template dialog');
  await ui.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  assertNone();
});

test('Credentials, Workspaces (form, connection report), Auth Keys (form, dialog) and CDN URLs pass axe in both themes', async ({ ui, running }) => {
  const app = browserHost(running);
  const { check, assertNone } = auditor(ui);

  // Credentials: empty, and the form.
  await nav(ui, 'Credentials').click();
  await expect(ui.getByText('No credentials yet')).toBeVisible();
  await ui.getByRole('button', { name: 'New credentials' }).click();
  await ui.getByTestId('credential-name').fill('x');
  await expect(ui.getByText('At least 4 characters', { exact: false })).toBeVisible();
  await check('Credentials form');
  await ui.getByTestId('credential-name').fill('photo-archive');
  await ui.getByLabel('Host', { exact: true }).fill('sftp.example.com');
  await ui.getByLabel('User').fill('photos');
  await ui.getByLabel('Password').fill('not-a-real-password');
  await ui.getByRole('button', { name: 'Save credentials' }).click();
  await expect(ui.getByTestId('credential-row').filter({ hasText: 'photo-archive' })).toBeVisible();
  await check('Credentials');

  // Workspaces: the list, the form, and a connection report with a failing check.
  await nav(ui, 'Workspaces').click();
  await expect(ui.getByTestId('workspace-row')).toHaveCount(1);
  await check('Workspaces');
  await ui.getByRole('button', { name: 'Add workspace' }).click();
  const workspaces = await app.app.core.handlers['workspaces:list']({});
  const localKey = workspaces.ok ? (workspaces.value[0]?.authKey ?? '') : '';
  await ui.getByLabel('Workspace name').fill('Same service');
  await ui.getByLabel('API endpoint').fill(app.app.core.localServiceUrl ?? '');
  await ui.getByLabel('Workspace slug').fill('same');
  await ui.getByLabel('Auth Key', { exact: true }).fill(localKey);
  await ui.getByLabel('Auth Secret', { exact: true }).fill('not-the-secret');
  await check('Workspace form');
  await ui.getByRole('button', { name: 'Test connection' }).click();
  await expect(ui.getByTestId('check-secret')).toHaveAttribute('data-status', 'fail');
  await check('Connection report');
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('a11y-connection-report-dark.png'), animations: 'disabled' });

  // Leaving the filled form asks first (the navigation guard); the question passes axe too.
  await nav(ui, 'Auth Keys').click();
  const leave = ui.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await check('Leave without saving? dialog');
  await leave.getByRole('button', { name: 'Leave' }).click();

  // Auth Keys: the list, the new key form, the delete dialog.
  await expect(ui.getByTestId('auth-key-row').first()).toBeVisible();
  await check('Auth Keys');
  await ui.getByRole('button', { name: 'New key' }).click();
  await ui.getByLabel('Description').fill('Shop');
  await check('New Auth Key form');
  await ui.getByRole('button', { name: 'Create key' }).click();
  const row = ui.getByTestId('auth-key-row').filter({ hasText: 'Shop' });
  await expect(row).toHaveCount(1);
  const key = (await row.getAttribute('data-key')) ?? '';
  await row.getByRole('button', { name: `Delete ${key}` }).click();
  await expect(ui.getByRole('dialog')).toBeVisible();
  await check('Delete Auth Key dialog');
  await ui.keyboard.press('Escape');
  await expect(ui.getByRole('dialog')).toBeHidden();

  await nav(ui, 'CDN URLs').click();
  await expect(ui.getByRole('heading', { name: 'Signed CDN URLs' })).toBeVisible();
  await check('CDN URLs');
  // The theme chosen in the app (data-theme) overrides the system's: dark while the system is light.
  for (const label of ['Theme: follow system', 'Theme: light']) await ui.getByRole('button', { name: label }).click();
  await expect(ui.locator('html')).toHaveAttribute('data-theme', 'dark');
  await check('CDN URLs (dark chosen in the app)');

  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath('a11y-cdn-dark.png'), animations: 'disabled' });
  assertNone();
});

interface FocusNode {
  readonly tagName: string;
  readonly shadowRoot: { readonly activeElement: FocusNode | null } | null;
  getAttribute(name: string): string | null;
  contains(other: FocusNode | null): boolean;
}

/** Where the keyboard focus is, through shadow roots (CodeMirror lives in one). Runs in the page. */
const focusInfo = (ui: Page) =>
  ui.evaluate(() => {
    // DOM types are not in the Node tsconfig.
    const doc = (globalThis as unknown as { document: { activeElement: FocusNode | null; getElementById(id: string): FocusNode | null } }).document;
    let el = doc.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return { tag: el?.tagName.toLowerCase() ?? '', label: el?.getAttribute('aria-label') ?? '', inMain: Boolean(doc.getElementById('main')?.contains(doc.activeElement)) };
  });

test('Usage (bill, chart, table) and Statistics (charts, a chart as a table) pass axe in both themes', async ({ ui, workDir }) => {
  // One real Assembly through the Upload view, so both screens have figures and charts to audit.
  const file = path.join(workDir, 'pier.jpg');
  await sharp({ create: { width: 320, height: 200, channels: 3, background: '#3a6ea5' } }).jpeg().toFile(file);
  await ui.getByLabel('Choose files').setInputFiles(file);
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
  await ui.getByText('Resize images to 1024 px').click();
  await startTransfer(ui, 'Start · 1 file');
  await expect(transferList(ui).getByTestId('batch-state')).toHaveText('Completed', { timeout: 120_000 });
  const { check, assertNone } = auditor(ui);

  await nav(ui, 'Usage').click();
  await expect(ui.getByTestId('robot-table')).toBeVisible();
  await expect(ui.getByTestId('usage-days-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await check('Usage');
  await ui.getByTestId('usage-days-chart').getByRole('button', { name: 'Show table' }).click();
  await check('Usage (per day as a table)');

  await nav(ui, 'Statistics').click();
  await expect(ui.getByTestId('stats-total-assemblies')).toHaveText('1');
  await check('Statistics');
  await ui.getByTestId('stats-assemblies-chart').getByRole('button', { name: 'Show table' }).click();
  await check('Statistics (a chart as a table)');
  assertNone();
});

test('the keyboard reaches the content with the skip link, scrolls a read-only editor and leaves the editor with Tab', async ({ ui, running }) => {
  const app = browserHost(running);
  // A Template long enough to scroll in its read-only view.
  const steps = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`size_${i}`, { robot: '/image/resize', use: ':original', width: 100 + i }]));
  const created = await app.app.core.handlers['templates:create']({ name: 'Many sizes', content: { steps: { ':original': { robot: '/upload/handle' }, ...steps } }, requireSignatureAuth: 0 });
  expect(created.ok).toBe(true);
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  const url = ui.url();

  // The first Tab stop is "Skip to content"; it shows when focused and puts the focus on the screen.
  await ui.keyboard.press('Tab');
  const skip = ui.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await ui.screenshot({ path: screenshotPath('a11y-skip-link.png'), animations: 'disabled' });
  await ui.keyboard.press('Enter');
  await expect(ui.locator('main#main')).toBeFocused();
  expect(ui.url(), 'the skip link leaves the URL (the route) alone').toBe(url);
  await expect(skip).not.toBeInViewport();
  await ui.keyboard.press('Tab');
  expect((await focusInfo(ui)).inMain, 'one Tab after the skip link is in the content').toBe(true);

  // A read-only editor's scroll area is a Tab stop, and the keys scroll it.
  await nav(ui, 'Templates').click();
  await ui.locator('.template-row', { hasText: 'Many sizes' }).click();
  const region = ui.getByRole('region', { name: 'Content of Many sizes' });
  await expect(region).toHaveAttribute('tabindex', '0');
  let reached = false;
  for (let i = 0; i < 20 && !reached; i += 1) {
    await ui.keyboard.press('Tab');
    reached = (await focusInfo(ui)).label === 'Content of Many sizes';
  }
  expect(reached, 'Tab reaches the Template content').toBe(true);
  await expect(region).toBeFocused();
  await ui.keyboard.press('PageDown');
  await expect.poll(() => region.evaluate((el) => (el as unknown as { scrollTop: number }).scrollTop)).toBeGreaterThan(0);

  // The editable editor takes Tab no more than a text field does: the next Tab leaves it.
  await ui.getByTestId('template-detail').getByRole('button', { name: 'Edit' }).click();
  await ui.getByTestId('template-editor').locator('.cm-content').click();
  expect((await focusInfo(ui)).label).toBe('Template content (JSON)');
  await ui.keyboard.press('Tab');
  expect((await focusInfo(ui)).label).not.toBe('Template content (JSON)');
  await ui.keyboard.press('Shift+Tab');
  expect((await focusInfo(ui)).label).toBe('Template content (JSON)');
});
