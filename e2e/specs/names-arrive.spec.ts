import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DROP_FAULT_ENV } from '../../service/files/test-faults';
import { COPIES_AND_APOSTROPHES } from '../../service/testing/file-names';
import { expect, test } from '../fixtures/app';
import { startTransfer, transferList } from '../fixtures/transfers';

/**
 * Issue 24, as a user met it: a folder of files named as every OS names copies, and with apostrophes, went
 * by multipart, never reached the Assembly and was called Done. Every one must be in the Assembly under its
 * own name, and Done only then. The embedded service's test-only fault leaves one file out of every
 * Assembly it is sent in: that file is sent again alone, then Failed with the reason, never Done.
 */

const LEFT_OUT = 'left out (1).txt';
const NAMES = [...COPIES_AND_APOSTROPHES, 'ü €.txt', '#1 & 2; 100% +x, y.txt', "it's *cool*!.txt", 'Заметки [v2] {final}.txt'];

const saved: Record<string, string | undefined> = {};
test.beforeAll(() => {
  // The browser host forks the service with this process's environment (the fault acts only under NODE_ENV=test).
  for (const [key, value] of [
    [DROP_FAULT_ENV, LEFT_OUT],
    ['NODE_ENV', 'test'],
  ] as const) {
    saved[key] = process.env[key];
    process.env[key] = value;
  }
});
test.afterAll(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

test('a folder of copies and apostrophes arrives whole, each file Done only in its Assembly; one the service leaves out is sent again, then Failed, never Done', async ({ ui, workDir }) => {
  test.setTimeout(240_000);
  const dir = path.join(workDir, 'copies');
  await mkdir(dir, { recursive: true });
  for (const [i, name] of [...NAMES, LEFT_OUT].entries()) await writeFile(path.join(dir, name), `file ${i}: ${name}\n`.repeat(50 + i));

  await ui.getByLabel('Choose folder').setInputFiles(dir);
  const rows = ui.getByTestId('file-row');
  await expect(rows).toHaveCount(NAMES.length + 1);
  await ui.getByText('Just store the originals').click();
  await startTransfer(ui, `Start · ${NAMES.length + 1} files`);

  const list = transferList(ui);
  const row = (name: string) => list.getByTestId('transfer-row').filter({ hasText: name });
  // The one the service leaves out: sent again alone (a batch of its own), then Failed with the reason.
  await expect(row(LEFT_OUT)).toHaveAttribute('data-state', 'failed', { timeout: 180_000 });
  await expect(row(LEFT_OUT).getByTestId('transfer-error')).toHaveText(/^Missing from its Assembly \([0-9a-f]{32}\): the service completed it without this file\. Sent 4 times; not sent again\.$/);
  await expect(list.getByTestId('batch-which').filter({ hasText: '(sent again)' }).first()).toBeVisible();
  for (const name of NAMES) await expect(row(name), name).toHaveAttribute('data-state', 'verified');
  await expect(ui.getByRole('button', { name: `Done ${NAMES.length}`, exact: true })).toBeVisible();
  await expect(ui.getByRole('button', { name: 'Failed 1', exact: true })).toBeVisible();

  // The first Assembly, in the service's own record: every name once, byte for byte, and not the one left out.
  // Named for the drop (its folder), and which of its Assemblies: the first, before the ones sent again.
  await list.getByRole('button', { name: /^Open the Assembly of copies · Assembly 1 of \d+$/ }).click();
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 60_000 });
  const cards = ui.getByTestId('result-card');
  await expect(cards).toHaveCount(NAMES.length);
  const names = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  expect(names.sort()).toEqual([...NAMES].sort());
});
