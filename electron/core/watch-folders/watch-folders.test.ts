import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName } from '../../../shared/ipc/contract';
import { createCore, type Core } from '../create-core';
import { dispatch } from '../ipc/dispatch';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { until } from '../transfers/testing/engine-fixture';
import { createUnavailableSecretStore } from '../vault/unavailable-secret-store';

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
  core = await createCore({
    dataDir: path.join(dir, 'data'),
    downloadsDir: path.join(dir, 'downloads'),
    secretStore: createUnavailableSecretStore('tests'),
    desktop: { ...createRecordingDesktop(), notify: (n) => void notices.push(n.title) },
    host: 'browser',
    version: '9.9.9',
  });
  core.onEvent((name) => events.push(name));
}, 60_000);

afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

const call = async <T>(channel: Parameters<typeof dispatch>[1], request: unknown): Promise<T> => {
  const answer = await dispatch(core.handlers, channel, request);
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.value as T;
};

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
});
