import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DRAFT_FILE, openDraftStore } from './draft-store';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-draft-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const choice = { presetId: 'custom', customText: '{ "a": 1', templateId: null, templateFields: {} };

describe('the draft on disk', () => {
  it('starts empty, and the next open reads what was saved', async () => {
    const first = openDraftStore(dir);
    expect(first.saved).toEqual({ files: { roots: [], removed: [] }, choice: null });
    first.saveFiles({ roots: [{ path: '/home/me/shoot', label: 'shoot', aliases: [['shoot/a~1.jpg', 'shoot/a very long name.jpg']], notes: [] }], removed: ['/home/me/shoot/b.jpg'] });
    first.saveChoice(choice);
    await first.flush();

    const second = openDraftStore(dir);
    expect(second.saved.choice).toEqual(choice);
    expect(second.saved.files.roots.map((r) => r.path)).toEqual(['/home/me/shoot']);
    expect(second.saved.files.roots[0]?.aliases).toEqual([['shoot/a~1.jpg', 'shoot/a very long name.jpg']]);
    expect(second.saved.files.removed).toEqual(['/home/me/shoot/b.jpg']);
    expect(second.choice()).toEqual(choice);
  });

  it('keeps the Upload options with the choice, as typed, across an open', async () => {
    const options = { notifyUrl: 'https://example.com/hook', leaveOut: ['without_results' as const], maxSize: '500 MB', maxNumberOfFiles: '10', referer: '', fields: [{ key: 'album', value: 'Trip' }], stackVersion: 'v7' };
    const first = openDraftStore(dir);
    first.saveChoice({ ...choice, options });
    await first.flush();
    expect(openDraftStore(dir).saved.choice?.options).toEqual(options);
  });

  it('keeps the file readable by its user only', async () => {
    const store = openDraftStore(dir);
    store.saveChoice(choice);
    await store.flush();
    expect((await stat(path.join(dir, DRAFT_FILE))).mode & 0o777).toBe(0o600);
  });

  it('writes the last of several quick changes', async () => {
    const store = openDraftStore(dir, { delayMs: 20 });
    for (let i = 0; i < 50; i += 1) store.saveChoice({ ...choice, customText: `text ${i}` });
    await store.flush();
    const onDisk = JSON.parse(await readFile(path.join(dir, DRAFT_FILE), 'utf8')) as { choice: { customText: string } };
    expect(onDisk.choice.customText).toBe('text 49');
  });

  it.each([
    ['not JSON', '{"format":1,"files":'],
    ['a choice of the wrong shape', JSON.stringify({ format: 1, files: { roots: [], removed: [] }, choice: { presetId: 3 } })],
    ['a format it does not know', JSON.stringify({ format: 99, files: { roots: [] }, choice: null })],
  ])('sets a damaged file (%s) aside and starts empty', async (_what, text) => {
    await writeFile(path.join(dir, DRAFT_FILE), text);
    const store = openDraftStore(dir);
    expect(store.saved).toEqual({ files: { roots: [], removed: [] }, choice: null });
    const names = await readdir(dir);
    const aside = names.find((n) => n.startsWith(`${DRAFT_FILE}.corrupt-`));
    expect(aside).toBeDefined();
    expect(await readFile(path.join(dir, aside as string), 'utf8')).toBe(text);
  });

  it('reports a write that fails, and keeps working', async () => {
    const errors: string[] = [];
    const store = openDraftStore(path.join(dir, 'gone'), { onError: (m) => errors.push(m) });
    store.saveChoice(choice);
    await store.flush();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/could not be saved/);
    expect(store.choice()).toEqual(choice);
  });
});
