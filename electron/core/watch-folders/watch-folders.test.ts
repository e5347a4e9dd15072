import { existsSync } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName } from '../../../shared/ipc/contract';
import { createCore, type Core } from '../create-core';
import { callCore, testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { until } from '../transfers/testing/engine-fixture';
import { createUnavailableSecretStore } from '../vault/unavailable-secret-store';
import { openWatchStore } from './watch-store';

/**
 * Watch folders through the channels, against the real embedded service, real files and chokidar: the
 * output folder inside the watched one is never taken as input, temp files are ignored, originals are
 * moved after success, and bad folders answer WATCH_FOLDER_INVALID.
 */

let dir = '';
let core: Core;
const events: EventName[] = [];
const notices: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-watch-'));
  core = await createCore(
    testCorePorts(dir, {
      secretStore: createUnavailableSecretStore('tests'),
      desktop: { ...createRecordingDesktop(), notify: (n) => void notices.push(n.title) },
      version: '9.9.9',
    }),
  );
  core.onEvent((name) => events.push(name));
}, 60_000);

afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

const exists = (file: string) => access(file).then(() => true, () => false);
const failure = async (channel: Parameters<typeof dispatch>[1], request: unknown) => {
  const answer = await dispatch(core.handlers, channel, request);
  if (answer.ok) throw new Error(`${channel} was accepted`);
  return { code: answer.error.code, message: answer.error.message, field: answer.error.details?.field };
};

const call = <T>(channel: string, request: unknown): Promise<T> => callCore<T>(core, channel, request);

describe('watch folders', () => {
  it('refuses a folder that does not exist or lies inside the output folder', async () => {
    const missing = await dispatch(core.handlers, 'watch-folders:add', { folder: { path: path.join(dir, 'nope') }, output: { path: path.join(dir, 'out') }, recipe: { kind: 'preset', presetId: 'store-originals' } });
    expect(missing.ok ? null : missing.error.code).toBe('WATCH_FOLDER_INVALID');
    await mkdir(path.join(dir, 'out', 'in'), { recursive: true });
    const inside = await dispatch(core.handlers, 'watch-folders:add', { folder: { path: path.join(dir, 'out', 'in') }, output: { path: path.join(dir, 'out') }, recipe: { kind: 'preset', presetId: 'store-originals' } });
    expect(inside.ok ? null : inside.error.code).toBe('WATCH_FOLDER_INVALID');
    const relative = await dispatch(core.handlers, 'watch-folders:add', { folder: { path: 'in' }, output: { path: path.join(dir, 'out') }, recipe: { kind: 'preset', presetId: 'store-originals' } });
    expect(relative.ok ? null : relative.error.code).toBe('WATCH_FOLDER_INVALID');
    // A script in the page cannot point a watch at a hidden folder or at the app's own data.
    await mkdir(path.join(dir, '.ssh'), { recursive: true });
    const hidden = await dispatch(core.handlers, 'watch-folders:add', { folder: { path: path.join(dir, '.ssh') }, output: { path: path.join(dir, 'out') }, recipe: { kind: 'preset', presetId: 'store-originals' } });
    expect(hidden.ok ? null : hidden.error.code).toBe('WATCH_FOLDER_INVALID');
    const data = await dispatch(core.handlers, 'watch-folders:add', { folder: { path: dir }, output: { path: path.join(dir, 'out2') }, recipe: { kind: 'preset', presetId: 'store-originals' } });
    expect(data.ok ? null : data.error.code).toBe('WATCH_FOLDER_INVALID');
    const intoData = await dispatch(core.handlers, 'watch-folders:add', { folder: { path: path.join(dir, 'out', 'in') }, output: { path: path.join(dir, 'data', 'x') }, recipe: { kind: 'preset', presetId: 'store-originals' } });
    expect(intoData.ok ? null : intoData.error.code).toBe('WATCH_FOLDER_INVALID');
  });

  it('processes a new file into an output folder inside the watched one, moves the original, and ignores temp files and its own results', async () => {
    const inbox = path.join(dir, 'inbox');
    const done = path.join(dir, 'originals');
    await mkdir(inbox, { recursive: true });
    const watch = await call<{ id: string }>('watch-folders:add', {
      folder: { path: inbox },
      output: { path: path.join(inbox, 'results') },
      recipe: { kind: 'preset', presetId: 'store-originals' },
      afterSuccess: { kind: 'move', folder: { path: done } },
      settleMs: 300,
    });
    await until(() => core.watchFolders.list()[0]?.state === 'watching', 10_000, 'watching');
    await mkdir(path.join(inbox, 'sub'), { recursive: true });
    await writeFile(path.join(inbox, 'sub', 'notes.txt'), 'hello watch');
    await writeFile(path.join(inbox, 'movie.mp4.part'), 'half a download');
    await writeFile(path.join(inbox, '.hidden'), 'no');

    await until(() => core.watchFolders.list()[0]?.counts.done === 1, 60_000, 'one file done');
    expect(await readFile(path.join(inbox, 'results', 'original', 'sub', 'notes.txt'), 'utf8')).toBe('hello watch');
    // Moved after success, keeping its place in the tree.
    await until(() => core.watchFolders.list()[0]?.counts.done === 1 && notices.includes('Watch folder: processed'), 5_000, 'notice');
    expect(await readFile(path.join(done, 'sub', 'notes.txt'), 'utf8')).toBe('hello watch');
    expect(await readdir(path.join(inbox, 'sub'))).toEqual([]);
    // Its results, the .part and the hidden file were never taken in.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const page = await call<{ items: { relativePath: string; state: string; results: string[] }[] }>('watch-folders:items', { id: watch.id });
    expect(page.items).toEqual([expect.objectContaining({ relativePath: 'sub/notes.txt', state: 'done', results: ['original/sub/notes.txt'] })]);
    expect(events).toContain('watch-folders:changed');

    const paused = await call<{ state: string }>('watch-folders:pause', { id: watch.id });
    expect(paused.state).toBe('paused');
    await call('watch-folders:remove', { id: watch.id });
    expect(core.watchFolders.list()).toEqual([]);
  });

  it('edits a watch in place: refusals as on add leave it unchanged; the ledger is kept; a file on the wire finishes as it was sent, the next goes to the new output', async () => {
    const inbox = path.join(dir, 'edit', 'in');
    const [outA, outB, outC] = ['edit-a', 'edit-b', 'edit-c'].map((n) => path.join(dir, n)) as [string, string, string];
    await mkdir(inbox, { recursive: true });
    const watch = await call<{ id: string }>('watch-folders:add', { folder: { path: inbox }, output: { path: path.join(inbox, 'results') }, recipe: { kind: 'preset', presetId: 'store-originals' }, settleMs: 300 });
    const current = () => core.watchFolders.list().find((w) => w.id === watch.id);
    await until(() => current()?.state === 'watching', 10_000, 'watching');
    await writeFile(path.join(inbox, 'a.txt'), 'first');
    await until(() => current()?.counts.done === 1, 60_000, 'a.txt done');
    expect(await readFile(path.join(inbox, 'results', 'original', 'a.txt'), 'utf8')).toBe('first');

    // Refused as on add, with the same message and the field it is about; the watch is left as it was.
    const addRefusal = await failure('watch-folders:add', { folder: { path: path.join(dir, 'out', 'in') }, output: { path: path.join(dir, 'out') }, recipe: { kind: 'preset', presetId: 'store-originals' } });
    expect(await failure('watch-folders:update', { id: watch.id, output: { path: path.join(dir, 'edit') } })).toEqual({ ...addRefusal, field: 'output' });
    expect(await failure('watch-folders:update', { id: watch.id, output: { path: path.join(dir, 'data', 'x') } })).toMatchObject({ code: 'WATCH_FOLDER_INVALID', field: 'output' });
    expect(await failure('watch-folders:update', { id: watch.id, afterSuccess: { kind: 'move', folder: { path: path.join(dir, '.ssh') } } })).toMatchObject({ code: 'WATCH_FOLDER_INVALID', field: 'afterSuccess' });
    expect(await failure('watch-folders:update', { id: watch.id, output: { path: outB }, recipe: { kind: 'preset', presetId: 'no-such-preset' } })).toMatchObject({ message: 'No preset no-such-preset.', field: 'recipe' });
    expect(await failure('watch-folders:update', { id: watch.id, settleMs: 10 })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
    expect(await failure('watch-folders:update', { id: 'wf_nope', settleMs: 1_000 })).toMatchObject({ code: 'NOT_FOUND' });
    // Added without a conflict policy: today's behaviour, the newest results replace earlier ones.
    expect(current()).toMatchObject({ output: path.join(inbox, 'results'), afterSuccess: { kind: 'keep' }, conflict: 'overwrite', settleMs: 300 });

    // Output moved out of the watched folder, originals deleted after success, a longer settle time.
    const edited = await call<{ output: string; afterSuccess: unknown; settleMs: number; counts: { done: number } }>('watch-folders:update', { id: watch.id, output: { path: outA }, afterSuccess: { kind: 'delete' }, settleMs: 400 });
    expect(edited).toMatchObject({ output: outA, afterSuccess: { kind: 'delete' }, settleMs: 400, counts: { done: 1 } });
    // Stored: the next start has the edit; the old output inside the watched folder stays passed over.
    const stored = openWatchStore(path.join(dir, 'data'));
    try {
      expect(stored.watches().find((w) => w.id === watch.id)).toMatchObject({ output: outA, afterSuccess: { kind: 'delete' }, settleMs: 400, retiredFolders: [path.join(inbox, 'results')] });
      expect(stored.items(watch.id).map((i) => i.relativePath)).toEqual(['a.txt']);
    } finally {
      stored.close();
    }

    await writeFile(path.join(inbox, 'b.txt'), 'second');
    await until(() => current()?.counts.done === 2, 60_000, 'b.txt done');
    expect(await readFile(path.join(outA, 'original', 'b.txt'), 'utf8')).toBe('second');
    await until(() => !existsSync(path.join(inbox, 'b.txt')), 5_000, 'b.txt deleted');
    // a.txt was not processed again (no result in the new output; still in the watched folder, kept);
    // results in the old output folder are not taken as new files.
    expect(await exists(path.join(outA, 'original', 'a.txt'))).toBe(false);
    expect(await readFile(path.join(inbox, 'a.txt'), 'utf8')).toBe('first');
    await writeFile(path.join(inbox, 'results', 'original', 'late.txt'), 'not an input');

    // Mid-run: the queue is paused, so c.txt waits on the wire while the watch is edited again.
    await call('transfers:control', { action: 'pause', scope: { kind: 'all' } });
    await writeFile(path.join(inbox, 'c.txt'), 'third');
    const items = async () => (await call<{ items: { relativePath: string; state: string; results: string[] }[] }>('watch-folders:items', { id: watch.id })).items;
    await until(() => current()?.counts.queued === 1, 10_000, 'c.txt taken');
    await expect.poll(async () => (await items()).find((i) => i.relativePath === 'c.txt')?.state, { timeout: 10_000 }).toBe('processing');
    await call('watch-folders:update', { id: watch.id, output: { path: outC }, afterSuccess: { kind: 'keep' } });
    await call('transfers:control', { action: 'resume', scope: { kind: 'all' } });
    await until(() => current()?.counts.done === 3, 60_000, 'c.txt done');
    // c.txt finished as it was sent: results in the output of that time, original deleted.
    expect(await readFile(path.join(outA, 'original', 'c.txt'), 'utf8')).toBe('third');
    await until(() => !existsSync(path.join(inbox, 'c.txt')), 5_000, 'c.txt deleted');
    // The next file goes to the new output and its original is kept.
    await writeFile(path.join(inbox, 'd.txt'), 'fourth');
    await until(() => current()?.counts.done === 4, 60_000, 'd.txt done');
    expect(await readFile(path.join(outC, 'original', 'd.txt'), 'utf8')).toBe('fourth');
    expect(await readFile(path.join(inbox, 'd.txt'), 'utf8')).toBe('fourth');
    // An output folder moved inside the watched one (created by the edit): its results are not taken as inputs.
    await call('watch-folders:update', { id: watch.id, output: { path: path.join(inbox, 'results2') } });
    await writeFile(path.join(inbox, 'e.txt'), 'fifth');
    await until(() => current()?.counts.done === 5, 60_000, 'e.txt done');
    expect(await readFile(path.join(inbox, 'results2', 'original', 'e.txt'), 'utf8')).toBe('fifth');
    await new Promise((resolve) => setTimeout(resolve, 800));
    // Five files in the ledger, each processed once; late.txt in the former output and e.txt's result never taken.
    expect((await items()).map((i) => i.relativePath).sort()).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']);
    expect(current()?.counts).toMatchObject({ done: 5, failed: 0, queued: 0 });
    expect(await readFile(path.join(inbox, 'd.txt'), 'utf8')).toBe('fourth');
    await call('watch-folders:remove', { id: watch.id });
  });

  it('when a result is already there: keep both saves a changed input\'s new result beside the earlier one; skip leaves the earlier one as it was, and the item says so', async () => {
    const inbox = path.join(dir, 'conflict', 'in');
    const out = path.join(dir, 'conflict', 'out');
    await mkdir(inbox, { recursive: true });
    const add = { folder: { path: inbox }, output: { path: out }, recipe: { kind: 'preset', presetId: 'store-originals' }, settleMs: 300 };
    // Validated like the other fields, on add and on edit.
    expect(await failure('watch-folders:add', { ...add, conflict: 'rename' })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
    const watch = await call<{ id: string; conflict: string }>('watch-folders:add', { ...add, conflict: 'keep-both' });
    expect(watch.conflict).toBe('keep-both');
    const current = () => core.watchFolders.list().find((w) => w.id === watch.id);
    type Item = { relativePath: string; state: string; results: string[]; keptBeside: string[]; skippedResults: string[] };
    const item = async () => (await call<{ items: Item[] }>('watch-folders:items', { id: watch.id })).items.find((i) => i.relativePath === 'x.txt');
    const result = (name: string) => path.join(out, 'original', name);
    await until(() => current()?.state === 'watching', 10_000, 'watching');

    await writeFile(path.join(inbox, 'x.txt'), 'first');
    await until(() => current()?.counts.done === 1, 60_000, 'x.txt done');
    expect(await item()).toMatchObject({ results: ['original/x.txt'], keptBeside: [], skippedResults: [] });
    // Changed: processed again, the new result saved as `x (2).txt` beside the first, both intact.
    await writeFile(path.join(inbox, 'x.txt'), 'second version');
    await expect.poll(async () => (await item())?.keptBeside, { timeout: 60_000 }).toEqual(['original/x (2).txt']);
    expect(await item()).toMatchObject({ state: 'done', results: ['original/x (2).txt'], skippedResults: [] });
    expect(await readFile(result('x.txt'), 'utf8')).toBe('first');
    expect(await readFile(result('x (2).txt'), 'utf8')).toBe('second version');

    expect(await failure('watch-folders:update', { id: watch.id, conflict: 'replace' })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
    expect(current()?.conflict).toBe('keep-both');
    expect(await call<{ conflict: string }>('watch-folders:update', { id: watch.id, conflict: 'skip' })).toMatchObject({ conflict: 'skip' });
    const stored = openWatchStore(path.join(dir, 'data'));
    try {
      expect(stored.watches().find((w) => w.id === watch.id)?.conflict).toBe('skip');
    } finally {
      stored.close();
    }
    // Changed again, now under skip: processed, but the result already there is left untouched and nothing is added.
    await writeFile(path.join(inbox, 'x.txt'), 'third, longer version');
    await expect.poll(async () => (await item())?.skippedResults, { timeout: 60_000 }).toEqual(['original/x.txt']);
    expect(await item()).toMatchObject({ state: 'done', results: [], keptBeside: [] });
    expect(await readFile(result('x.txt'), 'utf8')).toBe('first');
    expect(await readFile(result('x (2).txt'), 'utf8')).toBe('second version');
    expect((await readdir(path.join(out, 'original'))).sort()).toEqual(['x (2).txt', 'x.txt']);
    expect(current()?.counts).toMatchObject({ done: 1, failed: 0 });
    await call('watch-folders:remove', { id: watch.id });
  });
});
