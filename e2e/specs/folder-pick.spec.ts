import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '../fixtures/app';

/**
 * Picking a folder in the browser host without `<input webkitdirectory>` (which freezes Chromium for the
 * better part of a second on 2,000 files): bridge.pickFolder walks the directory picker's handle in small
 * slices and stages as it goes. Playwright cannot click the system dialog, so the test hands the page a
 * REAL directory handle from the origin-private file system, filled here with 2,000 files and odd names.
 * That no task of the page's runs over 50 ms meanwhile is bench/folder-pick.ts' goal (timings are noise here).
 */

interface PickOutcome {
  roots: { handle: string }[] | null;
  error?: string;
  ms: number;
  longestTask: number;
  longTasks: number;
}

/** The little of the DOM the spec's page code uses (e2e code is typed without DOM types). */
interface OpfsWritable {
  write(data: string): Promise<void>;
  close(): Promise<void>;
}
interface OpfsDir {
  readonly name: string;
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<OpfsDir>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<{ createWritable(): Promise<OpfsWritable> }>;
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>;
}
interface PageGlobals {
  showDirectoryPicker: () => Promise<unknown>;
  __pickForTest?: () => Promise<unknown>;
  navigator: { storage: { getDirectory(): Promise<OpfsDir> } };
  DOMException: new (message: string, name: string) => Error;
  PerformanceObserver: new (callback: (list: { getEntries(): { duration: number }[] }) => void) => { observe(o: object): void; disconnect(): void };
  performance: { now(): number };
  assemblyline: {
    pickFolder(): Promise<{ ok: boolean; value?: { handle: string }[] | null; error?: { message: string } }>;
    invoke(c: string, r: object): Promise<{ ok: boolean; value?: unknown }>;
  };
}

const ODD_NAMES = ['Interview: take 2.jpg', 'what?.jpg', '#1 shot.jpg', '100%.jpg', '%41.jpg', 'ü €.jpg', 'ends with dot.'];

test('picks a 2,000-file folder through the directory picker, every name intact', async ({ running, ui }) => {
  if (running.kind !== 'browser-host') throw new Error('folder-pick.spec.ts is about the browser host (Electron shows a native dialog)');
  // Before the page bridge loads: the picker hands over whatever the test put in place.
  await ui.addInitScript(() => {
    const w = globalThis as unknown as PageGlobals;
    w.showDirectoryPicker = () => (w.__pickForTest ? w.__pickForTest() : Promise.reject(new w.DOMException('canceled', 'AbortError')));
  });
  await ui.reload();
  await expect(ui.getByTestId('drop-zone')).toBeVisible();

  // A canceled dialog answers null, not an error.
  const canceled = await ui.evaluate(() => (globalThis as unknown as PageGlobals).assemblyline.pickFolder());
  expect(canceled).toEqual({ ok: true, value: null });

  const deep = Array.from({ length: 12 }, (_, i) => `level-${i}-${'d'.repeat(90)}`);
  const expected = await ui.evaluate(
    async ({ oddNames, deepDirs }) => {
      const w = globalThis as unknown as PageGlobals;
      const opfs = await w.navigator.storage.getDirectory();
      await opfs.removeEntry('shoot', { recursive: true }).catch(() => undefined);
      const shoot = await opfs.getDirectoryHandle('shoot', { create: true });
      const write = async (dir: OpfsDir, name: string, text: string) => {
        const file = await dir.getFileHandle(name, { create: true });
        const out = await file.createWritable();
        await out.write(text);
        await out.close();
      };
      const paths: string[] = [];
      for (let d = 0; d < 20; d += 1) {
        const day = await shoot.getDirectoryHandle(`day-${String(d).padStart(2, '0')}`, { create: true });
        await Promise.all(
          Array.from({ length: 100 }, (_, i) => {
            const name = `IMG_${String(i).padStart(4, '0')}.jpg`;
            paths.push(`shoot/${day.name}/${name}`);
            return write(day, name, `${d}-${i} ${'x'.repeat(1_000 + i * 30)}`);
          }),
        );
      }
      for (const name of oddNames) {
        await write(shoot, name, `odd ${name}`);
        paths.push(`shoot/${name}`);
      }
      let dir = shoot;
      for (const name of deepDirs) dir = await dir.getDirectoryHandle(name, { create: true });
      await write(dir, 'deep.jpg', 'deep');
      paths.push(`shoot/${deepDirs.join('/')}/deep.jpg`);
      w.__pickForTest = async () => shoot;
      return paths;
    },
    { oddNames: ODD_NAMES, deepDirs: deep },
  );
  expect(expected.length).toBe(20 * 100 + ODD_NAMES.length + 1);
  expect(expected.at(-1)!.length).toBeGreaterThan(1_024);

  // The pick, as a user's: one handle comes back. How long the page's longest task was is recorded here
  // and held to its goal (none over 50 ms) by `npm run bench:folder-pick`, not by this test.
  const outcome = await ui.evaluate(async () => {
    const { PerformanceObserver, performance, assemblyline: bridge } = globalThis as unknown as PageGlobals;
    let longestTask = 0;
    let longTasks = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        longTasks += 1;
        longestTask = Math.max(longestTask, entry.duration);
      }
    });
    observer.observe({ type: 'longtask' });
    const started = performance.now();
    const answer = await bridge.pickFolder();
    const ms = performance.now() - started;
    observer.disconnect();
    return { roots: answer.ok ? (answer.value ?? null) : null, ...(answer.ok ? {} : { error: answer.error?.message }), ms, longestTask, longTasks } satisfies PickOutcome;
  });
  expect(outcome.error).toBeUndefined();
  expect(outcome.roots).toHaveLength(1);
  test.info().annotations.push({
    type: 'folder pick',
    description: `${expected.length} files staged in ${(outcome.ms / 1000).toFixed(2)} s; long tasks: ${outcome.longTasks}, longest ${outcome.longestTask.toFixed(0)} ms`,
  });

  // The handle goes to the draft in core, which lists every file under the name the user knows.
  const rows = await ui.evaluate(async (handles) => {
    const bridge = (globalThis as unknown as PageGlobals).assemblyline;
    await bridge.invoke('drafts:clear', {});
    await bridge.invoke('drafts:add', { handles });
    for (;;) {
      const summary = (await bridge.invoke('drafts:get', {})).value as { scanning: boolean; files: number; unreadable: number };
      if (!summary.scanning) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const paths: string[] = [];
    for (let offset = 0; ; offset += 1_000) {
      const page = (await bridge.invoke('drafts:rows', { offset, limit: 1_000 })).value as { total: number; rows: { relativePath: string }[] };
      paths.push(...page.rows.map((r) => r.relativePath));
      if (paths.length >= page.total) break;
    }
    const skipped = (await bridge.invoke('drafts:skipped', { offset: 0, limit: 10 })).value as { total: number };
    return { paths, skipped: skipped.total };
  }, outcome.roots!.map((r) => r.handle));
  expect(rows.skipped).toBe(0);
  expect([...rows.paths].sort()).toEqual([...expected].sort());
});

test('a picked file that became unreadable is skipped with its reason; the rest of the drop is added', async ({ running, ui, workDir }) => {
  if (running.kind !== 'browser-host') throw new Error('folder-pick.spec.ts is about the browser host');
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  const keep = path.join(workDir, 'keep.txt');
  const gone = path.join(workDir, 'gone.txt');
  await writeFile(keep, 'stays');
  await writeFile(gone, 'about to vanish');
  // A file input of our own, so each File is backed by the real file on disk, as a user's pick is.
  await ui.evaluate(() => {
    const doc = (globalThis as unknown as { document: { createElement(t: 'input'): { type: string; id: string; multiple: boolean }; body: { append(n: unknown): void } } }).document;
    const input = doc.createElement('input');
    input.type = 'file';
    input.id = 'probe-input';
    input.multiple = true;
    doc.body.append(input);
  });
  await ui.locator('#probe-input').setInputFiles([keep, gone]);
  // The page has seen the files (their sizes, as when it lists a drop); then one vanishes before staging.
  const sizes = await ui.evaluate(() =>
    Array.from((globalThis as unknown as { document: { getElementById(id: string): { files: { size: number }[] } } }).document.getElementById('probe-input').files, (f) => f.size),
  );
  expect(sizes).toEqual([5, 15]);
  await rm(gone);
  const answer = await ui.evaluate(async () => {
    const g = globalThis as unknown as PageGlobals & {
      document: { getElementById(id: string): { files: { name: string }[] } };
      assemblyline: { handlesForFiles(items: object[]): Promise<{ ok: boolean; value?: { handle: string }[]; error?: { code: string } }> };
    };
    const files = Array.from(g.document.getElementById('probe-input').files);
    const staged = await g.assemblyline.handlesForFiles(files.map((file) => ({ file, relativePath: file.name })));
    if (!staged.ok || !staged.value) return { staged };
    await g.assemblyline.invoke('drafts:clear', {});
    await g.assemblyline.invoke('drafts:add', { handles: staged.value.map((r) => r.handle) });
    for (;;) {
      const summary = (await g.assemblyline.invoke('drafts:get', {})).value as { scanning: boolean };
      if (!summary.scanning) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const rows = (await g.assemblyline.invoke('drafts:rows', { offset: 0, limit: 10 })).value as { rows: { relativePath: string }[] };
    const skipped = (await g.assemblyline.invoke('drafts:skipped', { offset: 0, limit: 10 })).value as { items: { relativePath: string; reason: string }[] };
    return { staged, rows: rows.rows.map((r) => r.relativePath), skipped: skipped.items };
  });
  expect(answer.staged.ok).toBe(true);
  expect(answer.rows).toEqual(['keep.txt']);
  expect(answer.skipped).toEqual([{ relativePath: 'gone.txt', reason: expect.stringMatching(/^The browser could not read it/) }]);
});
