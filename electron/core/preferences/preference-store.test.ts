import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPreferenceStore } from './preference-store';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('preference store', () => {
  it('starts with background mode off, keeps a change on disk across a restart, and tells listeners', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'prefs-'));
    const store = openPreferenceStore(dir);
    expect(store.get()).toEqual({ keepRunningInBackground: false });
    const heard: boolean[] = [];
    store.onChange((p) => heard.push(p.keepRunningInBackground));
    await store.save({ keepRunningInBackground: true });
    expect(heard).toEqual([true]);
    expect(JSON.parse(await readFile(path.join(dir, 'preferences.json'), 'utf8'))).toEqual({ keepRunningInBackground: true });
    expect(openPreferenceStore(dir).get()).toEqual({ keepRunningInBackground: true });
  });

  it('reads a damaged file as the defaults instead of failing to start', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'prefs-'));
    await writeFile(path.join(dir, 'preferences.json'), '{ not json');
    expect(openPreferenceStore(dir).get()).toEqual({ keepRunningInBackground: false });
    await writeFile(path.join(dir, 'preferences.json'), '{"keepRunningInBackground": "yes"}');
    expect(openPreferenceStore(dir).get()).toEqual({ keepRunningInBackground: false });
  });
});
