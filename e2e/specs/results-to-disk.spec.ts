import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app';
import { axeOn, showTheme, WCAG_TAGS } from '../fixtures/axe';
import { generatePhotoFolder } from '../fixtures/images';
import { screenshotPath } from '../fixtures/paths';
import { openAssembly, startTransfer, transferList } from '../fixtures/transfers';

/**
 * Results to disk and job manifests, as a producer uses them: a folder tree is resized, its batch's results
 * are saved into a folder that mirrors the tree (every hash checked by this test against the service's
 * records), saved again with "skip" (nothing rewritten) and "keep both" ((2) copies), and a manifest is
 * exported as CSV from the batch and as JSON from the Assembly view; its rows are what the test sent.
 */

const md5 = async (file: string) => createHash('md5').update(await readFile(file)).digest('hex');

/** RFC 4180: quoted cells, doubled quotes, CRLF rows. */
const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
};

const shoot = async (ui: Page, name: string) => {
  await ui.emulateMedia({ colorScheme: 'light' });
  await ui.screenshot({ path: screenshotPath(`${name}.png`), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot({ path: screenshotPath(`${name}-dark.png`), animations: 'disabled' });
  await ui.emulateMedia({ colorScheme: 'light' });
};

/** Serious and critical WCAG 2.1 AA violations of the open dialog, in both themes. */
const axeDialog = async (ui: Page): Promise<string[]> => {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await showTheme(ui, theme);
    const { violations } = await axeOn(ui).include('dialog[open]').withTags(WCAG_TAGS).analyze();
    found.push(...violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${theme}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
  }
  await ui.emulateMedia({ colorScheme: 'light' });
  return found;
};

test('results of a folder upload are mirrored to disk with hashes checked; a manifest is exported and its rows match what was sent', async ({ running, ui, workDir }) => {
  test.setTimeout(120_000);
  if (running.kind !== 'browser-host') throw new Error('results-to-disk.spec.ts answers the host dialogs through the recording desktop (browser host)');
  const desktop = running.desktop;
  const { dir, images } = await generatePhotoFolder(workDir, 'photos');
  const out = path.join(workDir, 'out');

  await ui.getByLabel('Choose folder').setInputFiles(dir);
  await expect(ui.getByTestId('file-row')).toHaveCount(images.length);
  await ui.getByText('Resize images to 1024 px').click();
  await startTransfer(ui, `Start · ${images.length} files`);
  const batch = transferList(ui).getByTestId('transfer-batch');
  await expect(batch.getByTestId('batch-state')).toHaveText('Completed', { timeout: 60_000 });

  // The service's own records, read from core (what the saved files must match).
  const run = running.app.core.runs.list().find((r) => r.state === 'ASSEMBLY_COMPLETED')!;
  const full = await running.app.core.runs.settled(run.runId);
  if (!full.ok) throw new Error(full.error.message);
  const resized = full.value.status?.results?.resized ?? [];
  expect(resized).toHaveLength(images.length);

  // The keyboard puts the focus on the batch's line: its actions are real buttons above the list.
  await transferList(ui).focus();
  await ui.keyboard.press('Home');
  await expect(ui.getByTestId('transfer-target')).toContainText('Files 1–3');
  await ui.getByTestId('transfer-target').getByRole('button', { name: 'Save results to folder…' }).click();
  const dialog = ui.getByRole('dialog', { name: 'Save results to folder' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('mirror-folder')).toHaveText('No folder chosen yet');
  await expect(dialog.getByRole('button', { name: 'Save results' })).toBeDisabled();
  desktop.dialogAnswers.push(out);
  await dialog.getByRole('button', { name: 'Choose folder…' }).click();
  await expect(dialog.getByTestId('mirror-folder')).toHaveText(out);
  await expect(dialog.getByLabel(/^One folder per step, mirroring the input folders/)).toBeChecked();
  await expect(dialog.getByLabel(/^Skip/)).toBeChecked();
  await dialog.getByRole('button', { name: 'Save results' }).click();
  await expect(dialog.getByTestId('mirror-summary')).toHaveText('3 written · 0 skipped · 3 verified · 0 failed', { timeout: 30_000 });
  await expect(dialog.getByTestId('mirror-outcome')).toHaveText('Every result is in the folder.');
  await shoot(ui, 'results-to-disk');
  expect(await axeDialog(ui)).toEqual([]);

  // Every result at its mirrored path, with the md5 the service recorded.
  const mtimes = new Map<string, number>();
  for (const image of images) {
    const name = path.posix.basename(image.relativePath);
    const record = resized.find((r) => r.name === name)!;
    const saved = path.join(out, 'resized', ...image.relativePath.split('/'));
    expect(await md5(saved), saved).toBe(record.md5hash);
    mtimes.set(saved, (await stat(saved)).mtimeMs);
  }

  // Again with "skip": nothing is rewritten.
  await dialog.getByRole('button', { name: 'Save again' }).click();
  await expect(dialog.getByTestId('mirror-summary')).toHaveText('0 written · 3 skipped · 0 verified · 0 failed');
  for (const [file, mtime] of mtimes) expect((await stat(file)).mtimeMs, file).toBe(mtime);

  // "Keep both": a (2) copy beside each, the first ones untouched.
  await dialog.getByLabel(/^Keep both/).check();
  await dialog.getByRole('button', { name: 'Save again' }).click();
  await expect(dialog.getByTestId('mirror-summary')).toHaveText('3 written · 0 skipped · 3 verified · 0 failed');
  for (const [file, mtime] of mtimes) {
    expect((await stat(file)).mtimeMs).toBe(mtime);
    expect(await md5(file.replace(/(\.[a-z]+)$/, ' (2)$1'))).toBe(await md5(file));
  }
  // Show in folder reveals the output folder (the host's desktop port).
  await dialog.getByRole('button', { name: 'Show in folder' }).click();
  await expect.poll(() => desktop.revealed).toContain(out);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // The batch's manifest as CSV: one row per result, the inputs as the test made them.
  const inputs = await Promise.all(images.map(async (i) => ({ path: i.relativePath, size: (await stat(path.join(workDir, i.relativePath))).size, md5: await md5(path.join(workDir, i.relativePath)) })));
  const csvFile = path.join(workDir, 'manifest.csv');
  desktop.dialogAnswers.push(csvFile);
  await ui.getByTestId('transfer-target').getByRole('button', { name: 'Export manifest…' }).click();
  const exportDialog = ui.getByRole('dialog', { name: 'Export manifest' });
  await expect(exportDialog.getByLabel(/^CSV/)).toBeChecked();
  await exportDialog.getByRole('button', { name: 'Export…' }).click();
  // Where the file went stays in the dialog until it is closed.
  await expect(exportDialog.getByTestId('manifest-saved')).toHaveText(/^Saved \d+ rows? to .*manifest\.csv$/);
  await exportDialog.getByRole('button', { name: 'Close' }).click();
  await expect(exportDialog).toBeHidden();
  const csvText = await readFile(csvFile, 'utf8');
  expect(csvText.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parseCsv(csvText.slice(1));
  expect(header).toEqual(['input_path', 'input_size', 'input_md5', 'assembly_id', 'state', 'error', 'step', 'result_name', 'result_url', 'result_size', 'result_md5', 'local_path', 'local_md5']);
  const col = (row: string[], name: string) => row[header!.indexOf(name)]!;
  expect(rows.map((r) => [col(r, 'input_path'), Number(col(r, 'input_size')), col(r, 'input_md5')]).sort()).toEqual(inputs.map((i) => [i.path, i.size, i.md5]).sort());
  for (const row of rows) {
    const record = resized.find((r) => r.name === col(row, 'result_name'))!;
    expect([col(row, 'assembly_id'), col(row, 'state'), col(row, 'error'), col(row, 'step'), col(row, 'result_url'), col(row, 'result_md5')]).toEqual([
      run.assemblyId,
      'ASSEMBLY_COMPLETED',
      '',
      'resized',
      record.ssl_url,
      record.md5hash,
    ]);
    expect(col(row, 'local_path').startsWith(out + path.sep)).toBe(true);
    expect(await md5(col(row, 'local_path'))).toBe(col(row, 'local_md5'));
  }

  // The Assembly view's manifest as JSON: the same inputs, nested with their results.
  await openAssembly(ui);
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed');
  await ui.getByRole('button', { name: 'Export manifest…' }).click();
  const runExport = ui.getByRole('dialog', { name: 'Export manifest' });
  await runExport.getByLabel(/^JSON/).check();
  await shoot(ui, 'manifest-export');
  expect(await axeDialog(ui)).toEqual([]);
  const jsonFile = path.join(workDir, 'manifest.json');
  desktop.dialogAnswers.push(jsonFile);
  await runExport.getByRole('button', { name: 'Export…' }).click();
  await expect(runExport.getByTestId('manifest-saved')).toContainText(jsonFile);
  await runExport.getByRole('button', { name: 'Close' }).click();
  await expect(runExport).toBeHidden();
  const json = JSON.parse(await readFile(jsonFile, 'utf8')) as { assemblies: Array<{ assemblyId: string; state: string; inputs: Array<{ path: string; size: number; md5: string; results: Array<{ step: string; md5: string }> }> }> };
  expect(json.assemblies).toHaveLength(1);
  expect(json.assemblies[0]).toMatchObject({ assemblyId: run.assemblyId, state: 'ASSEMBLY_COMPLETED' });
  expect(json.assemblies[0]!.inputs.map((i) => ({ path: i.path, size: i.size, md5: i.md5 })).sort((a, b) => a.path.localeCompare(b.path))).toEqual(
    [...inputs].sort((a, b) => a.path.localeCompare(b.path)),
  );
  for (const i of json.assemblies[0]!.inputs) expect(i.results.map((r) => r.step)).toEqual(['resized']);

  // Activity: the Assemblies selected under the filters, as a manifest.
  await ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Activity/ }).click();
  await ui.getByRole('button', { name: 'Select all 1' }).click();
  await expect(ui.getByTestId('selection-count')).toHaveText('1 Assembly selected');
  await shoot(ui, 'activity-selection-results');
  const activityFile = path.join(workDir, 'activity.csv');
  desktop.dialogAnswers.push(activityFile);
  await ui.getByRole('button', { name: 'Export manifest…' }).click();
  const activityExport = ui.getByRole('dialog', { name: 'Export manifest' });
  await activityExport.getByRole('button', { name: 'Export…' }).click();
  await expect(activityExport.getByTestId('manifest-saved')).toContainText(activityFile);
  await activityExport.getByRole('button', { name: 'Close' }).click();
  await expect(activityExport).toBeHidden();
  const activityRows = parseCsv((await readFile(activityFile, 'utf8')).slice(1)).slice(1);
  expect(activityRows.map((r) => [r[0], r[3]]).sort()).toEqual(inputs.map((i) => [i.path, run.assemblyId]).sort());
});
