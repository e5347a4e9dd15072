import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIRROR_FILE, openMirrorStore } from './mirror-store';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-mirror-store-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('mirror store', () => {
  it('starts with the defaults and no folder', () => {
    expect(openMirrorStore(dir).settings()).toEqual({ folder: null, layout: 'by-step', conflict: 'skip' });
  });

  it('remembers the choice and where results went across a restart, in a file only the user can read', async () => {
    const store = openMirrorStore(dir);
    await store.saveSettings({ folder: '/out', layout: 'flat', conflict: 'keep-both' });
    store.remember('a\nresized\nr1', { path: '/out/resized/a.png', md5: 'x' });
    await store.flush();
    const again = openMirrorStore(dir);
    expect(again.settings()).toEqual({ folder: '/out', layout: 'flat', conflict: 'keep-both' });
    expect(again.mirrored('a\nresized\nr1')).toEqual({ path: '/out/resized/a.png', md5: 'x' });
    expect((await stat(path.join(dir, MIRROR_FILE))).mode & 0o777).toBe(0o600);
  });
});
