import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app';
import { launchConnected } from '../fixtures/relaunch';
import { startTransfer, transferList } from '../fixtures/transfers';

/**
 * Quit mid-transfer, start again on the same data dir: the queue continues from disk (no re-adding), and
 * every file reaches exactly one Assembly — its batch's — once, with the bytes it has on disk.
 */

const FILES = 400;
/** What the page's bridge answers (the channels the screens use), for the final accounting. */
interface Bridge {
  invoke(channel: string, request: object): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;
}
interface Batch {
  id: string;
  label: string;
  state: string;
  runId: string | null;
}
interface Upload {
  name?: string;
  md5hash?: string;
}

/** Per batch: the names its rows hold, and the uploads its Assembly received. */
const accounting = (ui: Page) =>
  ui.evaluate(async () => {
    const bridge = (globalThis as unknown as { assemblyline: Bridge }).assemblyline;
    const overview = (await bridge.invoke('transfers:overview', {})).value as { batches: Batch[] };
    const out: { label: string; state: string; rows: string[]; uploads: Upload[] }[] = [];
    for (const batch of overview.batches) {
      const page = (await bridge.invoke('transfers:rows', { batchId: batch.id, offset: 0, limit: 1_000 })).value as { rows: { relativePath: string }[] };
      const run = batch.runId ? ((await bridge.invoke('runs:get', { runId: batch.runId })).value as { status?: { uploads?: Upload[] } }) : null;
      out.push({ label: batch.label, state: batch.state, rows: page.rows.map((r) => r.relativePath.split('/').pop() ?? ''), uploads: (run?.status?.uploads ?? []).map((u) => ({ name: u.name, md5hash: u.md5hash })) });
    }
    return out;
  });

test('quit mid-transfer and start again: the queue continues from disk and every file arrives exactly once', async ({ browser, workDir }) => {
  test.setTimeout(300_000);
  // 400 files of 24 KB, each its own bytes, in two folders.
  const root = path.join(workDir, 'footage');
  const md5ByName = new Map<string, string>();
  for (const folder of ['cam-a', 'cam-b']) await mkdir(path.join(root, folder), { recursive: true });
  await Promise.all(
    Array.from({ length: FILES }, (_, i) => {
      const name = `take-${String(i).padStart(3, '0')}.bin`;
      const bytes = Buffer.alloc(24 * 1024, `${name} `);
      md5ByName.set(name, createHash('md5').update(bytes).digest('hex'));
      return writeFile(path.join(root, i % 2 ? 'cam-b' : 'cam-a', name), bytes);
    }),
  );
  const dataDir = path.join(workDir, 'app-data');

  const first = await launchConnected(browser, dataDir);
  try {
    const ui = first.ui;
    // Slow enough to stop in the middle: 1 MB/s, every file by tus (resumable), Assemblies of 100 files.
    await ui.getByRole('button', { name: /^Transfers/ }).click();
    await ui.getByRole('button', { name: 'Settings' }).click();
    for (const [label, value] of [
      ['Bandwidth limit', '1'],
      ['Send files up to this size many per request', '0'],
      ['At most files per Assembly', '100'],
    ] as const) {
      const field = ui.getByLabel(label);
      await field.fill(value);
      await field.press('Enter');
    }
    await ui.getByRole('button', { name: 'Close' }).click();

    await ui.getByRole('button', { name: 'Upload', exact: true }).click();
    await ui.getByLabel('Choose folder').setInputFiles(root);
    await expect(ui.getByLabel('Selection totals')).toHaveText(/^400 files · /);
    await ui.getByText('Just store the originals').click();
    await expect(ui.getByTestId('preflight').getByTestId('preflight-files')).toHaveText(/^400 files · .* → 4 Assemblies$/);
    await startTransfer(ui, 'Start · 400 files');
    // Quit once some files are done and most are not.
    await expect(ui.getByRole('button', { name: /^Done ([2-9]\d|1\d\d)$/ })).toBeVisible({ timeout: 60_000 });
  } finally {
    await first.ui.context().close();
    await first.app.close();
  }

  // Next start, same data dir: nothing is added again; Transfers picks up where it stopped.
  const second = await launchConnected(browser, dataDir);
  try {
    const ui = second.ui;
    await ui.getByRole('button', { name: /^Transfers/ }).click();
    await expect(ui.getByRole('button', { name: /^All 400$/ })).toBeVisible();
    await expect(ui.getByTestId('transfer-eta')).toHaveText('Done', { timeout: 240_000 });
    await expect(ui.getByRole('button', { name: /^Done 400$/ })).toBeVisible();
    await expect(ui.getByRole('button', { name: /^Failed 0$/ })).toBeVisible();
    await expect(transferList(ui).getByTestId('batch-state').first()).toHaveText('Completed');
    // A file is Done once its Assembly holds it, verified; that Assembly may still be processing then.
    await expect.poll(async () => (await accounting(ui)).map((b) => b.state), { timeout: 60_000 }).toEqual(['completed', 'completed', 'completed', 'completed']);

    // Each batch's Assembly holds exactly its files, once each, with the bytes on disk.
    const batches = await accounting(ui);
    expect(batches).toHaveLength(4);
    const seen: string[] = [];
    for (const batch of batches) {
      expect(batch.state).toBe('completed');
      expect(batch.rows).toHaveLength(100);
      expect(batch.uploads.map((u) => u.name).sort()).toEqual([...batch.rows].sort());
      for (const upload of batch.uploads) expect(upload.md5hash, upload.name).toBe(md5ByName.get(upload.name ?? ''));
      seen.push(...batch.rows);
    }
    expect(seen.sort()).toEqual([...md5ByName.keys()].sort());
  } finally {
    await second.ui.context().close();
    await second.app.close();
  }
});
